//! Request logging for `tools/call`, used by `#[tool_handler]`.
//!
//! rmcp has no middleware, so this is the `call_tool` that
//! `#[outcome_runtime::tool_handler]` generates. It runs the router, and for
//! every call writes `tool_call_completed` or `tool_call_failed` with the
//! outcome the boundary reported. It also ends the calls that fail before or
//! around a tool body by the same rules: arguments that do not deserialize,
//! protocol errors, and panics or errors of tools that skipped the boundary.

use std::cell::Cell;
use std::future::{Future, poll_fn};
use std::pin::pin;
use std::task::Poll;
use std::time::Instant;

use rmcp::handler::server::tool::{ToolCallContext, ToolRouter};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode,
};
use rmcp::service::{MaybeSend, RequestContext};
use rmcp::{ErrorData, RoleServer};
use tracing::Level;

use crate::arguments;
use crate::boundary::{CatchPanic, DropCaught, caught_panic};
use crate::call::{CALL, CallScope, Note};
use crate::error::ToolError;
use crate::logging::{self, Ending};
use crate::outcome::Outcome;
use crate::telemetry::Telemetry;

/// The text rmcp puts before serde's message when arguments do not
/// deserialize.
const ARGUMENT_ERROR_PREFIX: &str = "failed to deserialize parameters:";

/// Calls a tool through `router` and logs how the call ended: the
/// `call_tool` that [`tool_handler`](macro@crate::tool_handler) generates,
/// for a `ServerHandler` that writes its own (to run some calls as tasks,
/// say).
///
/// Writes `tool_call_completed` or `tool_call_failed` for the call; answers
/// arguments that do not deserialize with outcome 2; keeps an unknown tool
/// and a missing client capability as JSON-RPC errors; ends any other
/// JSON-RPC error as [`ToolError`] maps it (invalid params is outcome 2, the
/// rest outcome 4) and any panic that escaped the boundary as outcome 4;
/// drops the body of a call the client cancels and logs
/// `tool_call_cancelled`.
pub async fn call_tool<S>(
    service: &S,
    router: &ToolRouter<S>,
    request: CallToolRequestParams,
    context: RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData>
where
    S: MaybeSend + 'static,
{
    // rmcp only flags a cancelled request; the body would run on.
    let cancellation = context.ct.clone();
    match call_until(service, router, request, context, cancellation.cancelled()).await {
        Some(ended) => ended,
        None => {
            let text = "The call was cancelled.";
            Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into())
        }
    }
}

/// Calls a tool through `router` until `cancelled` completes, and logs how
/// the call ended. `None` when it was cancelled: the body is dropped and the
/// call is logged as `tool_call_cancelled`.
pub(crate) async fn call_until<S>(
    service: &S,
    router: &ToolRouter<S>,
    request: CallToolRequestParams,
    context: RequestContext<RoleServer>,
    cancelled: impl Future<Output = ()>,
) -> Option<Result<CallToolResponse, ErrorData>>
where
    S: MaybeSend + 'static,
{
    let started = Instant::now();
    // Everything the call does, its body and its log lines, happens in its
    // span, entered by hand: an `Instrumented` layer would make the future
    // that rmcp boxes and moves larger.
    let (telemetry, ids) = Telemetry::call(&request.name, &context);
    let telemetry = &telemetry;
    // Kept to explain arguments that fail to deserialize; the router takes
    // the request's own copy.
    let arguments = request.arguments.clone();
    let scope = CallScope {
        tool: request.name.clone(),
        report: Cell::new(None),
        stashed: Cell::new(None),
        note: Cell::new(None),
        body_ran: Cell::new(false),
        session: session_of(&context),
        ids,
    };
    let call = ToolCallContext::new(service, request, context);
    let mut running = pin!(DropCaught::new(
        CALL.scope(scope, CatchPanic::new(router.call(call)))
    ));
    let mut cancelled = pin!(cancelled);
    // Polling the call first keeps the cancellation off the path of a call
    // that is ready.
    let ended = poll_fn(|cx| {
        let _inside = telemetry.enter();
        if let Poll::Ready(ended) = running.as_mut().poll(cx) {
            return Poll::Ready(Some(ended));
        }
        cancelled.as_mut().poll(cx).map(|()| None)
    })
    .await;
    // No await from here on: the guard is never held across one.
    let _inside = telemetry.enter();
    let Some(CallScope {
        tool,
        report,
        stashed,
        note,
        body_ran,
        ..
    }) = running
        .as_mut()
        .inner()
        .and_then(|inner| inner.take_value())
    else {
        unreachable!("the scope is taken once, after the call ended");
    };
    // The body's drop is the tool's code: a panic there is a fault of this
    // call (a cancelled call drops a body that is still running).
    if let Err(payload) = running.as_mut().drop_inner() {
        // Logged where it is caught; only a cancelled body can get here, as
        // a finished one has dropped what it held.
        drop(caught_panic(&tool, payload));
    }
    let Some(ended) = ended else {
        // Cancelled: logged as such, not as a failure.
        logging::call_cancelled(
            telemetry,
            &tool,
            started.elapsed().as_micros() as f64 / 1000.0,
        );
        return None;
    };
    let report = report.get();
    // A `ToolError` that travelled as an `ErrorData` ends as itself.
    let ended = match (ended, stashed.into_inner().map(|stashed| *stashed)) {
        (Ok(Err(error)), Some((response, stand_in))) if error == stand_in => Ok(Ok(response)),
        (ended, _) => ended,
    };
    let elapsed = || started.elapsed().as_micros() as f64 / 1000.0;
    // A call that is part of a job is logged as the job says.
    let ended = match (ended, note.get()) {
        (Ok(Ok(response)), Some(note)) => {
            match note {
                Note::Deferred => {
                    logging::call_deferred(telemetry, &tool, Ending::Deferred, elapsed())
                }
                Note::Replayed => logging::call_completed(telemetry, &tool, elapsed()),
            }
            return Some(Ok(response));
        }
        (ended, _) => ended,
    };

    Some(match ended {
        // The body never ran, and rmcp answered: its extractor refused the
        // arguments. (A tool outside the boundary never says whether its
        // body ran, so rmcp's text must agree.)
        Ok(Ok(CallToolResponse::Complete(result)))
            if result.is_error == Some(true)
                && report.is_none()
                && !body_ran.get()
                && argument_error(&result).is_some() =>
        {
            let reason = argument_error(&result);
            // rmcp found the tool to answer, so the router has it.
            let schema = router
                .get(&tool)
                .map(|t| t.input_schema.clone())
                .unwrap_or_default();
            let text = arguments::message(&tool, &schema, arguments.as_ref(), reason);
            logging::call_failed(
                telemetry,
                Level::INFO,
                &tool,
                Outcome::Invalid,
                elapsed(),
                None,
                None,
            );
            Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into())
        }
        // A protocol error from inside a tool call (a failed extractor, a
        // result that did not serialize, a tool that skipped the boundary)
        // means what its code means when a body raises it with `?`: invalid
        // params is the model's to fix, the rest a fault. Only an unknown
        // tool, a missing capability and `ToolError::protocol` stay
        // JSON-RPC errors.
        Ok(Err(error)) if !(passes_through(&error) || report.is_some_and(|r| r.protocol)) => {
            end_as(telemetry, &tool, ToolError::from(error), elapsed())
        }
        // The panic escaped the boundary: the tool is not wrapped, or rmcp's
        // own code around the body panicked.
        Err(payload) => end_as(telemetry, &tool, caught_panic(&tool, payload), elapsed()),
        Ok(answer) => {
            logging::call_ended(telemetry, &tool, &answer, report, elapsed());
            answer
        }
    })
}

/// Ends a call as `error` says, after the call's scope has closed: a fault
/// logged once, the call logged at the error's level, its message sent with
/// the fallback step naming the tool.
fn end_as(
    telemetry: &Telemetry,
    tool: &str,
    mut error: ToolError,
    duration_ms: f64,
) -> Result<CallToolResponse, ErrorData> {
    error.log_fault_once(tool);
    if let Some(data) = error.protocol_error() {
        logging::call_protocol(telemetry, tool, data.code.0, duration_ms);
        return Err(data.clone());
    }
    let (level, outcome) = (error.level(), error.outcome());
    logging::call_failed(
        telemetry,
        level,
        tool,
        outcome,
        duration_ms,
        error.error_type(),
        None,
    );
    let text = error.into_message(tool);
    Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into())
}

/// The session a request belongs to, by its client's `initialize`
/// parameters; `None` for a request of the stateless lifecycle (protocol
/// 2026-07-28), which carries its protocol version in its own `_meta`: rmcp
/// makes fresh client parameters for each such request, so they stand for
/// no session, and a job it starts must be readable from the next request.
fn session_of(
    context: &RequestContext<RoleServer>,
) -> Option<std::sync::Arc<rmcp::model::InitializeRequestParams>> {
    const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    if context.meta.0.0.contains_key(PROTOCOL_VERSION) {
        return None;
    }
    context.peer.peer_info()
}

/// rmcp's JSON-RPC errors that stay JSON-RPC errors: an unknown tool and a
/// missing client capability.
pub(crate) fn passes_through(error: &ErrorData) -> bool {
    error.code == ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
        || (error.code == ErrorCode::INVALID_PARAMS && error.message == "tool not found")
}

/// rmcp's error for arguments that do not deserialize, before its router
/// turns it into an `isError` result.
pub(crate) fn is_rmcp_argument_error(error: &ErrorData) -> bool {
    error.code == ErrorCode::INVALID_PARAMS && error.message.starts_with(ARGUMENT_ERROR_PREFIX)
}

/// The answer stashed for `error`, if it stands in for a `ToolError`.
pub(crate) fn take_stashed(error: &ErrorData) -> Option<CallToolResponse> {
    CALL.try_with(|call| match call.stashed.take().map(|stashed| *stashed) {
        Some((response, stand_in)) if stand_in == *error => Some(response),
        other => {
            call.stashed.set(other.map(Box::new));
            None
        }
    })
    .ok()
    .flatten()
}

/// serde's reason in rmcp's answer to arguments that do not deserialize.
fn argument_error(result: &CallToolResult) -> Option<&str> {
    match result.content.as_slice() {
        [only] => only
            .as_text()
            .and_then(|text| text.text.strip_prefix(ARGUMENT_ERROR_PREFIX))
            .map(str::trim),
        _ => None,
    }
}
