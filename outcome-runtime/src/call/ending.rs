//! How a call ends: the one table from how a call's body stopped to the
//! call's outcome, its log lines and its answer, which the request log,
//! wrapped routes and jobs all use.
//!
//! | the body | the answer | the lines |
//! |---|---|---|
//! | answered a result that is not an error | as it is | `tool_call_completed` |
//! | answered for a job: handed it over (`Deferred`) / a poll read its answer | as it is | `tool_call_deferred` / `tool_call_completed` |
//! | answered a `ToolError`'s `isError` result | as it is | `tool_call_failed` at its level (its fault recorded by the boundary) |
//! | answered an `isError` result nobody classified | as it is | ERROR `tool_call_failed`, `fault` |
//! | never ran: rmcp refused the arguments | the arguments explained, outcome 2 | INFO `tool_call_failed`, `invalid` |
//! | answered a JSON-RPC error: an unknown tool, a missing capability, `ToolError::protocol` | as it is | INFO `tool_call_failed`, `protocol`, with the code |
//! | answered any other JSON-RPC error (a trait tool's `ToolError` among them) | as `ToolError::from` reads its code and the outcome it carries | as that error says |
//! | asked for input, or became a task | as it is | `tool_call_deferred` |
//! | panicked past the boundary | the fault's answer | `tool_failed` (the panic) and ERROR `tool_call_failed` |
//! | was cancelled | the cancel's answer | `tool_call_cancelled` |

use std::any::Any;
use std::task::Poll;
use std::time::Instant;

use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use tracing::Level;

use crate::answer::error::ToolError;
use crate::base::bounds::{Bounded, ToolName};
use crate::base::outcome::{Ending, Outcome};
use crate::base::report::Report;
use crate::base::rmcp_errors::{argument_reason, is_argument_error, passes_through};
use crate::call::fault::{self, caught_panic};
use crate::logs::records;
use crate::logs::request_log::{self, Line};
use crate::logs::telemetry::Telemetry;

/// What a call's future gives: its answer, or what a cancelled call gives.
pub(crate) trait CallOutput {
    /// The answer of a call that was not cancelled.
    fn answered(answer: Result<CallToolResponse, ErrorData>) -> Self;
    /// What a cancelled call gives.
    fn cancelled() -> Self;
}

/// `call_tool` answers a cancelled call with an `isError` result.
impl CallOutput for Result<CallToolResponse, ErrorData> {
    #[inline(always)]
    fn answered(answer: Result<CallToolResponse, ErrorData>) -> Self {
        answer
    }

    fn cancelled() -> Self {
        let text = "The call was cancelled.";
        Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into())
    }
}

/// `None` for a cancelled call: a task ends it as cancelled.
impl CallOutput for Option<Result<CallToolResponse, ErrorData>> {
    #[inline(always)]
    fn answered(answer: Result<CallToolResponse, ErrorData>) -> Self {
        Some(answer)
    }

    fn cancelled() -> Self {
        None
    }
}

/// How a call's body stopped.
pub(crate) enum Stopped {
    /// It answered; the answer is in the call's [`AnswerSlot`], the report
    /// it carried taken out of it.
    Answered(Option<Report>),
    /// rmcp refused the arguments before the body ran; the slot holds
    /// rmcp's error, with serde's reason.
    Refused,
    /// A panic escaped it.
    Panicked(Box<dyn Any + Send>),
    /// The call was cancelled.
    Cancelled,
}

/// A call's answer, from its body's last poll to the call's end: written
/// once, by that poll, and read once, not handed back through each layer.
pub(crate) type AnswerSlot = Poll<Result<CallToolResponse, ErrorData>>;

/// The answer in `slot`, taken out.
#[inline(always)]
pub(crate) fn take_answer(slot: &mut AnswerSlot) -> Result<CallToolResponse, ErrorData> {
    match std::mem::replace(slot, Poll::Pending) {
        Poll::Ready(answer) => answer,
        Poll::Pending => unreachable!("a call that answered has its answer in the slot"),
    }
}

/// Ends a call by this module's table: decides how it ended, then hands
/// that to the request log (its one line) and to the answer (given, or
/// `None` to leave it in `answer` for the caller). Nothing but a fault's
/// record is written before the decision is made. `explain` turns serde's
/// reason into what is wrong with the arguments.
pub(crate) fn end_call<E: CallOutput>(
    telemetry: &Telemetry,
    started: Instant,
    tool: &ToolName,
    stopped: Stopped,
    answer: &mut AnswerSlot,
    explain: impl FnOnce(&str) -> String,
) -> Option<E> {
    let logged = &tool.logged();
    let report;
    let (line, ended) = match stopped {
        Stopped::Answered(answered) => {
            report = answered;
            let (line, ended) = answered_line(tool, report.as_ref(), answer);
            (line, ended.map(E::answered))
        }
        Stopped::Cancelled => (Line::Cancelled, Some(E::cancelled())),
        // The panic escaped the boundary: the tool is not wrapped, or
        // rmcp's own code around the body panicked.
        Stopped::Panicked(payload) => {
            let (line, ended) = failed(tool, caught_panic(logged, payload));
            (line, Some(E::answered(ended)))
        }
        Stopped::Refused => {
            let Poll::Ready(Err(error)) = &*answer else {
                unreachable!("a refusal is rmcp's error");
            };
            let text = explain(argument_reason(&error.message).unwrap_or_default());
            let line = Line::Failed {
                level: Level::INFO,
                outcome: Outcome::Invalid,
                error_type: None,
                error_code: None,
            };
            let ended = CallToolResult::error(vec![ContentBlock::text(text)]).into();
            (line, Some(E::answered(Ok(ended))))
        }
    };
    request_log::write(telemetry, logged, line, records::duration_ms(started));
    ended
}

/// The line of a call whose body answered, with `report` taken out of
/// its answer; and the answer that replaces the one in the slot, if any.
fn answered_line<'r>(
    tool: &ToolName,
    report: Option<&'r Report>,
    answer: &mut AnswerSlot,
) -> (Line<'r>, Option<Result<CallToolResponse, ErrorData>>) {
    let Poll::Ready(ended) = answer else {
        unreachable!("a call that answered has its answer in the slot");
    };
    // A call that is part of a job is logged as the job says.
    match report {
        Some(Report::Deferred) => return (Line::Deferred(Ending::Deferred), None),
        Some(Report::Replayed) => return (Line::Completed, None),
        _ => {}
    }
    // A protocol error from inside the call (a failed extractor, a result
    // that did not serialize, an unwrapped tool) ends as `?` on it would:
    // invalid params is outcome 2, the rest a fault. Only an unknown tool,
    // a missing capability and `ToolError::protocol` stay JSON-RPC errors.
    if let Err(error) = &*ended
        && !(passes_through(error) || report.is_some_and(Report::is_protocol))
    {
        let Err(error) = take_answer(answer) else {
            unreachable!("the answer was just matched");
        };
        // A `#[tool]` that returns `McpError` answered its `ToolError`
        // this way, its fault recorded by the boundary.
        let error = match report {
            Some(report @ Report::Failed { .. }) => ToolError::from_report(report.clone(), error),
            _ => ToolError::from(error),
        };
        let (line, ended) = failed(tool, error);
        return (line, Some(ended));
    }
    (line_of(ended, report), None)
}

/// How a call that ends as `error` says ends, after its scope closed: the
/// fault recorded once, the line at the error's level, and the answer,
/// its fallback step naming the tool.
fn failed(
    tool: &ToolName,
    mut error: ToolError,
) -> (Line<'static>, Result<CallToolResponse, ErrorData>) {
    fault::record_fault(&mut error, Some(&tool.logged()));
    if let Some(data) = error.protocol_error() {
        return (protocol(data.code.0), Err(data.clone()));
    }
    let line = Line::Failed {
        level: error.level(),
        outcome: error.outcome(),
        error_type: error.error_type(),
        error_code: None,
    };
    let text = error.into_message(tool);
    (
        line,
        Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into()),
    )
}

/// The final line of a call that answered `answer` (with `report`, if a
/// `ToolError` made it) by this module's table, for the request log and
/// jobs alike.
pub(crate) fn line_of<'r>(
    answer: &Result<CallToolResponse, ErrorData>,
    report: Option<&'r Report>,
) -> Line<'r> {
    match answer {
        Ok(CallToolResponse::Complete(result)) if result.is_error == Some(true) => match report {
            Some(
                report @ Report::Failed {
                    outcome,
                    error_type,
                    ..
                },
            ) => Line::Failed {
                level: report.level(),
                outcome: *outcome,
                error_type: error_type.as_deref(),
                error_code: None,
            },
            _ => Line::Failed {
                level: Level::ERROR,
                outcome: Outcome::Fault,
                error_type: None,
                error_code: None,
            },
        },
        Ok(CallToolResponse::Complete(_)) => Line::Completed,
        Ok(CallToolResponse::InputRequired(_)) => Line::Deferred(Ending::InputRequired),
        Ok(CallToolResponse::Task(_)) => Line::Deferred(Ending::Task),
        Ok(_) => Line::Deferred(Ending::Deferred),
        Err(error) => protocol(error.code.0),
    }
}

/// The line of a JSON-RPC error the client gets as is.
fn protocol(code: i32) -> Line<'static> {
    Line::Failed {
        level: Level::INFO,
        outcome: Outcome::Protocol,
        error_type: None,
        error_code: Some(code),
    }
}

/// The answer of a wrapped route ([`wrap_route`](crate::handler::wrap_route))
/// whose call ended as `ended`, an answer or a panic. The request log
/// writes the lines; this hands a `ToolError` over as every boundary does.
pub(crate) fn route_answer(
    tool: &Bounded<'_>,
    ended: Result<Result<CallToolResponse, ErrorData>, Box<dyn Any + Send>>,
) -> Result<CallToolResponse, ErrorData> {
    match ended {
        Ok(Ok(response)) => Ok(response),
        // rmcp's own errors around the body: arguments that do not
        // deserialize, and the ones that stay JSON-RPC errors.
        Ok(Err(error)) if is_argument_error(&error) || passes_through(&error) => Err(error),
        Ok(Err(error)) => fault::answer(ToolError::from(error), Some(tool)),
        Err(payload) => fault::answer(caught_panic(tool, payload), Some(tool)),
    }
}
