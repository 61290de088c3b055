//! The audit's core: from each tool's input schema, the calls a model gets
//! wrong; what the answer to each must be; the report. Any connected rmcp
//! client drives it; `testing::audit` adds the log records of a server run
//! in this process.

use std::fmt;

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject, Tool};
use rmcp::service::{Peer, RoleClient, ServiceError};
use serde_json::{Map, Value};
use tracing::Level;

use crate::message::{FAULT_MESSAGE, RETRY_MESSAGE, one_line};
use crate::outcome::Outcome;

/// How deep `$ref`s and nested objects are followed to build a value.
const DEPTH_LIMIT: usize = 16;

/// The longest string the audit sends to break a `maxLength`.
const LENGTH_LIMIT: u64 = 10_000;

/// The name of the key no schema declares, sent to a tool that refuses
/// unknown keys.
pub(crate) const UNKNOWN_KEY: &str = "audit_unknown_key";

/// What a call gets wrong, by design.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mistake {
    /// A required argument left out.
    Missing,
    /// A required argument sent as `null`.
    Null,
    /// An argument of the wrong JSON type.
    WrongType,
    /// A value that is not one of the argument's `enum`.
    NotInEnum,
    /// A number below the argument's `minimum`.
    BelowMinimum,
    /// A number above the argument's `maximum`.
    AboveMaximum,
    /// A string shorter than the argument's `minLength`.
    TooShort,
    /// A string longer than the argument's `maxLength`.
    TooLong,
    /// A key the schema does not declare, where `additionalProperties` is
    /// false.
    UnknownKey,
}

impl Mistake {
    fn describe(&self, argument: &str) -> String {
        match self {
            Mistake::Missing => format!("the required argument {argument} left out"),
            Mistake::Null => format!("the required argument {argument} sent as null"),
            Mistake::WrongType => format!("{argument} of the wrong type"),
            Mistake::NotInEnum => format!("{argument} outside its enum"),
            Mistake::BelowMinimum => format!("{argument} below its minimum"),
            Mistake::AboveMaximum => format!("{argument} above its maximum"),
            Mistake::TooShort => format!("{argument} shorter than its minLength"),
            Mistake::TooLong => format!("{argument} longer than its maxLength"),
            Mistake::UnknownKey => format!("the unknown key {argument}"),
        }
    }
}

/// One call the audit makes: arguments that break the tool's schema in one
/// way.
#[derive(Clone, Debug)]
pub(crate) struct Probe {
    pub(crate) tool: String,
    pub(crate) mistake: Mistake,
    /// The argument the mistake is in (the unknown key, for
    /// [`Mistake::UnknownKey`]).
    pub(crate) argument: String,
    /// The value sent for it, if one was.
    pub(crate) value: Option<Value>,
    pub(crate) arguments: JsonObject,
}

/// What an answer must be, and was not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Expectation {
    /// A result with `isError` true: not a success, not a JSON-RPC error.
    IsError,
    /// Outcome 2, not a fault: the text is not the fault or retry message.
    NotFault,
    /// Logged at INFO as `tool_call_failed` with outcome `invalid` (checked
    /// only for a server audited in this process).
    LoggedInvalid,
    /// The text names the argument that is wrong.
    NamesArgument,
    /// The text quotes the value sent.
    QuotesValue,
    /// The text names a tool of this server as the next step.
    NamesServerTool,
    /// A writing rule, as `outcome_rules::check_message` reads the text.
    Rule(outcome_rules::Rule),
}

impl Expectation {
    /// The expectation's name, as the report writes it: `is-error`, or the
    /// rule's name (`no-lookup`).
    pub fn name(self) -> &'static str {
        match self {
            Expectation::IsError => "is-error",
            Expectation::NotFault => "not-fault",
            Expectation::LoggedInvalid => "logged-invalid",
            Expectation::NamesArgument => "names-argument",
            Expectation::QuotesValue => "quotes-value",
            Expectation::NamesServerTool => "names-server-tool",
            Expectation::Rule(rule) => rule.name(),
        }
    }
}

impl fmt::Display for Expectation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One answer that breaks one expectation.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The tool called.
    pub tool: String,
    /// What the call got wrong on purpose: "the required argument path
    /// left out".
    pub mistake: String,
    /// The call sent, as JSON: `{"name": .., "arguments": ..}`.
    pub call: Value,
    /// The text the model read (the JSON-RPC error's message, for a call
    /// that got one).
    pub text: String,
    /// The expectation broken.
    pub broken: Expectation,
    /// What is wrong, one sentence.
    pub detail: String,
}

/// What the audit found: see [`testing::audit`](super::testing::audit).
#[derive(Clone, Debug, Default)]
pub struct AuditReport {
    /// The tools the server lists.
    pub tools: usize,
    /// The calls made.
    pub calls: usize,
    /// Whether the log records were checked (only for a server audited in
    /// this process).
    pub logs_checked: bool,
    /// Every expectation an answer broke, in the order of the calls.
    pub findings: Vec<Finding>,
}

impl AuditReport {
    /// Whether every answer met every expectation.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }

    /// The number of calls with at least one finding.
    pub fn calls_with_findings(&self) -> usize {
        let mut calls: Vec<&Value> = self.findings.iter().map(|f| &f.call).collect();
        calls.dedup();
        calls.len()
    }
}

/// The characters the report shows of one line of a server's text, or of
/// anything else the server named (a tool, an argument).
const SHOWN_LINE: usize = 500;

/// The lines the report shows of a server's text.
const SHOWN_LINES: usize = 20;

/// `text` as the report shows it: each of its first lines on a line of its
/// own, bounded, with its control and invisible characters escaped, since
/// the report is read in a terminal and the text is any server's.
fn shown(text: &str) -> String {
    let mut lines = text.split('\n');
    let mut out = String::new();
    for (index, line) in lines.by_ref().take(SHOWN_LINES).enumerate() {
        if index > 0 {
            out.push_str("\n          ");
        }
        out.push_str(&one_line(line, SHOWN_LINE));
    }
    let rest = lines.count();
    if rest > 0 {
        out.push_str(&format!("\n          ... and {rest} more lines"));
    }
    out
}

impl fmt::Display for AuditReport {
    /// A header with the counts, then one block per call with findings:
    /// the tool and the mistake, the call sent, the text read, then each
    /// expectation broken. What the server wrote is shown bounded (the
    /// first 20 lines, 500 characters each), its control and invisible
    /// characters escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.is_clean() {
            "clean"
        } else {
            "NOT clean"
        };
        writeln!(
            f,
            "outcome audit: {verdict}: {} tools, {} calls, {} findings in {} calls{}",
            self.tools,
            self.calls,
            self.findings.len(),
            self.calls_with_findings(),
            if self.logs_checked {
                ""
            } else {
                " (log records not checked)"
            }
        )?;
        // One block per call: the findings of a call are consecutive.
        let mut block = 0;
        let mut previous: Option<&Finding> = None;
        for finding in &self.findings {
            if previous.is_none_or(|p| p.call != finding.call || p.text != finding.text) {
                block += 1;
                writeln!(f)?;
                let tool = one_line(&finding.tool, SHOWN_LINE);
                let mistake = one_line(&finding.mistake, SHOWN_LINE);
                writeln!(f, "[{block}] {tool}: {mistake}")?;
                writeln!(
                    f,
                    "  sent:   {}",
                    one_line(&finding.call.to_string(), SHOWN_LINE)
                )?;
                writeln!(f, "  read:   {}", shown(&finding.text))?;
            }
            let detail = one_line(&finding.detail, SHOWN_LINE);
            writeln!(f, "  broken: {}: {detail}", finding.broken)?;
            previous = Some(finding);
        }
        Ok(())
    }
}

/// How a call was logged, as far as the audit needs it.
#[derive(Clone, Debug)]
pub(crate) struct Logged {
    pub(crate) level: Level,
    pub(crate) name: String,
    pub(crate) tool: Option<String>,
    pub(crate) outcome: Option<String>,
}

/// Audits the server behind `peer`. `logs`, when given, returns (and
/// clears) the records logged since it was last called.
pub(crate) async fn run(
    peer: &Peer<RoleClient>,
    mut logs: Option<&mut (dyn FnMut() -> Vec<Logged> + Send)>,
) -> Result<AuditReport, ServiceError> {
    let tools = peer.list_all_tools().await?;
    let known = known_tools(&tools);
    let names: Vec<String> = tools.iter().map(|tool| tool.name.to_string()).collect();
    let mut report = AuditReport {
        tools: tools.len(),
        logs_checked: logs.is_some(),
        ..AuditReport::default()
    };
    for tool in &tools {
        for probe in probes(tool) {
            if let Some(logs) = logs.as_mut() {
                logs();
            }
            let params = CallToolRequestParams::new(tool.name.clone())
                .with_arguments(probe.arguments.clone());
            let answer = peer.call_tool(params).await;
            report.calls += 1;
            let logged = logs.as_mut().map(|logs| logs());
            let answer = match answer {
                Ok(result) => Answer::Result(result),
                Err(ServiceError::McpError(error)) => Answer::Protocol(error.message.into_owned()),
                Err(other) => return Err(other),
            };
            judge(
                &probe,
                &answer,
                logged.as_deref(),
                (&known, &names),
                &mut report.findings,
            );
        }
    }
    Ok(report)
}

/// The tools a text may name, as `tools/list` gives them.
fn known_tools(tools: &[Tool]) -> outcome_rules::Tools {
    let mut known = outcome_rules::Tools::new();
    for tool in tools {
        let parameters: Vec<String> = tool
            .input_schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|properties| properties.keys().cloned().collect())
            .unwrap_or_default();
        known = known.tool_with_parameters(tool.name.to_string(), parameters);
    }
    known
}

enum Answer {
    Result(CallToolResult),
    Protocol(String),
}

fn judge(
    probe: &Probe,
    answer: &Answer,
    logged: Option<&[Logged]>,
    (known, names): (&outcome_rules::Tools, &[String]),
    findings: &mut Vec<Finding>,
) {
    let call = serde_json::json!({ "name": probe.tool, "arguments": probe.arguments });
    let text = match answer {
        Answer::Result(result) => text_of(result),
        Answer::Protocol(message) => message.clone(),
    };
    let mut found = |broken: Expectation, detail: String| {
        findings.push(Finding {
            tool: probe.tool.clone(),
            mistake: probe.mistake.describe(&probe.argument),
            call: call.clone(),
            text: text.clone(),
            broken,
            detail,
        });
    };
    match answer {
        Answer::Protocol(_) => {
            found(
                Expectation::IsError,
                "the call got a JSON-RPC error, which many clients never show the model; \
                 answer a result with isError true"
                    .into(),
            );
            return;
        }
        Answer::Result(result) if result.is_error != Some(true) => {
            found(
                Expectation::IsError,
                "the call succeeded; arguments that break the input schema must be refused \
                 with isError true"
                    .into(),
            );
            return;
        }
        Answer::Result(_) => {}
    }
    if text.contains(FAULT_MESSAGE) || text.contains(RETRY_MESSAGE) {
        found(
            Expectation::NotFault,
            "the answer is a fault, which tells the model its request was fine; a wrong \
             argument is outcome 2"
                .into(),
        );
        return;
    }
    if let Some(records) = logged {
        let failed = records
            .iter()
            .find(|r| r.name == "tool_call_failed" && r.tool.as_deref() == Some(&*probe.tool));
        match failed {
            Some(r)
                if r.level == Level::INFO
                    && r.outcome.as_deref() == Some(Outcome::Invalid.as_str()) => {}
            Some(r) => found(
                Expectation::LoggedInvalid,
                format!(
                    "logged as tool_call_failed at {} with outcome {}; expected INFO and invalid",
                    r.level,
                    r.outcome.as_deref().unwrap_or("(none)")
                ),
            ),
            None => found(
                Expectation::LoggedInvalid,
                "no tool_call_failed record for the call".into(),
            ),
        }
    }
    if !contains_word(&text, &probe.argument) {
        found(
            Expectation::NamesArgument,
            format!("the text does not name the argument {}", probe.argument),
        );
    }
    if let Some(value) = &probe.value
        && !quotes(&text, value)
    {
        found(
            Expectation::QuotesValue,
            format!("the text does not quote the value sent, {value}"),
        );
    }
    let broken = outcome_rules::check_message(outcome_rules::Message::Invalid, &text, known);
    let names_tool_broken = broken
        .iter()
        .any(|b| b.rule == outcome_rules::Rule::NamesTool);
    if !names_tool_broken
        && !names
            .iter()
            .any(|name| contains_word(last_step(&text), name))
    {
        found(
            Expectation::NamesServerTool,
            "the text does not end with a next step that names a tool of this server".into(),
        );
    }
    for b in broken {
        // The rule's message quotes the words it is about, mostly: only
        // one that does not gets them after it.
        let detail = if b.words.is_empty() || b.message.contains(&b.words) {
            b.message
        } else {
            format!("{} ({:?})", b.message, b.words)
        };
        found(Expectation::Rule(b.rule), detail);
    }
}

/// The text of a result: its text contents, one per line.
fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|content| content.as_text().map(|text| text.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The last sentence or line of a text: where its next step stands.
fn last_step(text: &str) -> &str {
    let text = text.trim_end();
    let body = text.trim_end_matches(['.', '!', '?']);
    let start = [". ", "! ", "? ", "\n"]
        .iter()
        .filter_map(|end| body.rfind(end).map(|at| at + end.len()))
        .max()
        .unwrap_or(0);
    &text[start..]
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `word` stands in `text` as a word of its own.
fn contains_word(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
    })
}

/// Whether `text` quotes `value`: between single, double or back quotes,
/// or as `crate::quote` writes it.
fn quotes(text: &str, value: &Value) -> bool {
    let plain = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let quoted = crate::message::quote(&plain).to_string();
    let inner = quoted.trim_matches('\'');
    // A long value is cut: its start, quoted, is enough.
    let start: String = inner.chars().take(40).collect();
    text.contains(&quoted)
        || text.contains(&format!("'{start}"))
        || text.contains(&format!("\"{plain}\""))
        || text.contains(&format!("`{plain}`"))
        || text.contains(&value.to_string())
            && !matches!(value, Value::Number(_) | Value::Bool(_) | Value::Null)
}

/// The calls a model gets wrong, derived from `tool`'s input schema.
pub(crate) fn probes(tool: &Tool) -> Vec<Probe> {
    let root = Value::Object((*tool.input_schema).clone());
    let Some(baseline) = valid(&root, &root, 0) else {
        return Vec::new();
    };
    let Value::Object(baseline) = baseline else {
        return Vec::new();
    };
    let properties = root
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let required: Vec<&str> = root
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut probes = Vec::new();
    let probe = |mistake: Mistake, argument: &str, value: Option<Value>| {
        let mut arguments = baseline.clone();
        match &value {
            Some(value) => {
                arguments.insert(argument.to_owned(), value.clone());
            }
            None => {
                arguments.remove(argument);
            }
        }
        let value = value.filter(|v| !v.is_null());
        Probe {
            tool: tool.name.to_string(),
            mistake,
            argument: argument.to_owned(),
            value,
            arguments,
        }
    };
    for (name, schema) in &properties {
        let schema = resolve(schema, &root, 0);
        let is_required = required.contains(&name.as_str());
        if is_required {
            probes.push(probe(Mistake::Missing, name, None));
            if !allows_null(schema, &root) {
                probes.push(probe(Mistake::Null, name, Some(Value::Null)));
            }
        }
        if let Some(kind) = single_type(schema)
            && let Some(wrong) = wrong_type(kind)
        {
            probes.push(probe(Mistake::WrongType, name, Some(wrong)));
        }
        if let Some(choices) = schema.get("enum").and_then(Value::as_array)
            && choices.iter().all(Value::is_string)
            && !choices.is_empty()
        {
            let outside = (0..)
                .map(|n| {
                    format!(
                        "not_a_choice{}",
                        if n == 0 { String::new() } else { n.to_string() }
                    )
                })
                .find(|s| !choices.iter().any(|c| c == s))
                .unwrap();
            probes.push(probe(
                Mistake::NotInEnum,
                name,
                Some(Value::String(outside)),
            ));
        }
        let integer = single_type(schema) == Some("integer");
        if let Some(min) = schema.get("minimum").and_then(Value::as_f64) {
            probes.push(probe(
                Mistake::BelowMinimum,
                name,
                Some(number(min - 1.0, integer)),
            ));
        }
        if let Some(max) = schema.get("maximum").and_then(Value::as_f64) {
            probes.push(probe(
                Mistake::AboveMaximum,
                name,
                Some(number(max + 1.0, integer)),
            ));
        }
        if let Some(min) = schema.get("minLength").and_then(Value::as_u64)
            && min > 0
        {
            let short = "a".repeat(min as usize - 1);
            probes.push(probe(Mistake::TooShort, name, Some(Value::String(short))));
        }
        if let Some(max) = schema.get("maxLength").and_then(Value::as_u64)
            && max < LENGTH_LIMIT
        {
            let long = "a".repeat(max as usize + 1);
            probes.push(probe(Mistake::TooLong, name, Some(Value::String(long))));
        }
    }
    // serde ignores a key it does not know unless the type says
    // `deny_unknown_fields`, which schemars writes as
    // `additionalProperties: false`; JSON Schema allows one when the
    // keyword is absent. Only a schema that refuses them is probed.
    if root.get("additionalProperties") == Some(&Value::Bool(false)) {
        let key = (0..)
            .map(|n| {
                format!(
                    "{UNKNOWN_KEY}{}",
                    if n == 0 { String::new() } else { n.to_string() }
                )
            })
            .find(|k| !properties.contains_key(k))
            .unwrap();
        let mut unknown = probe(Mistake::UnknownKey, &key, Some(Value::from("x")));
        // The key is what the model got wrong, and what the text names.
        unknown.value = None;
        probes.push(unknown);
    }
    probes
}

fn number(value: f64, integer: bool) -> Value {
    if integer && value.fract() == 0.0 && value.abs() < 9.0e15 {
        Value::from(value as i64)
    } else {
        serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number)
    }
}

/// The schema `schema` refers to, `$ref`s followed within the root.
fn resolve<'s>(schema: &'s Value, root: &'s Value, depth: usize) -> &'s Value {
    let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
        return schema;
    };
    if depth >= DEPTH_LIMIT {
        return schema;
    }
    let Some(pointer) = reference.strip_prefix('#') else {
        return schema;
    };
    match root.pointer(pointer) {
        Some(target) => resolve(target, root, depth + 1),
        None => schema,
    }
}

/// The schema's one JSON type, `null` aside, when it has exactly one.
fn single_type(schema: &Value) -> Option<&str> {
    match schema.get("type")? {
        Value::String(kind) => Some(kind),
        Value::Array(kinds) => {
            let kinds: Vec<&str> = kinds
                .iter()
                .filter_map(Value::as_str)
                .filter(|k| *k != "null")
                .collect();
            match kinds[..] {
                [one] => Some(one),
                _ => None,
            }
        }
        _ => None,
    }
}

fn allows_null(schema: &Value, root: &Value) -> bool {
    let in_type = match schema.get("type") {
        Some(Value::String(kind)) => kind == "null",
        Some(Value::Array(kinds)) => kinds.iter().any(|k| k == "null"),
        Some(_) => false,
        // No type: anything, null included, unless an alternative says.
        None => !["anyOf", "oneOf", "enum", "const", "allOf"]
            .iter()
            .any(|k| schema.get(*k).is_some()),
    };
    in_type
        || schema.get("nullable") == Some(&Value::Bool(true))
        || schema
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|e| e.contains(&Value::Null))
        || ["anyOf", "oneOf"].iter().any(|k| {
            schema
                .get(*k)
                .and_then(Value::as_array)
                .is_some_and(|alts| {
                    alts.iter()
                        .any(|alt| allows_null(resolve(alt, root, 0), root))
                })
        })
}

/// A value of another JSON type than `kind`, that no lenient reading turns
/// into one of `kind`.
fn wrong_type(kind: &str) -> Option<Value> {
    Some(match kind {
        "string" => Value::from(42),
        "integer" | "number" => Value::from("ten"),
        "boolean" => Value::from("maybe"),
        "array" => Value::from("not a list"),
        "object" => Value::from("not an object"),
        _ => return None,
    })
}

/// A value the schema accepts, as far as the audit can tell.
fn valid(schema: &Value, root: &Value, depth: usize) -> Option<Value> {
    if depth > DEPTH_LIMIT {
        return None;
    }
    let schema = resolve(schema, root, depth);
    if let Some(value) = schema.get("const") {
        return Some(value.clone());
    }
    if let Some(value) = schema.get("default") {
        return Some(value.clone());
    }
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.iter().find(|v| !v.is_null()))
    {
        return Some(first.clone());
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(alternatives) = schema.get(key).and_then(Value::as_array) {
            return alternatives
                .iter()
                .filter(|alt| resolve(alt, root, depth).get("type") != Some(&Value::from("null")))
                .find_map(|alt| valid(alt, root, depth + 1));
        }
    }
    if let Some(all) = schema.get("allOf").and_then(Value::as_array)
        && let [one] = &all[..]
    {
        return valid(one, root, depth + 1);
    }
    let kind = single_type(schema).unwrap_or(if schema.get("properties").is_some() {
        "object"
    } else {
        "string"
    });
    Some(match kind {
        "string" => {
            let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(1);
            let text = match schema.get("format").and_then(Value::as_str) {
                Some("uri") => "https://example.com/".to_owned(),
                Some("email") => "someone@example.com".to_owned(),
                Some("date") => "2024-01-01".to_owned(),
                Some("date-time") => "2024-01-01T00:00:00Z".to_owned(),
                Some("uuid") => "00000000-0000-4000-8000-000000000000".to_owned(),
                _ => "a".repeat(min.clamp(1, LENGTH_LIMIT) as usize),
            };
            Value::from(text)
        }
        "integer" => {
            let min = schema.get("minimum").and_then(Value::as_f64);
            let max = schema.get("maximum").and_then(Value::as_f64);
            let value = match (min, max) {
                (Some(min), _) if min > 1.0 => min.ceil(),
                (_, Some(max)) if max < 1.0 => max.floor(),
                _ => 1.0,
            };
            Value::from(value as i64)
        }
        "number" => {
            let min = schema.get("minimum").and_then(Value::as_f64);
            let max = schema.get("maximum").and_then(Value::as_f64);
            let value = match (min, max) {
                (Some(min), _) if min > 1.0 => min,
                (_, Some(max)) if max < 1.0 => max,
                _ => 1.0,
            };
            number(value, false)
        }
        "boolean" => Value::Bool(false),
        "null" => Value::Null,
        "array" => {
            let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            let mut items = Vec::new();
            if min > 0 {
                let item = valid(
                    schema.get("items").unwrap_or(&Value::Bool(true)),
                    root,
                    depth + 1,
                )?;
                items.resize(min.min(16) as usize, item);
            }
            Value::Array(items)
        }
        "object" => {
            let mut object = Map::new();
            let properties = schema.get("properties").and_then(Value::as_object);
            for name in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                let property = properties
                    .and_then(|p| p.get(name))
                    .unwrap_or(&Value::Bool(true));
                object.insert(name.to_owned(), valid(property, root, depth + 1)?);
            }
            Value::Object(object)
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(schema: Value) -> Tool {
        let Value::Object(schema) = schema else {
            unreachable!()
        };
        Tool::new("t", "A tool.", std::sync::Arc::new(schema))
    }

    #[test]
    fn a_schema_gives_one_probe_per_mistake() {
        let tool = tool(serde_json::json!({
            "type": "object",
            "properties": {
                "path": {"type": "string"},
                "limit": {"type": "integer", "format": "uint32", "minimum": 0, "maximum": 50},
                "sort": {"$ref": "#/$defs/Sort"},
                "tag": {"type": ["string", "null"], "maxLength": 3}
            },
            "required": ["path", "sort"],
            "additionalProperties": false,
            "$defs": {"Sort": {"type": "string", "enum": ["new", "old"]}}
        }));
        let probes = probes(&tool);
        let seen: Vec<(String, Mistake)> = probes
            .iter()
            .map(|p| (p.argument.clone(), p.mistake.clone()))
            .collect();
        for expected in [
            ("path", Mistake::Missing),
            ("path", Mistake::Null),
            ("path", Mistake::WrongType),
            ("limit", Mistake::WrongType),
            ("limit", Mistake::BelowMinimum),
            ("limit", Mistake::AboveMaximum),
            ("sort", Mistake::Missing),
            ("sort", Mistake::NotInEnum),
            ("tag", Mistake::WrongType),
            ("tag", Mistake::TooLong),
            (UNKNOWN_KEY, Mistake::UnknownKey),
        ] {
            assert!(
                seen.contains(&(expected.0.to_owned(), expected.1.clone())),
                "{expected:?} not in {seen:?}"
            );
        }
        let below = probes
            .iter()
            .find(|p| p.mistake == Mistake::BelowMinimum)
            .unwrap();
        assert_eq!(below.arguments["limit"], Value::from(-1));
        assert_eq!(below.arguments["sort"], Value::from("new"));
        assert!(!seen.contains(&("tag".to_owned(), Mistake::Null)));
    }

    #[test]
    fn words_and_quotes_are_found() {
        assert!(contains_word("The argument limit of x", "limit"));
        assert!(!contains_word("The argument limits of x", "limit"));
        assert!(quotes("was 'ten', but", &Value::from("ten")));
        assert!(quotes("input_value='ten'", &Value::from("ten")));
        assert!(quotes("was '42', but", &Value::from(42)));
        assert!(!quotes("was 142, but", &Value::from(42)));
        assert_eq!(
            last_step("No note. Call lookup to find it."),
            "Call lookup to find it."
        );
        assert_eq!(
            last_step("Error in read_note\n  visit https://x.dev/a"),
            "  visit https://x.dev/a"
        );
        assert_eq!(last_step("Call read_note."), "Call read_note.");
    }
}
