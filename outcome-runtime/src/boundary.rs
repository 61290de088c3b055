//! The boundary: runs a tool body so that it always ends in an outcome.
//!
//! A `ToolError` passes with its own level; a fault is logged once as
//! `tool_failed`; a panic, whatever its payload, becomes a fault and the
//! server keeps serving. `#[tool]` puts every body in here; the functions are
//! public (through `__private_<version>`) only for the expansion.

use std::any::Any;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::CallToolResponse;

use crate::error::{FaultRecord, ToolError};
use crate::panics::{catch, described, drop_quietly, panic_message, poll_caught, take_site};
use crate::scope::Report;
use crate::{records, scope};

/// What a tool body can return for the boundary to report through:
/// `Result<T, ToolError>`.
#[diagnostic::on_unimplemented(
    message = "a `#[tool]` must return `Result<T, ToolError>`, not `{Self}`",
    label = "the boundary reports every failure through `ToolError`",
    note = "change the return type to `Result<{Self}, outcome_runtime::ToolError>` (or \
            `Result<T, ToolError>` for the value `T` the tool returns) and end the body with `Ok(..)`"
)]
pub trait ToolReturn: Sized {
    /// Passes a result through; logs a fault in an error once.
    fn finish(self, tool: &'static str) -> Self;
    /// The return value for a fault the boundary caught.
    fn from_fault(error: ToolError) -> Self;
}

/// The error type of a tool's `Result`: only [`ToolError`].
///
/// `ToolReturn` is implemented for every `Result<T, E>` with `E` of this
/// trait, rather than for `Result<T, ToolError>` alone, so that a `Result`
/// with another error type fails on `E`, with a message about the error
/// type, and not on the whole `Result`, whose message would tell the user
/// to wrap it in another `Result`. Being a type check, it sees through
/// aliases (`type McpResult<T> = Result<T, McpError>`).
#[diagnostic::on_unimplemented(
    message = "the error type of a `#[tool]` must be `ToolError`, not `{Self}`",
    label = "replace this error type with `outcome_runtime::ToolError`",
    note = "change only the return type: an `McpError` (rmcp's `ErrorData`) passes through \
            `?` or `.into()` and keeps its code's meaning (`invalid_params` asks the model to \
            change the request); so does any other error, as a fault; a `Box<dyn Error>` \
            takes `.map_err(ToolError::from_boxed)?`, and an `Err(String)` is \
            `Err(ToolError::invalid(problem, next_step))`"
)]
pub trait ToolErrorType: Sized {
    /// The error, as the boundary handles it.
    fn into_tool_error(self) -> ToolError;
    /// The error, as the tool returns it.
    fn from_tool_error(error: ToolError) -> Self;
}

impl ToolErrorType for ToolError {
    #[inline(always)]
    fn into_tool_error(self) -> ToolError {
        self
    }

    #[inline(always)]
    fn from_tool_error(error: ToolError) -> Self {
        error
    }
}

impl<T, E: ToolErrorType> ToolReturn for Result<T, E> {
    #[inline(always)]
    fn finish(self, tool: &'static str) -> Self {
        match self {
            Ok(value) => Ok(value),
            Err(error) => Err(E::from_tool_error(fail(error.into_tool_error(), tool))),
        }
    }

    fn from_fault(error: ToolError) -> Self {
        Err(E::from_tool_error(error))
    }
}

#[cold]
#[inline(never)]
fn fail(mut error: ToolError, tool: &'static str) -> ToolError {
    hand_over(&mut error, Some(tool));
    error
}

/// Tells the call in flight how `error` ends it, for its request log, and
/// records the error's fault: the one step between a tool's error and its
/// answer, taken where the error leaves the tool's code (the boundary of
/// a body or a route, a job's end). The fault's record moves out of the
/// error as it is written, so an error that crosses two boundaries (a tool
/// calling another's method) is recorded once; its answer is then made by
/// [`IntoCallToolResult`], which does nothing else.
///
/// The record names `tool`, or else the call's tool (`unknown` outside a
/// call). Only the body of the call's own tool tells the call how it ends:
/// the error of another tool's method that it called (`self.refuse()`) is
/// recorded, but ends the call only if the body returns it, when its own
/// boundary hands it over again; a body that recovers from it ends as it
/// ends. So the success path needs no bookkeeping.
pub(crate) fn hand_over(error: &mut ToolError, tool: Option<&str>) {
    let report = Report {
        outcome: error.outcome(),
        level: error.level(),
        error_type: error.error_type(),
        protocol: error.protocol_error().is_some(),
    };
    let record = error.take_record();
    let in_call = scope::CALL.try_with(|call| {
        if tool.is_none_or(|tool| tool == call.tool) {
            call.report.set(Some(report));
        }
        if let Some(record) = &record {
            write_record(tool.unwrap_or(&call.tool), record);
        }
    });
    if in_call.is_err()
        && let Some(record) = &record
    {
        write_record(tool.unwrap_or("unknown"), record);
    }
}

/// `error` as its answer, once [handed over](hand_over).
pub(crate) fn answer(
    mut error: ToolError,
    tool: Option<&str>,
) -> Result<CallToolResponse, ErrorData> {
    hand_over(&mut error, tool);
    error.into_call_tool_result()
}

/// Records the fault of an error that ends a call outside its scope (the
/// request log's own endings), once.
pub(crate) fn record_fault(error: &mut ToolError, tool: &str) {
    if let Some(record) = error.take_record() {
        write_record(tool, &record);
    }
}

fn write_record(tool: &str, record: &FaultRecord) {
    records::tool_failed(record.level, tool, record.error_type, &record.text);
}

/// Runs a synchronous tool body inside the boundary.
#[inline(always)]
pub fn sync_boundary<R, F>(tool: &'static str, body: F) -> R
where
    R: ToolReturn,
    F: FnOnce() -> R,
{
    scope::body_started();
    match catch(body) {
        Ok(result) => result.finish(tool),
        Err(payload) => R::from_fault(fail(caught_panic(tool, payload), tool)),
    }
}

/// Runs an asynchronous tool body inside the boundary; every poll of the
/// body is guarded, so a panic after an `.await` is caught too.
#[inline(always)]
pub fn async_boundary<R, F>(tool: &'static str, body: F) -> AsyncBoundary<F>
where
    R: ToolReturn,
    F: Future<Output = R>,
{
    scope::body_started();
    AsyncBoundary { tool, body }
}

/// Requires a tool's future to be `Send`, as rmcp's router does, so the
/// compiler reports a body that is not at the user's `async fn`.
#[inline(always)]
pub fn assert_send<F: Future + Send>(future: F) -> F {
    future
}

pin_project_lite::pin_project! {
    /// The future [`async_boundary`] returns.
    #[must_use = "a tool body does nothing unless awaited"]
    pub struct AsyncBoundary<F> {
        tool: &'static str,
        #[pin]
        body: F,
    }
}

impl<F, R> Future for AsyncBoundary<F>
where
    F: Future<Output = R>,
    R: ToolReturn,
{
    type Output = R;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<R> {
        let this = self.project();
        let tool = *this.tool;
        match poll_caught(this.body, cx) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(result)) => Poll::Ready(result.finish(tool)),
            Err(payload) => Poll::Ready(R::from_fault(fail(caught_panic(tool, payload), tool))),
        }
    }
}

/// Logs a caught panic as `tool_failed` and makes the fault the model reads.
#[cold]
#[inline(never)]
pub(crate) fn caught_panic(tool: &str, payload: Box<dyn Any + Send>) -> ToolError {
    let message = panic_message(&*payload);
    let (location, backtrace) = take_site(&message);
    records::panic_failed(tool, &message, location.as_deref(), backtrace.as_deref());
    drop_quietly(payload);
    ToolError::from_panic(described(message, location))
}
