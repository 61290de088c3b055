//! The boundary: runs a tool body so that it always ends in an outcome.
//!
//! A `ToolError` passes with its own level; a fault is logged once as
//! `tool_failed`; a panic, whatever its payload, becomes a fault and the
//! server keeps serving. `#[tool]` puts every body in here; the functions are
//! public (through `__private_<version>`) only for the expansion.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use rmcp::ErrorData;

use crate::answer::error::ToolError;
use crate::base::bounds::Bounded;
use crate::base::panics::{catch, poll_caught};
use crate::call::fault::{caught_panic, record_fault};

/// What a tool body can return for the boundary to report through:
/// `Result<T, ToolError>`, or rmcp's `Result<T, McpError>`.
#[diagnostic::on_unimplemented(
    message = "a `#[tool]` must return `Result<T, ToolError>` or `Result<T, McpError>`, not `{Self}`",
    label = "the boundary reports every failure through the `Result`'s error",
    note = "change the return type to `Result<{Self}, outcome_runtime::ToolError>` (or \
            `Result<T, ToolError>` for the value `T` the tool returns) and end the body with `Ok(..)`"
)]
pub trait ToolReturn: Sized {
    /// Passes a result through; logs a fault in an error once.
    fn finish(self, tool: &'static str) -> Self;
    /// The return value for a fault the boundary caught.
    fn from_fault(error: ToolError) -> Self;
}

/// The error type of a tool's `Result`: [`ToolError`], or rmcp's
/// `ErrorData` (`McpError`), which keeps the meaning its code gives it.
///
/// `ToolReturn` is implemented for every `Result<T, E>` with `E` of this
/// trait, rather than for the two `Result`s alone, so that a `Result`
/// with another error type fails on `E`, with a message about the error
/// type, and not on the whole `Result`, whose message would tell the user
/// to wrap it in another `Result`. Being a type check, it sees through
/// aliases (`type McpResult<T> = Result<T, McpError>`).
///
/// A tool that returns `McpError` keeps every `?` its body has: an error
/// type of the server's that converts into `McpError` (`impl From<MyError>
/// for McpError`) converts as it did, so the code that conversion picks
/// decides the outcome, as the [table](ToolError#rmcps-errordata) says.
/// The boundary reads the error once, inside the call, and hands rmcp the
/// `McpError` of the `ToolError` it made, which the request log answers
/// as that `ToolError`.
#[diagnostic::on_unimplemented(
    message = "the error type of a `#[tool]` must be `ToolError` or `McpError`, not `{Self}`",
    label = "replace this error type with `outcome_runtime::ToolError`",
    note = "an error type of the server's that converts into `McpError` keeps its meaning when \
            the tool returns `Result<T, McpError>`; with `ToolError`, a `Box<dyn Error>` takes \
            `.map_err(ToolError::from_boxed)?`, and an `Err(String)` is \
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

impl ToolErrorType for ErrorData {
    fn into_tool_error(self) -> ToolError {
        ToolError::from(self)
    }

    fn from_tool_error(error: ToolError) -> Self {
        ErrorData::from(error)
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
    record_fault(&mut error, Some(&Bounded::new(tool)));
    error
}

/// The boundary of a sync tool body: what `#[tool]`'s expansion calls.
/// The body reaches the boundary's code as a `dyn SyncBody`, so that code
/// is compiled once for each return type, not once for each tool: each
/// tool compiles only this call and `SyncBody::run`.
#[inline(always)]
pub fn sync_boundary<R, F>(tool: &'static str, body: F) -> R
where
    R: ToolReturn,
    F: FnOnce() -> R,
{
    run_sync(tool, &mut Some(body))
}

/// A sync tool body that has not run yet.
trait SyncBody<R> {
    /// Runs the body, the first time it is called.
    fn run(&mut self) -> Option<R>;
}

impl<R, F: FnOnce() -> R> SyncBody<R> for Option<F> {
    // `map` would compile a closure more for each tool.
    #[allow(clippy::manual_map)]
    #[inline]
    fn run(&mut self) -> Option<R> {
        match self.take() {
            Some(body) => Some(body()),
            None => None,
        }
    }
}

/// Runs a sync body inside the boundary, once for each return type.
fn run_sync<R: ToolReturn>(tool: &'static str, body: &mut dyn SyncBody<R>) -> R {
    let ran = catch(|| match body.run() {
        Some(result) => result,
        // Only `sync_boundary` runs a body, and once.
        None => unreachable!("a tool body runs once"),
    });
    match ran {
        Ok(result) => result.finish(tool),
        Err(payload) => R::from_fault(fail(caught_panic(&Bounded::new(tool), payload), tool)),
    }
}

/// The boundary of an async tool body: what `#[tool]`'s expansion calls.
/// Every poll of the body is guarded, so a panic after an `.await` is
/// caught too. Its future is opaque, so where it is used (`.await`) rustc
/// checks this function's own bound `R: ToolReturn` again, and a failure
/// there, given the call's span by the expansion, is the same error as the
/// call's and shown once; through the future's own `Future` impl it would
/// be a second one.
#[inline(always)]
pub fn async_boundary<R, F>(tool: &'static str, body: F) -> impl Future<Output = R>
where
    R: ToolReturn,
    F: Future<Output = R>,
{
    AsyncBody { tool, body }
}

/// Requires a tool's future to be `Send`, as rmcp's router does, so the
/// compiler reports a body that is not at the user's `async fn`.
#[inline(always)]
pub fn assert_send<F: Future + Send>(future: F) -> F {
    future
}

pin_project_lite::pin_project! {
    /// An async tool body inside the boundary; per tool, only this
    /// forwarding to [`poll_async`] is compiled.
    struct AsyncBody<F> {
        tool: &'static str,
        #[pin]
        body: F,
    }
}

impl<F> Future for AsyncBody<F>
where
    F: Future,
    F::Output: ToolReturn,
{
    type Output = F::Output;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        poll_async(this.tool, this.body, cx)
    }
}

/// One guarded poll of an async body. As a `dyn Future`, the boundary is
/// compiled once per return type, not per tool (about what rmcp's own
/// `#[tool]` compiles), for a few nanoseconds a poll.
fn poll_async<R: ToolReturn>(
    tool: &'static str,
    body: Pin<&mut (dyn Future<Output = R> + '_)>,
    cx: &mut Context<'_>,
) -> Poll<R> {
    match poll_caught(body, cx) {
        Ok(Poll::Pending) => Poll::Pending,
        Ok(Poll::Ready(result)) => Poll::Ready(result.finish(tool)),
        Err(payload) => Poll::Ready(R::from_fault(fail(
            caught_panic(&Bounded::new(tool), payload),
            tool,
        ))),
    }
}
