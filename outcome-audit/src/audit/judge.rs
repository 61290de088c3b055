//! The judge: what one answer must be, by the call that got it, and each
//! expectation it breaks as a finding.

use super::*;

/// What a call got: a result, or a JSON-RPC error.
pub(crate) enum Reply {
    Result(CallToolResult),
    Protocol(ErrorData),
}

/// The first `limit` bytes of `text`, cut at a character's boundary.
pub(crate) fn head(text: &str, limit: usize) -> &str {
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
pub(crate) fn tail(text: &str, limit: usize) -> &str {
    let Some(mut start) = text.len().checked_sub(limit) else {
        return text;
    };
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// One call, as the judge reads it.
pub(crate) struct Call<'a> {
    pub(crate) tool: &'a str,
    /// The mistake made on purpose; `None` for the call that keeps to the
    /// schema.
    pub(crate) probe: Option<&'a Probe>,
    /// The arguments every call of the tool starts from.
    pub(crate) baseline: &'a JsonObject,
    /// The names of the tool's parameters, sent or not.
    pub(crate) parameters: &'a [String],
    /// The call sent, as JSON.
    pub(crate) call: Value,
}

/// Checks one answer, into `report`. A text longer than [`TEXT_LIMIT`] is
/// checked, and kept in the findings, on its first part, with a finding
/// that says so. An answer about another argument than the one the call
/// got wrong is not judged: the server refused the audit's baseline.
pub(crate) fn judge(
    call: Call<'_>,
    answer: &Reply,
    logged: Option<&[Logged]>,
    known: &mut outcome_rules::Tools,
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
    if call.probe.is_none()
        && let Some(sent) = call.call.get("arguments").and_then(Value::as_object)
        && !sent.is_empty()
        && !call
            .parameters
            .iter()
            .any(|name| contains_word(&text, name))
        && !sent
            .values()
            .any(|value| value.is_string() && quotes(&text, value))
    {
        let mut names: Vec<&str> = sent.keys().map(String::as_str).collect();
        names.truncate(5);
        found(
            Expectation::NamesArgument,
            format!(
                "the refusal names none of the call's arguments ({}) and quotes none of its \
                 values: the model cannot tell which one to change",
                names.join(", ")
            ),
        );
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
    // What the call sent is known: a path the text names is the model's
    // own only if it is one of these.
    let mut sent = Vec::new();
    strings(
        call.call.get("arguments").unwrap_or(&Value::Null),
        &mut sent,
    );
    known.set_sent(Some(sent));
    let mut broken = outcome_rules::check_message(outcome_rules::Outcome::Invalid, &text, known);
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

/// The names of `tool`'s parameters, as its input schema lists them.
pub(crate) fn parameters_of(tool: &Tool) -> Vec<String> {
    tool.input_schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| properties.keys().cloned().collect())
        .unwrap_or_default()
}

/// The text of a result: its text contents, one per line.
pub(crate) fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|content| content.as_text().map(|text| text.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n")
}

pub(crate) fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `word` stands in `text` as a word of its own.
pub(crate) fn contains_word(text: &str, word: &str) -> bool {
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
pub(crate) fn quotes(text: &str, value: &Value) -> bool {
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

/// Every string in `value`, however deep, into `into`.
fn strings(value: &Value, into: &mut Vec<String>) {
    match value {
        Value::String(text) => into.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|item| strings(item, into)),
        Value::Object(fields) => fields.values().for_each(|field| strings(field, into)),
        _ => {}
    }
}
