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
/// schema. Every tool the server lists ends under one heading of
/// [`AuditReport::by_tool`], with why.
pub(crate) async fn run(
    peer: &Peer<RoleClient>,
    logs: Option<&mut (dyn FnMut() -> Vec<Logged> + Send)>,
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
    let mut session = Session {
        peer,
        logs,
        deadline,
        call_timeout,
        known: known_tools(tools.iter().map(|(_, tool)| tool)),
    };
    for (index, (entry, tool)) in tools.iter().enumerate() {
        // A turn for the runtime between tools, so that a timeout around
        // the audit is seen even when no tool makes a call.
        tokio::task::yield_now().await;
        let mut progress = Progress::from(&report);
        let stopped = match plan(tool, deadline) {
            Ok(plan) => {
                progress.arguments = plan.arguments;
                session
                    .audit_tool(tool, plan, valid_calls, &mut progress, &mut report)
                    .await?
            }
            Err(OutOfTime) => Some(OUT_OF_TIME.to_owned()),
        };
        progress.settle(&mut report, *entry, &tool.name, stopped.as_deref());
        if let Some(why) = stopped {
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
            for (entry, _) in &tools[index + 1..] {
                report.by_tool[*entry].why = Some(format!("{why} before it"));
            }
            return Ok(report);
        }
    }
    Ok(report)
}

/// Why the audit stopped when its time ran out.
const OUT_OF_TIME: &str = "the audit ran out of time";

/// What every call of one audit shares.
struct Session<'a, 'l> {
    peer: &'a Peer<RoleClient>,
    logs: Option<&'l mut (dyn FnMut() -> Vec<Logged> + Send)>,
    deadline: Option<Instant>,
    call_timeout: Option<Duration>,
    /// The tools and parameters a text may name, less the tool called.
    known: outcome_rules::Tools,
}

impl Session<'_, '_> {
    /// Audits one tool by its plan, into `report` and `progress`. `Some`
    /// with why when the audit must stop: its time ran out, or it has all
    /// the findings it keeps.
    async fn audit_tool(
        &mut self,
        tool: &Tool,
        plan: Plan,
        valid_calls: ValidCalls,
        progress: &mut Progress,
        report: &mut AuditReport,
    ) -> Result<Option<String>, ServiceError> {
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
        self.known = std::mem::take(&mut self.known).answering(tool.name.to_string());
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
            let Some(answer) = self.call(tool, arguments, progress).await else {
                return Ok(Some(OUT_OF_TIME.to_owned()));
            };
            match answer {
                Ok((answer, _)) if needs_a_task(&answer) => {
                    task(report);
                    return Ok(None);
                }
                Ok((answer, logged)) => {
                    let parameters = parameters_of(tool);
                    judge(
                        Call {
                            tool: &tool.name,
                            probe: None,
                            baseline: &plan.baseline,
                            parameters: &parameters,
                            call: serde_json::json!({ "name": tool.name, "arguments": arguments }),
                        },
                        &answer,
                        logged.as_deref(),
                        &mut self.known,
                        report,
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
            progress.not_run = true;
        }
        for probe in &plan.probes {
            if report.findings.len() >= FINDINGS_LIMIT {
                return Ok(Some(format!(
                    "the audit stopped at {FINDINGS_LIMIT} findings"
                )));
            }
            let arguments = probe.arguments(&plan.baseline);
            let Some(answer) = self.call(tool, &arguments, progress).await else {
                return Ok(Some(OUT_OF_TIME.to_owned()));
            };
            let (answer, logged) = match answer {
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
            if needs_a_task(&answer) {
                task(report);
                return Ok(None);
            }
            judge(
                Call {
                    tool: &tool.name,
                    probe: Some(probe),
                    baseline: &plan.baseline,
                    parameters: &[],
                    call: serde_json::json!({ "name": tool.name, "arguments": arguments }),
                },
                &answer,
                logged.as_deref(),
                &mut self.known,
                report,
            );
        }
        Ok(None)
    }

    /// Calls `tool` with `arguments`, counted in `progress`, with the log
    /// records written meanwhile (when logs are read): `None` when the
    /// audit's time ran out.
    async fn call(
        &mut self,
        tool: &Tool,
        arguments: &JsonObject,
        progress: &mut Progress,
    ) -> Option<Result<(Reply, Option<Vec<Logged>>), ServiceError>> {
        if let Some(logs) = self.logs.as_mut() {
            logs();
        }
        let answer = call(
            self.peer,
            tool,
            arguments.clone(),
            self.deadline,
            self.call_timeout,
        )
        .await?;
        progress.calls += 1;
        Some(answer.map(|answer| {
            progress.answered += 1;
            (answer, self.logs.as_mut().map(|logs| logs()))
        }))
    }
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
/// [`TOOLS_LIMIT`] and pages past [`PAGES_LIMIT`]. Every entry is in
/// [`AuditReport::by_tool`], and each tool comes with its place there.
/// `None` when time ran out.
pub(crate) async fn list_tools(
    peer: &Peer<RoleClient>,
    deadline: Option<Instant>,
    report: &mut AuditReport,
) -> Result<Option<Vec<(usize, Tool)>>, ServiceError> {
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
            let name = entry.get("name").and_then(Value::as_str);
            let place = report.by_tool.len();
            let unreached =
                |why: String| ToolSummary::unreached(name.unwrap_or("(no name)").to_owned(), why);
            if tools.len() == TOOLS_LIMIT {
                report.by_tool.push(unreached(format!(
                    "the server lists more than {TOOLS_LIMIT} tools; the audit probed the first \
                     {TOOLS_LIMIT}"
                )));
                continue;
            }
            match serde_json::from_value::<Tool>(entry.clone()) {
                Ok(tool) => {
                    report
                        .by_tool
                        .push(unreached("the audit did not reach it".into()));
                    tools.push((place, tool));
                }
                Err(error) => {
                    let not = NotProbed {
                        tool: Some(
                            name.map_or_else(|| "(no name)".to_owned(), |name| one_line(name, 200)),
                        ),
                        argument: None,
                        why: format!(
                            "its entry in the tool list is not a tool: {}",
                            one_line(&error.to_string(), 200)
                        ),
                    };
                    let mut summary = unreached(not.why.clone());
                    summary.not_probed = 1;
                    report.by_tool.push(summary);
                    report.not_probed.push(not);
                }
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
pub(crate) fn known_tools<'t>(tools: impl Iterator<Item = &'t Tool>) -> outcome_rules::Tools {
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
