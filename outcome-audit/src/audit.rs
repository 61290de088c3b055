//! The audit's core: from each tool's input schema, the calls a model gets
//! wrong; what the answer to each must be; the report. Any connected rmcp
//! client drives it; `testing::audit` adds the log records of a server run
//! in this process.

use std::fmt;
use std::time::{Duration, Instant};

use outcome_rules::{FAULT_MESSAGE, RETRY_MESSAGE, one_line};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, JsonObject, ListToolsRequest,
    PaginatedRequestParams, ServerResult, Tool,
};
use rmcp::service::{Peer, RoleClient, ServiceError};
use serde_json::{Map, Value};

use crate::{Level, LogRecord as Logged};

/// How deep `$ref`s, alternatives and nested objects are followed to
/// build a value.
pub(crate) const DEPTH_LIMIT: usize = 16;

/// The longest string the audit builds: to meet a `minLength`, to break a
/// `maxLength` or one short of a `minLength`.
pub(crate) const LENGTH_LIMIT: u64 = 100_000;

/// The most items the audit builds to meet a `minItems`.
pub(crate) const ITEMS_LIMIT: u64 = 1_000;

/// The steps (schema nodes visited, `$ref`s followed, `enum` choices
/// read) the audit spends on one tool's input schema.
pub(crate) const WALK_LIMIT: usize = 100_000;

/// The bytes, roughly, of the arguments the audit builds for one call.
pub(crate) const VALUE_LIMIT: usize = 256 * 1024;

/// The tools the audit probes; a server that lists more has the rest
/// reported as not probed.
pub(crate) const TOOLS_LIMIT: usize = 1_000;

/// The pages of `tools/list` the audit reads.
pub(crate) const PAGES_LIMIT: usize = 100;

/// The longest tool or argument name the audit probes, in characters (the
/// MCP specification's bound for a tool name).
pub(crate) const NAME_LIMIT: usize = 128;

/// The bytes of an answer's text the audit checks and keeps.
pub(crate) const TEXT_LIMIT: usize = 16 * 1024;

/// The findings after which the audit stops calling.
pub(crate) const FINDINGS_LIMIT: usize = 1_000;

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

/// One call the audit makes: the tool's baseline arguments, changed to
/// break its schema in one way.
#[derive(Clone, Debug)]
pub(crate) struct Probe {
    pub(crate) mistake: Mistake,
    /// The argument the mistake is in (the unknown key, for
    /// [`Mistake::UnknownKey`]).
    pub(crate) argument: String,
    /// What the argument is sent as: `None` leaves it out.
    pub(crate) sent: Option<Value>,
    /// Whether the answer must quote the value sent.
    pub(crate) quoted: bool,
}

impl Probe {
    /// The value the answer must quote, if any.
    fn value(&self) -> Option<&Value> {
        self.sent.as_ref().filter(|_| self.quoted)
    }

    /// The arguments of the call: `baseline`, changed.
    fn arguments(&self, baseline: &JsonObject) -> JsonObject {
        let mut arguments = baseline.clone();
        match &self.sent {
            Some(value) => {
                arguments.insert(self.argument.clone(), value.clone());
            }
            None => {
                arguments.remove(&self.argument);
            }
        }
        arguments
    }
}

/// A tool, an argument or a mistake the audit could not probe, and why. A
/// report with any is not clean: what was not called was not checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotProbed {
    /// The tool, or `None` for the tool list itself (tools past the
    /// audit's bounds, a list that does not end).
    pub tool: Option<String>,
    /// The argument, when only it (or one of its mistakes) was not probed.
    pub argument: Option<String>,
    /// Why, one sentence.
    pub why: String,
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

/// What the audit found: see [`Audit`](crate::Audit).
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
    /// What the audit could not probe, and why: a schema it cannot read or
    /// build a value for, a size past its bounds, tools past its bounds.
    pub not_probed: Vec<NotProbed>,
}

impl AuditReport {
    /// Whether every tool was probed and every answer met every
    /// expectation.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty() && self.not_probed.is_empty()
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

/// The entries the report shows of what was not probed.
const SHOWN_NOT_PROBED: usize = 100;

/// Any text a server wrote, as the audit's report shows it: one line of at
/// most 500 characters, its whitespace folded, its control and invisible
/// characters escaped, since the report is read in a terminal and the
/// text is any server's. For an error message to print beside the report.
pub fn shown_line(text: &str) -> String {
    one_line(text, SHOWN_LINE)
}

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
    /// expectation broken. What was not probed comes first, a line each
    /// (the first 100). What the server wrote is shown bounded (the first
    /// 20 lines, 500 characters each), its control and invisible
    /// characters escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.is_clean() {
            "clean"
        } else {
            "NOT clean"
        };
        writeln!(
            f,
            "outcome audit: {verdict}: {} tools, {} calls, {} findings in {} calls{}{}",
            self.tools,
            self.calls,
            self.findings.len(),
            self.calls_with_findings(),
            if self.not_probed.is_empty() {
                String::new()
            } else {
                format!(", {} not probed", self.not_probed.len())
            },
            if self.logs_checked {
                ""
            } else {
                " (log records not checked)"
            }
        )?;
        if !self.not_probed.is_empty() {
            writeln!(f)?;
        }
        for not in self.not_probed.iter().take(SHOWN_NOT_PROBED) {
            let what = match (&not.tool, &not.argument) {
                (None, _) => "the tool list".to_owned(),
                (Some(tool), None) => one_line(tool, SHOWN_LINE),
                (Some(tool), Some(argument)) => format!(
                    "{}, argument {}",
                    one_line(tool, SHOWN_LINE),
                    one_line(argument, SHOWN_LINE)
                ),
            };
            writeln!(f, "not probed: {what}: {}", one_line(&not.why, SHOWN_LINE))?;
        }
        if let Some(rest) = self.not_probed.len().checked_sub(SHOWN_NOT_PROBED)
            && rest > 0
        {
            writeln!(f, "not probed: ... and {rest} more")?;
        }
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

/// Audits the server behind `peer`. `logs`, when given, returns (and
/// clears) the records logged since it was last called. At `deadline`, if
/// one is given, the audit stops and reports what it did not reach as not
/// probed. A call with no answer within `call_timeout` is not probed.
pub(crate) async fn run(
    peer: &Peer<RoleClient>,
    mut logs: Option<&mut (dyn FnMut() -> Vec<Logged> + Send)>,
    deadline: Option<Instant>,
    call_timeout: Option<Duration>,
) -> Result<AuditReport, ServiceError> {
    let mut report = AuditReport {
        logs_checked: logs.is_some(),
        ..AuditReport::default()
    };
    let Some(tools) = list_tools(peer, deadline, &mut report).await? else {
        return Ok(report);
    };
    let known = known_tools(&tools);
    let names: Vec<&str> = tools
        .iter()
        .map(|tool| &*tool.name)
        .filter(|name| name.chars().count() <= NAME_LIMIT)
        .collect();
    for (index, tool) in tools.iter().enumerate() {
        // A turn for the runtime between tools, so that a timeout around
        // the audit is seen even when no tool makes a call.
        tokio::task::yield_now().await;
        let stop = |report: &mut AuditReport, why: &str| {
            report.not_probed.push(NotProbed {
                tool: None,
                argument: None,
                why: format!(
                    "{why} before {} of the {} tools, from {}",
                    tools.len() - index,
                    tools.len(),
                    named(&tool.name)
                ),
            });
        };
        let Ok(plan) = plan(tool, deadline) else {
            stop(&mut report, "the audit ran out of time");
            return Ok(report);
        };
        report.not_probed.extend(plan.not_probed);
        for probe in &plan.probes {
            if report.findings.len() >= FINDINGS_LIMIT {
                stop(
                    &mut report,
                    &format!("the audit stopped at {FINDINGS_LIMIT} findings"),
                );
                return Ok(report);
            }
            if let Some(logs) = logs.as_mut() {
                logs();
            }
            let arguments = probe.arguments(&plan.baseline);
            let params =
                CallToolRequestParams::new(tool.name.clone()).with_arguments(arguments.clone());
            let answer = match deadline {
                Some(deadline) => {
                    match tokio::time::timeout_at(
                        deadline.into(),
                        call_within(peer, params, call_timeout),
                    )
                    .await
                    {
                        Ok(answer) => answer,
                        Err(_) => {
                            stop(&mut report, "the audit ran out of time");
                            return Ok(report);
                        }
                    }
                }
                None => call_within(peer, params, call_timeout).await,
            };
            report.calls += 1;
            let logged = logs.as_mut().map(|logs| logs());
            let answer = match answer {
                Ok(result) => Answer::Result(result),
                Err(ServiceError::McpError(error)) => Answer::Protocol(error.message.into_owned()),
                Err(ServiceError::Timeout { timeout }) => {
                    report.not_probed.push(NotProbed {
                        tool: Some(tool.name.to_string()),
                        argument: Some(probe.argument.clone()),
                        why: format!(
                            "the call with {} got no answer within {}",
                            probe.mistake.describe(&probe.argument),
                            seconds(timeout)
                        ),
                    });
                    continue;
                }
                Err(other) => return Err(other),
            };
            let call = serde_json::json!({ "name": tool.name, "arguments": arguments });
            judge(
                (&tool.name, probe, call),
                &answer,
                logged.as_deref(),
                (&known, &names),
                &mut report.findings,
            );
        }
    }
    Ok(report)
}

/// Calls a tool; past `timeout`, the call is cancelled and ends in
/// [`ServiceError::Timeout`].
async fn call_within(
    peer: &Peer<RoleClient>,
    params: CallToolRequestParams,
    timeout: Option<Duration>,
) -> Result<CallToolResult, ServiceError> {
    match timeout {
        // Dropping the call sends the server a cancellation.
        Some(timeout) => tokio::time::timeout(timeout, peer.call_tool(params))
            .await
            .unwrap_or(Err(ServiceError::Timeout { timeout })),
        None => peer.call_tool(params).await,
    }
}

/// A duration as a report says it: "1 second", "30 seconds", "0.5 seconds".
fn seconds(duration: Duration) -> String {
    if duration == Duration::from_secs(1) {
        "1 second".to_owned()
    } else {
        format!("{} seconds", duration.as_secs_f64())
    }
}

/// The tools the server lists, read page by page within the audit's
/// bounds. An entry that is not a tool (an input schema that is not an
/// object, say) is reported as not probed; so are tools past
/// [`TOOLS_LIMIT`] and pages past [`PAGES_LIMIT`]. `None` when time ran
/// out.
async fn list_tools(
    peer: &Peer<RoleClient>,
    deadline: Option<Instant>,
    report: &mut AuditReport,
) -> Result<Option<Vec<Tool>>, ServiceError> {
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    for page in 0.. {
        if page == PAGES_LIMIT {
            report.not_probed.push(NotProbed {
                tool: None,
                argument: None,
                why: format!(
                    "the tool list goes on past {PAGES_LIMIT} pages; the audit read the first \
                     {PAGES_LIMIT}"
                ),
            });
            break;
        }
        let request = ClientRequest::ListToolsRequest(ListToolsRequest::with_param(
            PaginatedRequestParams::default().with_cursor(cursor.take()),
        ));
        let answer = match deadline {
            Some(deadline) => {
                match tokio::time::timeout_at(deadline.into(), peer.send_request(request)).await {
                    Ok(answer) => answer?,
                    Err(_) => {
                        report.not_probed.push(NotProbed {
                            tool: None,
                            argument: None,
                            why: "the audit ran out of time listing the tools".into(),
                        });
                        return Ok(None);
                    }
                }
            }
            None => peer.send_request(request).await?,
        };
        // Each entry is read on its own, so that one the model could not
        // use either leaves the others to audit.
        let answer = match answer {
            ServerResult::ListToolsResult(list) => serde_json::to_value(list),
            other => serde_json::to_value(other),
        }
        .unwrap_or(Value::Null);
        let Some(entries) = answer.get("tools").and_then(Value::as_array) else {
            report.not_probed.push(NotProbed {
                tool: None,
                argument: None,
                why: format!("page {} of the tool list is not a list of tools", page + 1),
            });
            break;
        };
        report.tools += entries.len();
        for entry in entries {
            if tools.len() == TOOLS_LIMIT {
                break;
            }
            match serde_json::from_value::<Tool>(entry.clone()) {
                Ok(tool) => tools.push(tool),
                Err(error) => report.not_probed.push(NotProbed {
                    tool: Some(
                        entry
                            .get("name")
                            .and_then(Value::as_str)
                            .map_or_else(|| "(no name)".to_owned(), |name| one_line(name, 200)),
                    ),
                    argument: None,
                    why: format!(
                        "its entry in the tool list is not a tool: {}",
                        one_line(&error.to_string(), 200)
                    ),
                }),
            }
        }
        cursor = answer
            .get("nextCursor")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if tools.len() == TOOLS_LIMIT && (cursor.is_some() || report.tools > TOOLS_LIMIT) {
            report.not_probed.push(NotProbed {
                tool: None,
                argument: None,
                why: format!(
                    "the server lists more than {TOOLS_LIMIT} tools; the audit probed the first \
                     {TOOLS_LIMIT}"
                ),
            });
            break;
        }
        if cursor.is_none() {
            break;
        }
    }
    Ok(Some(tools))
}

/// The tools a text may name, as `tools/list` gives them (the names the
/// audit probes, the first 1,000 parameters of each).
fn known_tools(tools: &[Tool]) -> outcome_rules::Tools {
    let mut known = outcome_rules::Tools::new();
    for tool in tools {
        if tool.name.chars().count() > NAME_LIMIT {
            continue;
        }
        let parameters: Vec<String> = tool
            .input_schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|properties| {
                properties
                    .keys()
                    .filter(|name| name.chars().count() <= NAME_LIMIT)
                    .take(1_000)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        known = known.tool_with_parameters(tool.name.to_string(), parameters);
    }
    known
}

enum Answer {
    Result(CallToolResult),
    Protocol(String),
}

/// The first `limit` bytes of `text`, cut at a character's boundary.
fn head(text: &str, limit: usize) -> &str {
    if text.len() <= limit {
        return text;
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The last `limit` bytes of `text`, or fewer, cut at a character's
/// boundary.
fn tail(text: &str, limit: usize) -> &str {
    let Some(mut start) = text.len().checked_sub(limit) else {
        return text;
    };
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// Checks one answer. A text longer than [`TEXT_LIMIT`] is checked, and
/// kept in the findings, on its first part, with a finding that says so.
fn judge(
    (tool, probe, call): (&str, &Probe, Value),
    answer: &Answer,
    logged: Option<&[Logged]>,
    (known, names): (&outcome_rules::Tools, &[&str]),
    findings: &mut Vec<Finding>,
) {
    let whole = match answer {
        Answer::Result(result) => text_of(result),
        Answer::Protocol(message) => message.clone(),
    };
    let text = head(&whole, TEXT_LIMIT).to_owned();
    let mut found = |broken: Expectation, detail: String| {
        findings.push(Finding {
            tool: tool.to_owned(),
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
            .find(|r| r.name == "tool_call_failed" && r.tool.as_deref() == Some(tool));
        match failed {
            Some(r) if r.level == Level::Info && r.outcome.as_deref() == Some("invalid") => {}
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
    if let Some(value) = probe.value()
        && !quotes(&text, value)
    {
        found(
            Expectation::QuotesValue,
            format!("the text does not quote the value sent, {value}"),
        );
    }
    let mut broken = outcome_rules::check_message(outcome_rules::Message::Invalid, &text, known);
    if whole.len() > text.len() {
        broken.retain(|b| b.rule != outcome_rules::Rule::Short);
        found(
            Expectation::Rule(outcome_rules::Rule::Short),
            format!(
                "the text is {} bytes, far more than a model should read; the audit checked \
                 its first {TEXT_LIMIT}",
                whole.len()
            ),
        );
    }
    let names_tool_broken = broken
        .iter()
        .any(|b| b.rule == outcome_rules::Rule::NamesTool);
    // The next step ends the whole text, long or not.
    let step = last_step(tail(&whole, TEXT_LIMIT));
    if !names_tool_broken && !names.iter().any(|name| contains_word(step, name)) {
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

/// The last sentence of a text, as the writing rules read it: where its
/// next step stands.
fn last_step(text: &str) -> &str {
    outcome_rules::sentences(text)
        .pop()
        .map_or(text, |sentence| &text[sentence])
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
/// or as `outcome_rules::quote` writes it.
fn quotes(text: &str, value: &Value) -> bool {
    let plain = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let quoted = outcome_rules::quote(&plain);
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

/// The calls the audit makes to one tool, and what of it it cannot probe.
pub(crate) struct Plan {
    /// Arguments the schema accepts, as far as the audit can tell: each
    /// probe changes one thing in them.
    pub(crate) baseline: JsonObject,
    pub(crate) probes: Vec<Probe>,
    pub(crate) not_probed: Vec<NotProbed>,
}

/// The audit's deadline passed while it read a schema.
#[derive(Debug)]
pub(crate) struct OutOfTime;

/// Why the audit builds no value for a schema.
#[derive(Debug)]
enum Unbuilt {
    /// This schema has none the audit can build: another alternative may.
    Cannot(String),
    /// The tool's walk spent its [`WALK_LIMIT`].
    Budget,
    /// The audit's deadline passed.
    Time,
}

fn cannot<T>(why: impl Into<String>) -> Result<T, Unbuilt> {
    Err(Unbuilt::Cannot(why.into()))
}

/// `true` as a schema: anything.
static ANYTHING: Value = Value::Bool(true);

/// The walk of one tool's input schema, within its budget.
struct Walk<'s> {
    root: &'s Value,
    /// The schemas the walk is inside, outermost first.
    path: Vec<&'s Value>,
    steps: usize,
    bytes: usize,
    deadline: Option<Instant>,
}

impl<'s> Walk<'s> {
    /// Spends `n` steps of the budget.
    fn step(&mut self, n: usize) -> Result<(), Unbuilt> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > WALK_LIMIT {
            return Err(Unbuilt::Budget);
        }
        if self
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
        {
            return Err(Unbuilt::Time);
        }
        Ok(())
    }

    /// Counts `bytes` more of the arguments built.
    fn spend(&mut self, bytes: usize) -> Result<(), Unbuilt> {
        self.bytes = self.bytes.saturating_add(bytes);
        if self.bytes > VALUE_LIMIT {
            return cannot(format!(
                "the arguments the audit builds for it come to more than {VALUE_LIMIT} bytes"
            ));
        }
        Ok(())
    }

    /// The schema `schema` refers to, `$ref`s followed within the root, at
    /// most [`DEPTH_LIMIT`] in a row.
    fn resolve(&mut self, mut schema: &'s Value) -> Result<&'s Value, Unbuilt> {
        for _ in 0..=DEPTH_LIMIT {
            self.step(1)?;
            let Some(reference) = schema.get("$ref") else {
                return Ok(schema);
            };
            let Some(target) = reference
                .as_str()
                .and_then(|r| r.strip_prefix('#'))
                .and_then(|pointer| self.root.pointer(pointer))
            else {
                return cannot(format!(
                    "its $ref {} is not a place in the input schema",
                    one_line(&reference.to_string(), 80)
                ));
            };
            schema = target;
        }
        cannot(format!(
            "its $refs lead to one another more than {DEPTH_LIMIT} times in a row"
        ))
    }

    /// Whether the schema accepts `null`. A schema met again inside itself
    /// adds nothing: the way round the loop allows null only if another
    /// way does.
    fn allows_null(&mut self, schema: &'s Value, depth: usize) -> Result<bool, Unbuilt> {
        if depth > DEPTH_LIMIT {
            return cannot(format!("its schema nests deeper than {DEPTH_LIMIT} levels"));
        }
        let schema = self.resolve(schema)?;
        if self.on_path(schema) {
            return Ok(false);
        }
        self.path.push(schema);
        let allows = self.allows_null_here(schema, depth);
        self.path.pop();
        allows
    }

    /// Whether `schema`, on the path of schemas walked, is one of those
    /// it is inside.
    fn on_path(&self, schema: &Value) -> bool {
        self.path.iter().any(|on| std::ptr::eq(*on, schema))
    }

    fn allows_null_here(&mut self, schema: &'s Value, depth: usize) -> Result<bool, Unbuilt> {
        let in_type = match schema.get("type") {
            Some(Value::String(kind)) => kind == "null",
            Some(Value::Array(kinds)) => {
                self.step(kinds.len())?;
                kinds.iter().any(|k| k == "null")
            }
            Some(_) => false,
            // No type: anything, null included, unless an alternative says.
            None => {
                schema == &Value::Bool(true)
                    || schema.is_object()
                        && !["anyOf", "oneOf", "enum", "const", "allOf"]
                            .iter()
                            .any(|k| schema.get(*k).is_some())
            }
        };
        if in_type || schema.get("nullable") == Some(&Value::Bool(true)) {
            return Ok(true);
        }
        if let Some(choices) = schema.get("enum").and_then(Value::as_array) {
            self.step(choices.len())?;
            if choices.contains(&Value::Null) {
                return Ok(true);
            }
        }
        // One alternative that allows it is enough, whatever the others.
        let mut unread = None;
        for key in ["anyOf", "oneOf"] {
            for alternative in schema
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                match self.allows_null(alternative, depth + 1) {
                    Ok(true) => return Ok(true),
                    Ok(false) => {}
                    Err(Unbuilt::Cannot(why)) => {
                        unread.get_or_insert(why);
                    }
                    Err(stop) => return Err(stop),
                }
            }
        }
        match unread {
            Some(why) => cannot(why),
            None => Ok(false),
        }
    }

    /// A value the schema accepts, as far as the audit can tell. A schema
    /// met again inside itself gives none that way: another alternative
    /// may.
    fn valid(&mut self, schema: &'s Value, depth: usize) -> Result<Value, Unbuilt> {
        if depth > DEPTH_LIMIT {
            return cannot(format!("its schema nests deeper than {DEPTH_LIMIT} levels"));
        }
        let schema = self.resolve(schema)?;
        if self.on_path(schema) {
            return cannot("its schema contains itself with no way out");
        }
        self.path.push(schema);
        let value = self.valid_here(schema, depth);
        self.path.pop();
        value
    }

    fn valid_here(&mut self, schema: &'s Value, depth: usize) -> Result<Value, Unbuilt> {
        match schema {
            Value::Object(_) | Value::Bool(true) => {}
            Value::Bool(false) => return cannot("its schema is false, which no value meets"),
            _ => return cannot("its schema is not an object"),
        }
        for key in ["const", "default"] {
            if let Some(value) = schema.get(key) {
                self.spend(size(value))?;
                return Ok(value.clone());
            }
        }
        if let Some(choices) = schema.get("enum") {
            let Some(choices) = choices.as_array() else {
                return cannot("its enum is not a list");
            };
            self.step(choices.len())?;
            return match choices.iter().find(|v| !v.is_null()) {
                Some(first) => {
                    self.spend(size(first))?;
                    Ok(first.clone())
                }
                None if choices.is_empty() => cannot("its enum is empty, which no value meets"),
                None => Ok(Value::Null),
            };
        }
        for key in ["anyOf", "oneOf"] {
            let Some(alternatives) = schema.get(key) else {
                continue;
            };
            let Some(alternatives) = alternatives.as_array() else {
                return cannot(format!("its {key} is not a list"));
            };
            let mut why = None;
            let mut null = false;
            for alternative in alternatives {
                let bytes = self.bytes;
                let built = match self.resolve(alternative) {
                    Ok(target) if target.get("type") == Some(&Value::from("null")) => {
                        null = true;
                        continue;
                    }
                    Ok(_) => self.valid(alternative, depth + 1),
                    Err(error) => Err(error),
                };
                match built {
                    Ok(value) => return Ok(value),
                    Err(Unbuilt::Cannot(reason)) => {
                        self.bytes = bytes;
                        why.get_or_insert(reason);
                    }
                    Err(stop) => return Err(stop),
                }
            }
            return match why {
                // Null is sent only when nothing else can be.
                Some(_) if null => Ok(Value::Null),
                Some(why) => cannot(why),
                None if alternatives.is_empty() => {
                    cannot(format!("its {key} is empty, which no value meets"))
                }
                None => Ok(Value::Null),
            };
        }
        if let Some(all) = schema.get("allOf").and_then(Value::as_array)
            && let [one] = &all[..]
        {
            return self.valid(one, depth + 1);
        }
        let kind = single_type(schema).unwrap_or(if schema.get("properties").is_some() {
            "object"
        } else {
            "string"
        });
        let value = match kind {
            "string" => {
                let min = length(schema, "minLength")?.unwrap_or(0);
                let max = length(schema, "maxLength")?;
                if max.is_some_and(|max| max < min) {
                    return cannot("its minLength is above its maxLength, which no value meets");
                }
                if schema.get("pattern").is_some() {
                    if let Some(example) = schema
                        .get("examples")
                        .and_then(Value::as_array)
                        .and_then(|e| e.first())
                    {
                        self.spend(size(example))?;
                        return Ok(example.clone());
                    }
                    return cannot(
                        "it has a pattern, and no default, const, enum or example to send",
                    );
                }
                let format = match schema.get("format").and_then(Value::as_str) {
                    Some("uri") => Some("https://example.com/"),
                    Some("email") => Some("someone@example.com"),
                    Some("date") => Some("2024-01-01"),
                    Some("date-time") => Some("2024-01-01T00:00:00Z"),
                    Some("uuid") => Some("00000000-0000-4000-8000-000000000000"),
                    _ => None,
                };
                let text = match format {
                    Some(text) => text.to_owned(),
                    None => {
                        let wanted = min.max(1).min(max.unwrap_or(u64::MAX));
                        if wanted > LENGTH_LIMIT {
                            return cannot(format!(
                                "its minLength is {min}, and the audit builds no string longer \
                                 than {LENGTH_LIMIT} characters"
                            ));
                        }
                        self.spend(wanted as usize)?;
                        "a".repeat(wanted as usize)
                    }
                };
                Value::from(text)
            }
            "integer" | "number" => {
                let min = schema.get("minimum").and_then(Value::as_f64);
                let max = schema.get("maximum").and_then(Value::as_f64);
                if let (Some(min), Some(max)) = (min, max)
                    && min > max
                {
                    return cannot("its minimum is above its maximum, which no value meets");
                }
                let integer = kind == "integer";
                let value = match (min, max) {
                    (Some(min), _) if min > 1.0 => {
                        if integer {
                            min.ceil()
                        } else {
                            min
                        }
                    }
                    (_, Some(max)) if max < 1.0 => {
                        if integer {
                            max.floor()
                        } else {
                            max
                        }
                    }
                    _ => 1.0,
                };
                if max.is_some_and(|max| value > max) {
                    return cannot("no integer lies between its minimum and its maximum");
                }
                if integer && value.abs() >= I64_BOUND {
                    return cannot("its bounds leave only integers too large to send exactly");
                }
                number(value, integer)
            }
            "boolean" => Value::Bool(false),
            "null" => Value::Null,
            "array" => {
                let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
                if min > ITEMS_LIMIT {
                    return cannot(format!(
                        "its minItems is {min}, and the audit builds no list longer than \
                         {ITEMS_LIMIT} items"
                    ));
                }
                let mut items = Vec::new();
                if min > 0 {
                    let bytes = self.bytes;
                    let item = self.valid(schema.get("items").unwrap_or(&ANYTHING), depth + 1)?;
                    let each = self.bytes - bytes + 1;
                    self.spend(each.saturating_mul(min as usize - 1))?;
                    items.resize(min as usize, item);
                }
                Value::Array(items)
            }
            "object" => {
                let properties = match schema.get("properties") {
                    None => None,
                    Some(Value::Object(properties)) => Some(properties),
                    Some(_) => return cannot("its properties is not an object"),
                };
                let required = match schema.get("required") {
                    None => &[][..],
                    Some(Value::Array(required)) => &required[..],
                    Some(_) => return cannot("its required is not a list"),
                };
                let mut object = Map::new();
                for name in required {
                    self.step(1)?;
                    let Some(name) = name.as_str() else {
                        return cannot("its required lists something other than a name");
                    };
                    let property = properties.and_then(|p| p.get(name)).unwrap_or(&ANYTHING);
                    let value = self.valid(property, depth + 1)?;
                    self.spend(name.len() + 4)?;
                    object.insert(name.to_owned(), value);
                }
                Value::Object(object)
            }
            other => {
                return cannot(format!(
                    "its type {} is not a JSON type",
                    one_line(other, 40)
                ));
            }
        };
        self.spend(8)?;
        Ok(value)
    }
}

/// Integers from this magnitude on are not sent exactly (2^63).
const I64_BOUND: f64 = 9_223_372_036_854_775_808.0;

/// A length keyword of `schema`, when it has one.
fn length(schema: &Value, key: &str) -> Result<Option<u64>, Unbuilt> {
    match schema.get(key) {
        None => Ok(None),
        Some(value) => match value.as_u64() {
            Some(length) => Ok(Some(length)),
            None => cannot(format!("its {key} is not a whole number")),
        },
    }
}

/// The bytes of `value` as JSON, roughly, counted without recursion.
fn size(value: &Value) -> usize {
    let mut total = 0usize;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        total = total.saturating_add(match value {
            Value::String(s) => s.len() + 2,
            Value::Array(items) => {
                stack.extend(items);
                items.len() + 2
            }
            Value::Object(map) => {
                for (key, value) in map {
                    total = total.saturating_add(key.len() + 4);
                    stack.push(value);
                }
                2
            }
            _ => 8,
        });
    }
    total
}

/// A name, for a report line.
fn named(name: &str) -> String {
    one_line(name, 80)
}

/// The calls a model gets wrong, derived from `tool`'s input schema, and
/// what of it the audit cannot probe. The walk spends at most
/// [`WALK_LIMIT`] steps; the tool is not probed when it needs more.
pub(crate) fn plan(tool: &Tool, deadline: Option<Instant>) -> Result<Plan, OutOfTime> {
    let root = Value::Object((*tool.input_schema).clone());
    let mut walk = Walk {
        root: &root,
        path: Vec::new(),
        steps: 0,
        bytes: 0,
        deadline,
    };
    let mut plan = Plan {
        baseline: JsonObject::new(),
        probes: Vec::new(),
        not_probed: Vec::new(),
    };
    let not_probed = |argument: Option<&str>, why: String| NotProbed {
        tool: Some(tool.name.to_string()),
        argument: argument.map(str::to_owned),
        why,
    };
    if tool.name.chars().count() > NAME_LIMIT {
        plan.not_probed.push(not_probed(
            None,
            format!("its name is longer than {NAME_LIMIT} characters"),
        ));
        return Ok(plan);
    }
    match walk.plan(&mut plan) {
        Ok(()) => {}
        Err((argument, Unbuilt::Cannot(why))) => {
            plan.probes.clear();
            plan.not_probed.clear();
            plan.not_probed.push(not_probed(
                argument.as_deref(),
                match &argument {
                    Some(argument) => format!(
                        "no call: the audit builds no value for the required argument {}: {why}",
                        named(argument)
                    ),
                    None => format!("no call: {why}"),
                },
            ));
        }
        Err((_, Unbuilt::Budget)) => {
            plan.probes.clear();
            plan.not_probed.clear();
            plan.not_probed.push(not_probed(
                None,
                format!("its input schema takes more than the {WALK_LIMIT} steps the audit walks"),
            ));
        }
        Err((_, Unbuilt::Time)) => return Err(OutOfTime),
    }
    let tool_name = tool.name.to_string();
    for not in &mut plan.not_probed {
        not.tool = Some(tool_name.clone());
    }
    Ok(plan)
}

impl<'s> Walk<'s> {
    /// Fills `plan`. An error with an argument is one the tool's baseline
    /// cannot be built without; with none, one about the whole schema.
    fn plan(&mut self, plan: &mut Plan) -> Result<(), (Option<String>, Unbuilt)> {
        let root = self.root;
        let whole = |error| (None, error);
        if let Some(kind) = root.get("type")
            && single_type(root) != Some("object")
        {
            return Err(whole(Unbuilt::Cannot(format!(
                "its input schema's type is {}, not object",
                one_line(&kind.to_string(), 40)
            ))));
        }
        let properties = match root.get("properties") {
            None => None,
            Some(Value::Object(properties)) => Some(properties),
            Some(_) => {
                return Err(whole(Unbuilt::Cannot(
                    "its input schema's properties is not an object".into(),
                )));
            }
        };
        let required: Vec<&str> = match root.get("required") {
            None => Vec::new(),
            Some(Value::Array(names)) => {
                self.step(names.len()).map_err(whole)?;
                let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
                if names.len() < root["required"].as_array().map_or(0, Vec::len) {
                    return Err(whole(Unbuilt::Cannot(
                        "its input schema's required lists something other than a name".into(),
                    )));
                }
                names
            }
            Some(_) => {
                return Err(whole(Unbuilt::Cannot(
                    "its input schema's required is not a list".into(),
                )));
            }
        };
        // The baseline: a value for each required argument.
        for name in &required {
            let schema = properties.and_then(|p| p.get(*name)).unwrap_or(&ANYTHING);
            let value = self
                .valid(schema, 1)
                .map_err(|error| (Some((*name).to_owned()), error))?;
            self.spend(name.len() + 4)
                .map_err(|error| (Some((*name).to_owned()), error))?;
            plan.baseline.insert((*name).to_owned(), value);
        }
        // The probes, argument by argument: the declared ones, then the
        // required ones no property declares.
        self.step(properties.map_or(0, Map::len)).map_err(whole)?;
        let declares = |name: &str| properties.is_some_and(|p| p.contains_key(name));
        let undeclared = required
            .iter()
            .filter(|name| !declares(name))
            .map(|name| (*name, &ANYTHING));
        let arguments: Vec<(&str, &Value)> = properties
            .into_iter()
            .flatten()
            .map(|(name, schema)| (name.as_str(), schema))
            .chain(undeclared)
            .collect();
        for (name, schema) in arguments {
            if name.chars().count() > NAME_LIMIT {
                plan.not_probed.push(NotProbed {
                    tool: None,
                    argument: Some(named(name)),
                    why: format!("its name is longer than {NAME_LIMIT} characters"),
                });
                continue;
            }
            let bytes = self.bytes;
            let is_required = required.contains(&name);
            match self.argument(plan, name, schema, is_required) {
                Ok(()) => {}
                Err(Unbuilt::Cannot(why)) => plan.not_probed.push(NotProbed {
                    tool: None,
                    argument: Some(name.to_owned()),
                    why,
                }),
                Err(stop) => return Err(whole(stop)),
            }
            self.bytes = bytes;
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
                .find(|k| !declares(k))
                .unwrap_or_default();
            // The key is what the model got wrong, and what the text names.
            plan.probes.push(Probe {
                mistake: Mistake::UnknownKey,
                argument: key,
                sent: Some(Value::from("x")),
                quoted: false,
            });
        }
        Ok(())
    }

    /// The probes of one argument, into `plan`; a mistake the audit cannot
    /// make in it goes to `plan.not_probed`.
    fn argument(
        &mut self,
        plan: &mut Plan,
        name: &str,
        schema: &'s Value,
        is_required: bool,
    ) -> Result<(), Unbuilt> {
        let schema = self.resolve(schema)?;
        let probe = |mistake: Mistake, sent: Option<Value>| Probe {
            mistake,
            argument: name.to_owned(),
            quoted: sent.as_ref().is_some_and(|v| !v.is_null()),
            sent,
        };
        let skip = |plan: &mut Plan, why: String| {
            plan.not_probed.push(NotProbed {
                tool: None,
                argument: Some(name.to_owned()),
                why,
            });
        };
        if is_required {
            plan.probes.push(probe(Mistake::Missing, None));
            if !self.allows_null(schema, 0)? {
                plan.probes.push(probe(Mistake::Null, Some(Value::Null)));
            }
        }
        let kind = single_type(schema);
        if let Some(wrong) = kind.and_then(wrong_type) {
            plan.probes.push(probe(Mistake::WrongType, Some(wrong)));
        }
        if let Some(choices) = schema.get("enum").and_then(Value::as_array)
            && !choices.is_empty()
        {
            self.step(choices.len())?;
            let strings: std::collections::HashSet<&str> =
                choices.iter().filter_map(Value::as_str).collect();
            if choices.iter().all(Value::is_string) {
                // One of the first `choices.len() + 1` names is free.
                let outside = (0..=choices.len())
                    .map(|n| {
                        format!(
                            "not_a_choice{}",
                            if n == 0 { String::new() } else { n.to_string() }
                        )
                    })
                    .find(|s| !strings.contains(s.as_str()))
                    .unwrap_or_default();
                plan.probes
                    .push(probe(Mistake::NotInEnum, Some(Value::String(outside))));
            }
        }
        let integer = kind == Some("integer");
        if let Some(min) = schema.get("minimum").and_then(Value::as_f64) {
            match beyond(min, integer, false) {
                Some(below) => plan.probes.push(probe(Mistake::BelowMinimum, Some(below))),
                None => skip(
                    plan,
                    format!(
                        "its minimum, {min}, leaves no number below it that the audit can send"
                    ),
                ),
            }
        }
        if let Some(max) = schema.get("maximum").and_then(Value::as_f64) {
            match beyond(max, integer, true) {
                Some(above) => plan.probes.push(probe(Mistake::AboveMaximum, Some(above))),
                None => skip(
                    plan,
                    format!(
                        "its maximum, {max}, leaves no number above it that the audit can send"
                    ),
                ),
            }
        }
        if let Some(min) = length(schema, "minLength")?
            && min > 0
        {
            if min - 1 > LENGTH_LIMIT {
                skip(
                    plan,
                    format!(
                        "its minLength is {min}, and the audit builds no string longer than \
                         {LENGTH_LIMIT} characters"
                    ),
                );
            } else {
                let short = "a".repeat((min - 1) as usize);
                plan.probes
                    .push(probe(Mistake::TooShort, Some(Value::String(short))));
            }
        }
        if let Some(max) = length(schema, "maxLength")? {
            if max >= LENGTH_LIMIT {
                skip(
                    plan,
                    format!(
                        "its maxLength is {max}, and the audit builds no string longer than \
                         {LENGTH_LIMIT} characters"
                    ),
                );
            } else {
                let long = "a".repeat((max + 1) as usize);
                plan.probes
                    .push(probe(Mistake::TooLong, Some(Value::String(long))));
            }
        }
        Ok(())
    }
}

/// The nearest number past `bound` (above it when `up`), as the audit
/// sends it; `None` when JSON carries none, or when an integer past it
/// cannot be sent exactly.
fn beyond(bound: f64, integer: bool, up: bool) -> Option<Value> {
    let value = if integer {
        let step = if up {
            bound.floor() + 1.0
        } else {
            bound.ceil() - 1.0
        };
        if step.abs() >= I64_BOUND || (up && step <= bound) || (!up && step >= bound) {
            return None;
        }
        step
    } else {
        let step = if up { bound + 1.0 } else { bound - 1.0 };
        // Past 2^53 one is lost in the rounding: the next number will do.
        let step = if step == bound {
            if up {
                bound.next_up()
            } else {
                bound.next_down()
            }
        } else {
            step
        };
        if !step.is_finite() {
            return None;
        }
        step
    };
    Some(number(value, integer))
}

fn number(value: f64, integer: bool) -> Value {
    if integer && value.fract() == 0.0 && value.abs() < I64_BOUND {
        Value::from(value as i64)
    } else {
        serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number)
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
        let plan = plan(&tool, None).unwrap();
        assert_eq!(plan.not_probed, []);
        let probes = &plan.probes;
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
        let arguments = below.arguments(&plan.baseline);
        assert_eq!(arguments["limit"], Value::from(-1));
        assert_eq!(arguments["sort"], Value::from("new"));
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
            "visit https://x.dev/a"
        );
        assert_eq!(last_step("Call read_note."), "Call read_note.");
    }

    fn not_probed(schema: Value) -> Vec<NotProbed> {
        plan(&tool(schema), None).unwrap().not_probed
    }

    /// Alternatives that fan out, each level multiplying, written small
    /// with `$ref`s: a walk without a budget visits `width^levels`
    /// schemas.
    fn fanning_out(levels: usize, width: usize) -> Value {
        let mut defs = Map::new();
        defs.insert("l0".into(), serde_json::json!({"type": "no such type"}));
        for level in 1..=levels {
            let below = serde_json::json!({"$ref": format!("#/$defs/l{}", level - 1)});
            defs.insert(
                format!("l{level}"),
                serde_json::json!({"anyOf": vec![below; width]}),
            );
        }
        serde_json::json!({
            "type": "object",
            "properties": {"x": {"$ref": format!("#/$defs/l{levels}")}},
            "required": ["x"],
            "$defs": defs
        })
    }

    #[test]
    fn the_walk_stops_at_its_budget() {
        let root = fanning_out(16, 8);
        let mut walk = Walk {
            root: &root,
            path: Vec::new(),
            steps: 0,
            bytes: 0,
            deadline: None,
        };
        let mut plan = Plan {
            baseline: JsonObject::new(),
            probes: Vec::new(),
            not_probed: Vec::new(),
        };
        assert!(matches!(walk.plan(&mut plan), Err((_, Unbuilt::Budget))));
        assert_eq!(walk.steps, WALK_LIMIT + 1);
        let not = not_probed(root);
        assert_eq!(not.len(), 1, "{not:?}");
        assert!(not[0].why.contains("steps the audit walks"), "{not:?}");
        // A small fan-out is walked whole, and reported for what it is.
        let not = not_probed(fanning_out(3, 3));
        assert!(not[0].why.contains("no such type"), "{not:?}");
    }

    #[test]
    fn a_deadline_passed_stops_the_walk() {
        let past = Instant::now();
        assert!(plan(&tool(fanning_out(2, 2)), Some(past)).is_err());
    }

    #[test]
    fn refs_that_loop_are_not_followed_forever() {
        for schema in [
            serde_json::json!({"properties": {"x": {"$ref": "#/properties/x"}}, "required": ["x"]}),
            serde_json::json!({"properties": {"x": {"anyOf": [{"$ref": "#/properties/x"}]}}, "required": ["x"]}),
            serde_json::json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "properties": {"x": {"$ref": "#/$defs/a"}}}),
        ] {
            let not = not_probed(schema.clone());
            assert_eq!(not.len(), 1, "{schema}: {not:?}");
        }
        // Null is the one value that ends this one: sent, and not sent as
        // a mistake.
        let plan = plan(
            &tool(serde_json::json!({
                "properties": {"x": {"anyOf": [{"$ref": "#/properties/x"}, {"type": "null"}]}},
                "required": ["x"]
            })),
            None,
        )
        .unwrap();
        assert_eq!(plan.not_probed, []);
        assert_eq!(plan.baseline["x"], Value::Null);
        assert!(plan.probes.iter().all(|p| p.mistake != Mistake::Null));
    }

    #[test]
    fn sizes_past_the_bounds_are_not_built() {
        for (schema, why) in [
            (
                serde_json::json!({"type": "string", "minLength": u64::MAX}),
                "minLength",
            ),
            (
                serde_json::json!({"type": "string", "minLength": 1u64 << 40}),
                "minLength",
            ),
            (
                serde_json::json!({"type": "string", "maxLength": u64::MAX}),
                "maxLength",
            ),
            (
                serde_json::json!({"type": "array", "minItems": u64::MAX}),
                "minItems",
            ),
            // Each level's 1,000 items, of the level below's: a billion
            // strings, unless the bytes are counted.
            (
                serde_json::json!({"type": "array", "minItems": 1000, "items": {"type": "array", "minItems": 1000, "items": {"type": "array", "minItems": 1000}}}),
                "bytes",
            ),
        ] {
            for required in [true, false] {
                let root = serde_json::json!({
                    "properties": {"x": schema},
                    "required": if required { vec!["x"] } else { vec![] }
                });
                let not = not_probed(root);
                // An optional argument's value is built only to break it.
                let built = required || why.ends_with("Length");
                assert!(
                    not.is_empty() != built
                        && not.iter().all(|n| n.argument.as_deref() == Some("x")),
                    "{schema} {required}: {not:?}"
                );
                if required {
                    assert!(not[0].why.contains(why), "{schema}: {not:?}");
                }
            }
        }
    }

    #[test]
    fn numbers_at_the_edges() {
        let sent = |schema: Value, mistake: Mistake| {
            let plan = plan(
                &tool(serde_json::json!({"properties": {"x": schema}})),
                None,
            )
            .unwrap();
            (
                plan.probes
                    .iter()
                    .find(|p| p.mistake == mistake)
                    .and_then(|p| p.sent.clone()),
                plan.not_probed,
            )
        };
        // 1e308 + 1 is 1e308: the next number up is sent instead.
        let (above, _) = sent(
            serde_json::json!({"type": "number", "maximum": 1e308}),
            Mistake::AboveMaximum,
        );
        assert!(above.unwrap().as_f64().unwrap() > 1e308);
        let (above, not) = sent(
            serde_json::json!({"type": "number", "maximum": f64::MAX}),
            Mistake::AboveMaximum,
        );
        assert_eq!(above, None);
        assert!(not[0].why.contains("maximum"), "{not:?}");
        let (below, _) = sent(
            serde_json::json!({"type": "integer", "minimum": -0.0}),
            Mistake::BelowMinimum,
        );
        assert_eq!(below, Some(Value::from(-1)));
        let (below, _) = sent(
            serde_json::json!({"type": "integer", "minimum": 2.5}),
            Mistake::BelowMinimum,
        );
        assert_eq!(below, Some(Value::from(2)));
        let (below, not) = sent(
            serde_json::json!({"type": "integer", "minimum": -1e300}),
            Mistake::BelowMinimum,
        );
        assert_eq!(below, None);
        assert!(not[0].why.contains("minimum"), "{not:?}");
        // A required argument no value meets leaves the tool without a
        // call.
        let not = not_probed(serde_json::json!({
            "properties": {"x": {"type": "integer", "minimum": 5, "maximum": 1}, "y": {}},
            "required": ["x"]
        }));
        assert_eq!(not.len(), 1, "{not:?}");
        assert!(
            not[0].why.contains("minimum is above its maximum"),
            "{not:?}"
        );
    }

    #[test]
    fn a_huge_enum_is_read_once() {
        let mut choices: Vec<Value> = vec![Value::from("not_a_choice")];
        choices.extend((1..50_000).map(|n| Value::from(format!("not_a_choice{n}"))));
        let plan = plan(
            &tool(serde_json::json!({"properties": {"x": {"type": "string", "enum": choices}}})),
            None,
        )
        .unwrap();
        let outside = plan
            .probes
            .iter()
            .find(|p| p.mistake == Mistake::NotInEnum)
            .and_then(|p| p.sent.clone());
        assert_eq!(outside, Some(Value::from("not_a_choice50000")));
    }

    #[test]
    fn schemas_the_audit_cannot_read_are_not_probed() {
        for schema in [
            serde_json::json!({"type": "string"}),
            serde_json::json!({"properties": ["x"]}),
            serde_json::json!({"required": "x"}),
            serde_json::json!({"required": [1]}),
            serde_json::json!({"properties": {"x": {"type": "string", "pattern": "^[0-9]+$"}}, "required": ["x"]}),
            serde_json::json!({"properties": {"x": false}, "required": ["x"]}),
            serde_json::json!({"properties": {"x": {"$ref": "https://example.com/x"}}, "required": ["x"]}),
        ] {
            let plan = plan(&tool(schema.clone()), None).unwrap();
            assert_eq!(plan.not_probed.len(), 1, "{schema}: {:?}", plan.not_probed);
            assert!(plan.probes.is_empty(), "{schema}");
        }
        // A pattern with an example to send is probed.
        let plan = plan(
            &tool(serde_json::json!({"properties": {"x": {"type": "string", "pattern": "^[0-9]+$", "examples": ["12"]}}, "required": ["x"]})),
            None,
        )
        .unwrap();
        assert_eq!(plan.not_probed, []);
        assert_eq!(plan.baseline["x"], Value::from("12"));
    }

    #[test]
    fn long_names_are_not_probed() {
        let long = "x".repeat(NAME_LIMIT + 1);
        let named = Tool::new(
            long.clone(),
            "A tool.",
            std::sync::Arc::new(JsonObject::new()),
        );
        assert_eq!(plan(&named, None).unwrap().not_probed.len(), 1);
        let mut properties = Map::new();
        properties.insert(long.clone(), serde_json::json!({"type": "string"}));
        let not = not_probed(serde_json::json!({"properties": properties}));
        assert_eq!(not.len(), 1, "{not:?}");
    }

    #[test]
    fn a_long_text_is_cut_at_a_character() {
        let text = "é".repeat(10);
        assert_eq!(head(&text, 5), "éé");
        assert_eq!(tail(&text, 5), "éé");
        assert_eq!(head("abc", 10), "abc");
        assert_eq!(tail("abc", 10), "abc");
    }
}
