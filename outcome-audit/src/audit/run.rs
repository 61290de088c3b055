//! The run: the tools listed, each probe called, each answer judged.

use super::*;

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
pub(crate) const VALID_CALL: &str =
    "a call that keeps to the input schema, its strings naming nothing";

/// Calls `tool` with `arguments`, within `deadline`: `None` when it ran
/// out. A call with no answer within `timeout` ends in
/// [`ServiceError::Timeout`].
pub(crate) async fn call(
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
pub(crate) fn needs_a_task(answer: &Reply) -> bool {
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
                    let parameters = parameters_of(tool);
                    judge(
                        Call {
                            tool: &tool.name,
                            probe: None,
                            baseline: &plan.baseline,
                            parameters: &parameters,
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
                    parameters: &[],
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
pub(crate) async fn call_within(
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
pub(crate) fn seconds(duration: Duration) -> String {
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
pub(crate) async fn list_tools(
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
pub(crate) fn known_tools(tools: &[Tool]) -> outcome_rules::Tools {
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
    tool: &'a str,
    /// The mistake made on purpose; `None` for the call that keeps to the
    /// schema.
    probe: Option<&'a Probe>,
    /// The arguments every call of the tool starts from.
    baseline: &'a JsonObject,
    /// The names of the tool's parameters, sent or not.
    parameters: &'a [String],
    /// The call sent, as JSON.
    call: Value,
}

/// Checks one answer, into `report`. A text longer than [`TEXT_LIMIT`] is
/// checked, and kept in the findings, on its first part, with a finding
/// that says so. An answer about another argument than the one the call
/// got wrong is not judged: the server refused the audit's baseline.
pub(crate) fn judge(
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
fn parameters_of(tool: &Tool) -> Vec<String> {
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
