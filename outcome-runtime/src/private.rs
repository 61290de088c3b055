//! What the macros' expansions call, and nothing else: the one module
//! whose items generated code names, by absolute path. Not public API.

pub use crate::boundary::{ToolErrorType, ToolReturn, assert_send, sync_boundary};
pub use crate::listing::{list_tools, server_info};
pub use crate::malformed::custom_request;
pub use crate::request::{call_routes, call_tool};
pub use crate::routes::{Routes, mark_router, whole_route};

/// The boundary of an async body (`async_boundary`), for the
/// expansion. Its future is opaque, so where it is used (`.await`)
/// rustc checks this function's own bound
/// `R: ToolReturn` again, and a failure there, given the call's span by
/// the expansion, is the same error as the call's and shown once;
/// through `AsyncBoundary`'s `Future` impl it would be a second one.
#[inline(always)]
pub fn async_tool_boundary<R, F>(
    tool: &'static str,
    body: F,
) -> impl ::core::future::Future<Output = R>
where
    R: ToolReturn,
    F: ::core::future::Future<Output = R>,
{
    crate::boundary::async_boundary(tool, body)
}

/// The tail of an async body that awaits something, checked against the
/// tool's declared return type `R`: a helper's `Result<_, McpError>` there
/// is reported with the fix, which rustc gives for a sync body only.
#[inline(always)]
pub fn awaited_tail<R>(tail: impl AwaitedTail<R>) -> R {
    tail.into_return()
}

/// Implemented by the declared return type alone, so a tail of another
/// type fails here, with a message that names both and says the fix.
#[diagnostic::on_unimplemented(
    message = "the body ends in `{Self}`, but the tool returns `{R}`",
    label = "the body's tail",
    note = "when the tail is a helper's `Result` whose error converts into the tool's (rmcp's `McpError` into `ToolError`), end the body in `Ok(helper(..).await?)`"
)]
pub trait AwaitedTail<R> {
    /// `self`.
    fn into_return(self) -> R;
}
impl<R> AwaitedTail<R> for R {
    #[inline(always)]
    fn into_return(self) -> R {
        self
    }
}

/// Names a type through a projection, so that the expansion can give
/// the boundary's type argument a span of its choosing (the error type
/// of `Result<T, E>`) while the type stays the user's, alias and all.
pub trait Identity {
    /// `Self`.
    type This: ?Sized;
}
impl<T: ?Sized> Identity for T {
    type This = T;
}

/// The router check's markers: which methods are tools, and which of
/// those `#[tool]` wrapped.
pub struct IsWrapped;
#[allow(missing_docs)]
pub struct NotWrapped;
#[allow(missing_docs)]
pub struct NotATool;
pub use rmcp;
pub use std::sync::OnceLock;

/// A tool's input schema, from its `Parameters<T>`; panics when the
/// router is built if the schema is not an object, which rmcp cannot
/// send as a tool's input.
pub fn input_schema<T: rmcp::schemars::JsonSchema + 'static>()
-> std::sync::Arc<rmcp::model::JsonObject> {
    rmcp::handler::server::common::schema_for_input::<T>().unwrap_or_else(|problem| {
        panic!(
            "the input schema of `{}` is not a JSON object, as a tool's input \
             must be: {problem}",
            std::any::type_name::<T>()
        )
    })
}
