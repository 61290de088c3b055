//! The audit's core: from each tool's input schema, the calls a model gets
//! wrong; what the answer to each must be; the report. Any connected rmcp
//! client drives it; `testing::audit` adds the log records of a server run
//! in this process.

use std::fmt;
use std::time::{Duration, Instant};

use outcome_rules::{FAULT_MESSAGE, RETRY_MESSAGE, one_line};
use outcome_schema::Contract;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, ErrorCode, ErrorData, JsonObject,
    ListToolsRequest, PaginatedRequestParams, ServerResult, Tool,
};
use rmcp::service::{Peer, RoleClient, ServiceError};
use serde_json::{Map, Value};

use crate::{Level, LogRecord as Logged};

/// How deep the audit follows nested schemas, and how many `$ref`s in a
/// row: the depth the runtime's own reading of a schema stops at.
pub(crate) const DEPTH_LIMIT: usize = outcome_schema::DEPTH_LIMIT;

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
    /// A writing rule, as `outcome_rules::check_message` reads the text.
    Rule(outcome_rules::Rule),
    /// The tool's description in `tools/list` keeps to the rules for
    /// descriptions, as `outcome_rules::check_description` reads it.
    Description(outcome_rules::DescriptionProblem),
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
            Expectation::Rule(rule) => rule.name(),
            Expectation::Description(problem) => problem.name(),
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

/// A call the audit made and did not judge, and why: its answer is about
/// something else than the mistake the call made.
#[derive(Clone, Debug)]
pub struct NotJudged {
    /// The tool called.
    pub tool: String,
    /// What the call got wrong on purpose.
    pub mistake: String,
    /// The call sent, as JSON: `{"name": .., "arguments": ..}`.
    pub call: Value,
    /// The text the model read.
    pub text: String,
    /// Why the answer was not judged, one sentence.
    pub why: String,
}

/// Findings that are one defect: the same expectation broken by texts of
/// one template (the same first words, but for the names and values of
/// each call).
#[derive(Clone, Debug)]
pub struct Defect<'r> {
    /// The expectation broken.
    pub broken: Expectation,
    /// The template the texts share: the first eight words of their
    /// first line, with the
    /// arguments' names, quoted values, numbers and identifiers written as
    /// `<argument>`, `<value>`, `#` and `<name>`.
    pub template: String,
    /// Each finding of the defect, in the order of the calls; the first
    /// is its example.
    pub findings: Vec<&'r Finding>,
    /// The tools whose answers show it, in the order of the calls.
    pub tools: Vec<&'r str>,
}

impl Defect<'_> {
    /// The calls whose answers show it: a call may break one rule in
    /// several places. The findings of one call stand together, in the
    /// order of the calls.
    pub fn calls(&self) -> usize {
        let mut calls = self
            .findings
            .iter()
            .map(|finding| &finding.call)
            .collect::<Vec<_>>();
        calls.dedup();
        calls.len()
    }
}

/// What the audit found: see [`Audit`](crate::Audit).
#[derive(Clone, Debug, Default)]
pub struct AuditReport {
    /// The tools the server lists.
    pub tools: usize,
    /// The calls made.
    pub calls: usize,
    /// The calls whose answer was judged: the calls made, less those
    /// [not judged](Self::not_judged) and those a tool refused as not a
    /// task.
    pub judged: usize,
    /// Whether the log records were checked (only for a server audited in
    /// this process).
    pub logs_checked: bool,
    /// Every expectation an answer broke, in the order of the calls.
    pub findings: Vec<Finding>,
    /// What the audit could not probe, and why: a schema it cannot read or
    /// build a value for, a size past its bounds, tools past its bounds.
    pub not_probed: Vec<NotProbed>,
    /// The calls whose answer is about something else than the call's
    /// mistake (the audit's baseline, which the server refused), and why.
    pub not_judged: Vec<NotJudged>,
    /// The tools the audit did not run with a call that keeps to their
    /// schema, since they are not annotated read-only (see
    /// [`ValidCalls`]).
    pub not_run: Vec<String>,
}

impl AuditReport {
    /// Whether every tool was probed, at least one answer was judged, and
    /// every answer judged met every expectation.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty() && self.not_probed.is_empty() && self.judged > 0
    }

    /// The findings as defects: one for each expectation broken by texts
    /// of one template, in the order they were first found.
    pub fn defects(&self) -> Vec<Defect<'_>> {
        let mut defects: Vec<Defect<'_>> = Vec::new();
        let mut index = std::collections::HashMap::new();
        for finding in &self.findings {
            let template = template(finding);
            let at = *index
                .entry((finding.broken.name(), template.clone()))
                .or_insert_with(|| {
                    defects.push(Defect {
                        broken: finding.broken,
                        template,
                        findings: Vec::new(),
                        tools: Vec::new(),
                    });
                    defects.len() - 1
                });
            let defect = &mut defects[at];
            defect.findings.push(finding);
            if !defect.tools.contains(&finding.tool.as_str()) {
                defect.tools.push(&finding.tool);
            }
        }
        defects
    }

    /// The number of calls with at least one finding.
    pub fn calls_with_findings(&self) -> usize {
        let mut calls: Vec<&Value> = self.findings.iter().map(|f| &f.call).collect();
        calls.dedup();
        calls.len()
    }
}

/// A finding's text as a template: the first eight words of its first
/// line, with the call's argument names, quoted and bracketed values,
/// numbers and identifiers (a word with `_` or a capital inside) written
/// as placeholders, so that the texts one template writes over calls and
/// tools read as one. The start is where a template shows: what follows
/// (a validator's list of errors) varies with the mistake.
fn template(finding: &Finding) -> String {
    let line = finding
        .text
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or_default();
    let text = line;
    // The names are looked up once per word: a schema may declare
    // thousands.
    let arguments: std::collections::HashSet<&str> = finding
        .call
        .get("arguments")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, _)| name.as_str())
        .chain(finding.mistake.split(' ').filter(|w| w.contains('_')))
        .collect();
    // For each character, where the quote or bracket it opens closes on
    // its line: found in one pass from the end, so the template is linear
    // in the text.
    let chars: Vec<char> = text.chars().collect();
    let closers = ['\'', '"', '`', '}', ']'];
    let mut next = [usize::MAX; 5];
    let mut closes = vec![usize::MAX; chars.len()];
    for (at, &c) in chars.iter().enumerate().rev() {
        let opens = match c {
            '{' => Some(3),
            '[' => Some(4),
            _ => closers[..3].iter().position(|&q| q == c),
        };
        if let Some(kind) = opens {
            closes[at] = next[kind];
        }
        if c == '\n' {
            next = [usize::MAX; 5];
        } else if let Some(kind) = closers.iter().position(|&q| q == c) {
            next[kind] = at;
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        if closes[at] != usize::MAX {
            out.push_str("<value>");
            at = closes[at] + 1;
        } else if c.is_ascii_digit() {
            while at < chars.len() && chars[at].is_ascii_digit() {
                at += 1;
            }
            out.push('#');
        } else {
            out.push(c);
            at += 1;
        }
    }
    let template = identifiers(&out, &arguments);
    template
        .split_whitespace()
        .take(TEMPLATE_WORDS)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The words of a first line that make its template: enough for a
/// sentence's frame, short of where a validator's words vary with the
/// mistake ("expected string, received null").
const TEMPLATE_WORDS: usize = 8;

/// `text` with each of the call's `arguments` written as `<argument>`, and
/// each other identifier (a word with `_`, or a capital after a small
/// letter: `read_note`, `statusArguments`) as `<name>`.
fn identifiers(text: &str, arguments: &std::collections::HashSet<&str>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let camel = word
            .as_bytes()
            .windows(2)
            .any(|pair| pair[0].is_ascii_lowercase() && pair[1].is_ascii_uppercase());
        if arguments.contains(word.as_str()) {
            out.push_str("<argument>");
        } else if word.contains('_') || camel {
            out.push_str("<name>");
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
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

/// What the report shows for a tool, an argument or the tool list.
fn what(tool: Option<&String>, argument: Option<&String>) -> String {
    match (tool, argument) {
        (None, _) => "the tool list".to_owned(),
        (Some(tool), None) => one_line(tool, SHOWN_LINE),
        (Some(tool), Some(argument)) => format!(
            "{}, argument {}",
            one_line(tool, SHOWN_LINE),
            one_line(argument, SHOWN_LINE)
        ),
    }
}

/// Counts of `(key, n)`, in the order first met, as `key n, key n`.
fn tally<'a>(keys: impl Iterator<Item = (&'a str, usize)>) -> Vec<(&'a str, usize)> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for (key, n) in keys {
        match counts.iter_mut().find(|(k, _)| *k == key) {
            Some((_, count)) => *count += n,
            None => counts.push((key, n)),
        }
    }
    counts
}

impl fmt::Display for AuditReport {
    /// A header with the counts, a summary by rule and by tool, then what
    /// was not probed, not run and not judged (a line each, the first
    /// 100), then one block per defect: the expectation broken and what is
    /// wrong, the calls and tools that show it, and one example call with
    /// the text read. What the server wrote is shown bounded (the first
    /// 20 lines, 500 characters each), its control and invisible
    /// characters escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let defects = self.defects();
        let verdict = if self.is_clean() {
            "clean"
        } else {
            "NOT clean"
        };
        let mut counts = vec![
            format!("{} tools", self.tools),
            format!("{} calls", self.calls),
        ];
        if !self.findings.is_empty() {
            counts.push(format!(
                "{} defects ({} findings in {} calls)",
                defects.len(),
                self.findings.len(),
                self.calls_with_findings()
            ));
        }
        for (n, what) in [
            (self.not_probed.len(), "not probed"),
            (self.not_run.len(), "not run"),
            (self.not_judged.len(), "not judged"),
        ] {
            if n > 0 {
                counts.push(format!("{n} {what}"));
            }
        }
        write!(f, "outcome audit: {verdict}: {}", counts.join(", "))?;
        if self.judged == 0 {
            write!(f, " (no answer judged)")?;
        }
        if !self.logs_checked {
            write!(f, " (log records not checked)")?;
        }
        writeln!(f)?;
        if !defects.is_empty() {
            let rules = tally(defects.iter().map(|d| (d.broken.name(), 1)));
            let findings = tally(self.findings.iter().map(|x| (x.broken.name(), 1)));
            let by_rule: Vec<String> = rules
                .iter()
                .zip(&findings)
                .map(|((rule, n), (_, m))| format!("{rule} {n} ({m})"))
                .collect();
            writeln!(f, "\nby rule, defects (findings): {}", by_rule.join(", "))?;
            let tools = tally(self.findings.iter().map(|x| (x.tool.as_str(), 1)));
            let by_tool: Vec<String> = tools
                .iter()
                .take(SHOWN_NOT_PROBED)
                .map(|(tool, n)| format!("{} {n}", one_line(tool, SHOWN_LINE)))
                .collect();
            writeln!(f, "by tool, findings: {}", by_tool.join(", "))?;
        }
        let lists =
            !self.not_probed.is_empty() || !self.not_run.is_empty() || !self.not_judged.is_empty();
        if lists {
            writeln!(f)?;
        }
        for not in self.not_probed.iter().take(SHOWN_NOT_PROBED) {
            let what = what(not.tool.as_ref(), not.argument.as_ref());
            writeln!(f, "not probed: {what}: {}", one_line(&not.why, SHOWN_LINE))?;
        }
        if let Some(rest) = self.not_probed.len().checked_sub(SHOWN_NOT_PROBED)
            && rest > 0
        {
            writeln!(f, "not probed: ... and {rest} more")?;
        }
        if !self.not_run.is_empty() {
            let tools: Vec<String> = self
                .not_run
                .iter()
                .take(SHOWN_NOT_PROBED)
                .map(|tool| one_line(tool, SHOWN_LINE))
                .collect();
            writeln!(
                f,
                "not run (not annotated read-only, so called only with arguments that break \
                 the schema): {}{}",
                tools.join(", "),
                if self.not_run.len() > tools.len() {
                    ", ..."
                } else {
                    ""
                }
            )?;
        }
        for not in self.not_judged.iter().take(SHOWN_NOT_PROBED) {
            writeln!(
                f,
                "not judged: {}: {}: {}",
                one_line(&not.tool, SHOWN_LINE),
                one_line(&not.mistake, SHOWN_LINE),
                one_line(&not.why, SHOWN_LINE)
            )?;
        }
        if let Some(rest) = self.not_judged.len().checked_sub(SHOWN_NOT_PROBED)
            && rest > 0
        {
            writeln!(f, "not judged: ... and {rest} more")?;
        }
        for (number, defect) in defects.iter().enumerate() {
            let example = defect.findings[0];
            writeln!(f)?;
            writeln!(
                f,
                "[{}] {}: {}",
                number + 1,
                defect.broken,
                one_line(&example.detail, SHOWN_LINE)
            )?;
            let calls = defect.calls();
            if calls > 1 {
                let tools: Vec<String> = defect
                    .tools
                    .iter()
                    .take(20)
                    .map(|tool| one_line(tool, SHOWN_LINE))
                    .collect();
                writeln!(
                    f,
                    "  in:     {calls} calls of {}{}",
                    tools.join(", "),
                    if defect.tools.len() > tools.len() {
                        ", ..."
                    } else {
                        ""
                    }
                )?;
            }
            writeln!(
                f,
                "  e.g.:   {}: {}",
                one_line(&example.tool, SHOWN_LINE),
                one_line(&example.mistake, SHOWN_LINE)
            )?;
            writeln!(
                f,
                "  sent:   {}",
                one_line(&example.call.to_string(), SHOWN_LINE)
            )?;
            writeln!(f, "  read:   {}", shown(&example.text))?;
        }
        Ok(())
    }
}

/// Which tools the audit runs. A call that keeps to the input schema runs
/// the tool: on a live server it may change what the server holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValidCalls {
    /// Every tool: for a server built for the test.
    Every,
    /// Only the tools annotated read-only (`readOnlyHint: true`): the
    /// default for a server in another process.
    #[default]
    ReadOnly,
    /// None: only calls that break the schema, which a server refuses
    /// before the tool runs.
    Never,
}

impl ValidCalls {
    fn runs(self, tool: &Tool) -> bool {
        match self {
            ValidCalls::Every => true,
            ValidCalls::ReadOnly => tool
                .annotations
                .as_ref()
                .and_then(|a| a.read_only_hint)
                .unwrap_or(false),
            ValidCalls::Never => false,
        }
    }
}

/// What the call that keeps to the schema got wrong: nothing but values
/// that name nothing.
const VALID_CALL: &str = "a call that keeps to the input schema, its strings naming nothing";

/// Calls `tool` with `arguments`, within `deadline`: `None` when it ran
/// out. A call with no answer within `timeout` ends in
/// [`ServiceError::Timeout`].
async fn call(
    peer: &Peer<RoleClient>,
    tool: &Tool,
    arguments: JsonObject,
    deadline: Option<Instant>,
    timeout: Option<Duration>,
) -> Option<Result<Reply, ServiceError>> {
    let params = CallToolRequestParams::new(tool.name.clone()).with_arguments(arguments);
    let answer = match deadline {
        Some(deadline) => {
            tokio::time::timeout_at(deadline.into(), call_within(peer, params, timeout))
                .await
                .ok()?
        }
        None => call_within(peer, params, timeout).await,
    };
    Some(match answer {
        Ok(result) => Ok(Reply::Result(result)),
        Err(ServiceError::McpError(error)) => Ok(Reply::Protocol(error)),
        Err(other) => Err(other),
    })
}

/// Whether `answer` is MCP's refusal of a call to a tool that must run as
/// a task: -32601, method not found, for a tool the server lists, as a
/// JSON-RPC error or as the text of a result some SDKs turn it into.
fn needs_a_task(answer: &Reply) -> bool {
    match answer {
        Reply::Protocol(error) => error.code == ErrorCode::METHOD_NOT_FOUND,
        Reply::Result(result) => {
            result.is_error == Some(true) && {
                let text = text_of(result);
                let text = head(&text, TEXT_LIMIT);
                text.contains("-32601") || text.contains("task augmentation")
            }
        }
    }
}

/// Audits the server behind `peer`. `logs`, when given, returns (and
/// clears) the records logged since it was last called. At `deadline`, if
/// one is given, the audit stops and reports what it did not reach as not
/// probed. A call with no answer within `call_timeout` is not probed.
/// `valid_calls` says which tools it runs with a call that keeps to their
/// schema.
pub(crate) async fn run(
    peer: &Peer<RoleClient>,
    mut logs: Option<&mut (dyn FnMut() -> Vec<Logged> + Send)>,
    deadline: Option<Instant>,
    call_timeout: Option<Duration>,
    valid_calls: ValidCalls,
) -> Result<AuditReport, ServiceError> {
    let mut report = AuditReport {
        logs_checked: logs.is_some(),
        ..AuditReport::default()
    };
    let Some(tools) = list_tools(peer, deadline, &mut report).await? else {
        return Ok(report);
    };
    let mut known = known_tools(&tools);
    'tools: for (index, tool) in tools.iter().enumerate() {
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
        let description = tool.description.as_deref();
        for problem in outcome_rules::check_description(description) {
            report.findings.push(Finding {
                tool: tool.name.to_string(),
                mistake: "its description in the tool list".into(),
                call: serde_json::json!({ "method": "tools/list" }),
                text: head(description.unwrap_or_default(), TEXT_LIMIT).to_owned(),
                broken: Expectation::Description(problem),
                detail: problem.to_string(),
            });
        }
        // The text may name the tool that failed; that is no step.
        known = std::mem::take(&mut known).answering(tool.name.to_string());
        let task = |report: &mut AuditReport| {
            report.not_probed.push(NotProbed {
                tool: Some(tool.name.to_string()),
                argument: None,
                why: "it answers -32601 (method not found), as a tool that must run as a task \
                      answers a plain call; the audit does not call tools as tasks"
                    .into(),
            });
        };
        let runs = valid_calls.runs(tool);
        if let Some(arguments) = plan.valid.as_ref().filter(|_| runs) {
            if let Some(logs) = logs.as_mut() {
                logs();
            }
            let Some(answer) = call(peer, tool, arguments.clone(), deadline, call_timeout).await
            else {
                stop(&mut report, "the audit ran out of time");
                return Ok(report);
            };
            report.calls += 1;
            match answer {
                Ok(answer) if needs_a_task(&answer) => {
                    task(&mut report);
                    continue;
                }
                Ok(answer) => {
                    let logged = logs.as_mut().map(|logs| logs());
                    let call = serde_json::json!({ "name": tool.name, "arguments": arguments });
                    judge(
                        Call {
                            tool: &tool.name,
                            probe: None,
                            baseline: &plan.baseline,
                            call,
                        },
                        &answer,
                        logged.as_deref(),
                        &known,
                        &mut report,
                    );
                }
                Err(ServiceError::Timeout { timeout }) => report.not_probed.push(NotProbed {
                    tool: Some(tool.name.to_string()),
                    argument: None,
                    why: format!("{VALID_CALL} got no answer within {}", seconds(timeout)),
                }),
                Err(other) => return Err(other),
            }
        } else if plan.valid.is_some() {
            report.not_run.push(tool.name.to_string());
        }
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
            let Some(answer) = call(peer, tool, arguments.clone(), deadline, call_timeout).await
            else {
                stop(&mut report, "the audit ran out of time");
                return Ok(report);
            };
            report.calls += 1;
            let answer = match answer {
                Ok(answer) => answer,
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
            let logged = logs.as_mut().map(|logs| logs());
            if needs_a_task(&answer) {
                task(&mut report);
                continue 'tools;
            }
            let call = serde_json::json!({ "name": tool.name, "arguments": arguments });
            judge(
                Call {
                    tool: &tool.name,
                    probe: Some(probe),
                    baseline: &plan.baseline,
                    call,
                },
                &answer,
                logged.as_deref(),
                &known,
                &mut report,
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

enum Reply {
    Result(CallToolResult),
    Protocol(ErrorData),
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

/// One call, as the judge reads it.
struct Call<'a> {
    tool: &'a str,
    /// The mistake made on purpose; `None` for the call that keeps to the
    /// schema.
    probe: Option<&'a Probe>,
    /// The arguments every call of the tool starts from.
    baseline: &'a JsonObject,
    /// The call sent, as JSON.
    call: Value,
}

/// Checks one answer, into `report`. A text longer than [`TEXT_LIMIT`] is
/// checked, and kept in the findings, on its first part, with a finding
/// that says so. An answer about another argument than the one the call
/// got wrong is not judged: the server refused the audit's baseline.
fn judge(
    call: Call<'_>,
    answer: &Reply,
    logged: Option<&[Logged]>,
    known: &outcome_rules::Tools,
    report: &mut AuditReport,
) {
    let whole = match answer {
        Reply::Result(result) => text_of(result),
        Reply::Protocol(error) => error.message.to_string(),
    };
    let text = head(&whole, TEXT_LIMIT).to_owned();
    let mistake = call.probe.map_or_else(
        || VALID_CALL.to_owned(),
        |probe| probe.mistake.describe(&probe.argument),
    );
    let is_error = match answer {
        Reply::Protocol(_) => None,
        Reply::Result(result) => Some(result.is_error == Some(true)),
    };
    let heals = text.contains(RETRY_MESSAGE)
        || logged.into_iter().flatten().any(|r| {
            r.name == "tool_call_failed"
                && r.tool.as_deref() == Some(call.tool)
                && r.level == Level::Warn
        });
    let why = match (answer, call.probe) {
        (Reply::Protocol(error), _)
            if error.code == ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY =>
        {
            Some(
                "the tool needs a capability of the client (sampling, elicitation, roots) that \
                 the audit does not offer, and said so with MCP's -32021"
                    .to_owned(),
            )
        }
        (_, None) if heals && is_error == Some(true) => Some(
            "the answer says to call again later, a fault that heals itself: it says nothing \
             of the values sent"
                .to_owned(),
        ),
        (_, Some(probe)) if is_error == Some(true) && !contains_word(&text, &probe.argument) => {
            call.baseline
                .iter()
                .find(|(name, _)| **name != probe.argument && contains_word(&text, name))
                .map(|(other, value)| {
                    format!(
                        "the answer is about {}, which every call sends as {}, not about {}: \
                         the server refused the audit's baseline",
                        named(other),
                        one_line(&value.to_string(), 80),
                        named(&probe.argument)
                    )
                })
        }
        _ => None,
    };
    if let Some(why) = why {
        report.not_judged.push(NotJudged {
            tool: call.tool.to_owned(),
            mistake,
            call: call.call,
            text,
            why,
        });
        return;
    }
    report.judged += 1;
    let findings = &mut report.findings;
    let mut found = |broken: Expectation, detail: String| {
        findings.push(Finding {
            tool: call.tool.to_owned(),
            mistake: mistake.clone(),
            call: call.call.clone(),
            text: text.clone(),
            broken,
            detail,
        });
    };
    match (is_error, call.probe) {
        (None, None) => {
            found(
                Expectation::IsError,
                "a call that keeps to the input schema got a JSON-RPC error, which many clients \
                 never show the model; a tool that fails answers a result with isError true"
                    .into(),
            );
            return;
        }
        (None, Some(_)) => {
            found(
                Expectation::IsError,
                "the call got a JSON-RPC error, which many clients never show the model; \
                 answer a result with isError true"
                    .into(),
            );
            return;
        }
        // A result is a fine answer to a call that keeps to the schema:
        // an empty search is one.
        (Some(false), None) => return,
        (Some(false), Some(_)) => {
            found(
                Expectation::IsError,
                "the call succeeded; arguments that break the input schema must be refused \
                 with isError true"
                    .into(),
            );
            return;
        }
        (Some(true), _) => {}
    }
    if text.contains(FAULT_MESSAGE) || text.contains(RETRY_MESSAGE) {
        found(
            Expectation::NotFault,
            if call.probe.is_some() {
                "the answer is a fault, which tells the model its request was fine; a wrong \
                 argument is outcome 2"
            } else {
                "the answer is a fault, which tells the model its request was fine and nobody \
                 else can act on it; a value the server does not hold is outcome 2"
            }
            .into(),
        );
        return;
    }
    if let Some(records) = logged {
        let failed = records
            .iter()
            .find(|r| r.name == "tool_call_failed" && r.tool.as_deref() == Some(call.tool));
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
    if let Some(probe) = call.probe {
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
        // The next step ends the whole text, long or not.
        let end = tail(&whole, TEXT_LIMIT);
        let step = outcome_rules::last_step(end, known);
        broken.retain(|b| b.rule != outcome_rules::Rule::NamesTool);
        if !step.is_some_and(|step| step.names_tool) {
            found(
                Expectation::Rule(outcome_rules::Rule::NamesTool),
                "the text does not end with a next step that names a tool to call".into(),
            );
        }
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
    /// The call that keeps to the schema, its strings values that name
    /// nothing a server holds: `None` when the audit builds no baseline.
    pub(crate) valid: Option<JsonObject>,
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
            // Read as the runtime reads it: a pointer within the schema,
            // percent- and `~`-escaped.
            let target = reference
                .as_str()
                .zip(self.root.as_object())
                .and_then(|(reference, root)| outcome_schema::resolve(root, reference))
                .map(|resolved| match resolved {
                    outcome_schema::Resolved::Root => self.root,
                    outcome_schema::Resolved::Value(value) => value,
                });
            let Some(target) = target else {
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
        // Of several types, the first listed: a server that takes
        // `["boolean", "string"]` may take only some strings ("true").
        let first = schema
            .get("type")
            .and_then(Value::as_array)
            .and_then(|kinds| {
                kinds
                    .iter()
                    .filter_map(Value::as_str)
                    .find(|kind| *kind != "null")
            });
        let kind = single_type(schema)
            .or(first)
            .unwrap_or(if schema.get("properties").is_some() {
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
        valid: None,
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
        // The calls the audit built, read as the runtime reads them: one
        // the schema refuses would blame the server for the audit's
        // mistake.
        Ok(()) => {
            let contract = Contract::new(tool.input_schema.clone());
            let outside = |arguments: &JsonObject| {
                (!contract.fits(arguments))
                    .then(|| contract.explain(&tool.name, Some(arguments), ""))
            };
            if let Some(why) = outside(&plan.baseline) {
                plan.probes.clear();
                plan.valid = None;
                plan.not_probed.clear();
                plan.not_probed.push(not_probed(
                    None,
                    format!("no call: the call the audit builds does not keep to its input schema: {why}"),
                ));
            } else if let Some(why) = plan.valid.as_ref().and_then(outside) {
                plan.valid = None;
                plan.not_probed.push(not_probed(
                    None,
                    format!("no call that keeps to its input schema: {why}"),
                ));
            }
        }
        Err((argument, Unbuilt::Cannot(why))) => {
            plan.probes.clear();
            plan.valid = None;
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
            plan.valid = None;
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
        // The call that keeps to the schema: a string that any string
        // meets names nothing a server holds, and neither does a large
        // number where an id is asked for.
        let mut valid = plan.baseline.clone();
        for (name, value) in &mut valid {
            let schema = properties.and_then(|p| p.get(name)).unwrap_or(&ANYTHING);
            let schema = self
                .resolve(schema)
                .map_err(|error| (Some(name.clone()), error))?;
            if value.is_string() && takes_any_string(schema, NAMES_NOTHING) {
                *value = Value::from(NAMES_NOTHING);
            } else if value.is_number() && names_a_number(name) && takes_any_id(schema) {
                *value = Value::from(NUMBER_NAMES_NOTHING);
            }
        }
        plan.valid = Some(valid);
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

/// The string the call that keeps to the schema sends: a path, an id, a
/// name no server holds.
pub(crate) const NAMES_NOTHING: &str = "no-such-audit-value";

/// The number the call that keeps to the schema sends for an id.
pub(crate) const NUMBER_NAMES_NOTHING: u64 = 987_654_321;

/// Whether an argument's name asks for the number of something: `id`,
/// `issue_number`, `user_id`, `pageIndex`.
fn names_a_number(name: &str) -> bool {
    // The last word, in snake, kebab or camel case.
    let start = name
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_ascii_uppercase() || *c == '_' || *c == '-')
        .map_or(
            0,
            |(at, c)| if c.is_ascii_uppercase() { at } else { at + 1 },
        );
    let last = name[start..].to_ascii_lowercase();
    ["id", "number", "index", "num", "no"].contains(&last.as_str())
}

/// Whether `schema` is an integer that [`NUMBER_NAMES_NOTHING`] meets.
fn takes_any_id(schema: &Value) -> bool {
    let number = NUMBER_NAMES_NOTHING as f64;
    single_type(schema) == Some("integer")
        && schema.get("enum").is_none()
        && schema.get("const").is_none()
        && schema.get("multipleOf").is_none()
        && schema
            .get("maximum")
            .and_then(Value::as_f64)
            .is_none_or(|max| max >= number)
        && schema
            .get("exclusiveMaximum")
            .and_then(Value::as_f64)
            .is_none_or(|max| max > number)
}

/// Whether `schema` is a string any text of `text`'s length meets: no
/// `pattern`, `format`, `enum` or `const`.
fn takes_any_string(schema: &Value, text: &str) -> bool {
    let length = text.chars().count() as u64;
    let bound = |key: &str| schema.get(key).and_then(Value::as_u64);
    single_type(schema) == Some("string")
        && ["pattern", "format", "enum", "const"]
            .iter()
            .all(|key| schema.get(*key).is_none())
        && bound("minLength").is_none_or(|min| min <= length)
        && bound("maxLength").is_none_or(|max| max >= length)
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
    fn an_argument_that_asks_for_a_number_of_something() {
        for name in ["id", "issue_number", "userId", "page-index", "pageNo"] {
            assert!(names_a_number(name), "{name}");
        }
        for name in ["valid", "idle", "limit", "notion", "number_of_days_x"] {
            assert!(!names_a_number(name), "{name}");
        }
    }

    #[test]
    fn words_and_quotes_are_found() {
        assert!(contains_word("The argument limit of x", "limit"));
        assert!(!contains_word("The argument limits of x", "limit"));
        assert!(quotes("was 'ten', but", &Value::from("ten")));
        assert!(quotes("input_value='ten'", &Value::from("ten")));
        assert!(quotes("was '42', but", &Value::from(42)));
        assert!(!quotes("was 142, but", &Value::from(42)));
    }

    fn finding(tool: &str, argument: &str, text: &str) -> Finding {
        Finding {
            tool: tool.into(),
            mistake: format!("the required argument {argument} left out"),
            call: serde_json::json!({"name": tool, "arguments": {"query": "a"}}),
            text: text.into(),
            broken: Expectation::IsError,
            detail: String::new(),
        }
    }

    #[test]
    fn one_template_over_tools_and_calls_is_one() {
        let pydantic = |tool: &str, argument: &str| {
            finding(
                tool,
                argument,
                &format!(
                    "1 validation error for {tool}Arguments\n{argument}\n  Field required \
                     [type=missing, input_value={{'query': 'a'}}, input_type=dict]\n    For \
                     further information visit https://errors.pydantic.dev/2.11/v/missing"
                ),
            )
        };
        let read = template(&pydantic("read_note", "note_path"));
        assert_eq!(read, "# validation error for <name>");
        assert_eq!(read, template(&pydantic("git_log", "repo_path")));
        assert_eq!(
            template(&finding(
                "git_status",
                "repo_path",
                "1 validation error for statusArguments"
            )),
            read
        );
        // Other words are another template.
        assert_ne!(
            read,
            template(&finding("git_log", "repo_path", "No repository at 'a'."))
        );
        // A megabyte of quotes is read once: the template is linear.
        let hostile = " 'a".repeat(1 << 20);
        let read = template(&finding("x", "y", &hostile));
        assert_eq!(read, "<value>a ".repeat(8).trim_end());
        let unclosed = " {a".repeat(1 << 20);
        assert_eq!(
            template(&finding("x", "y", &unclosed)),
            "{a ".repeat(8).trim_end()
        );
        // A validator's words after the frame vary with the mistake.
        let zod = |expected: &str| {
            template(&finding(
                "read_file",
                "path",
                &format!(
                    "MCP error -32602: Input validation error: Invalid arguments for tool \
                     read_file: Invalid input: expected {expected}, received null at path"
                ),
            ))
        };
        assert_eq!(zod("string"), zod("array"));
        // An argument's name is a placeholder, looked up once per word
        // however many arguments the call has.
        let mut many = finding("x", "y", &"path is wrong ".repeat(1 << 10));
        let arguments: Map<String, Value> = (0..50_000)
            .map(|n| (format!("a{n}"), Value::Null))
            .chain([("path".to_owned(), Value::Null)])
            .collect();
        many.call = serde_json::json!({"name": "x", "arguments": arguments});
        assert_eq!(
            template(&many),
            "<argument> is wrong <argument> is wrong <argument> is"
        );
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
            valid: None,
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
    fn a_call_the_schema_refuses_is_never_sent_as_one_it_accepts() {
        // The builder knows no `multipleOf`: the contract, read as the
        // runtime reads it, catches the baseline it builds.
        let stepped = serde_json::json!({
            "properties": {"n": {"type": "integer", "minimum": 0, "multipleOf": 5}},
            "required": ["n"]
        });
        let plan = plan(&tool(stepped), None).unwrap();
        assert!(plan.probes.is_empty());
        assert_eq!(plan.valid, None);
        let [not] = plan.not_probed.as_slice() else {
            panic!("one tool not probed: {:?}", plan.not_probed);
        };
        assert!(
            not.why.contains("does not keep to its input schema")
                && not.why.contains("a multiple of 5"),
            "{}",
            not.why
        );
        // An example that keeps to a pattern is sent; one that does not is
        // not the audit's to send.
        let patterned = |example: &str| serde_json::json!({"properties": {"x": {"type": "string", "pattern": "^[0-9]+$", "examples": [example]}}, "required": ["x"]});
        assert_eq!(plan_of(patterned("12")).not_probed, []);
        assert_eq!(plan_of(patterned("twelve")).not_probed.len(), 1);
    }

    fn plan_of(schema: Value) -> Plan {
        plan(&tool(schema), None).unwrap()
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
