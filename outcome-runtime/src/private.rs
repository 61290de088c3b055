//! What the macros' expansions call, and nothing else: the one module
//! whose items generated code names, by absolute path. Not public API.

pub use crate::boundary::{ToolErrorType, ToolReturn, assert_send};
pub use crate::listing::{list_tools, server_info};
pub use crate::malformed::custom_request;
pub use crate::request::{call_routes, call_tool};
pub use crate::routes::{Routes, mark_router, unchecked_route, whole_route};

use std::future::{Future as _, IntoFuture, Pending};
use std::marker::PhantomData;
use std::ops::Deref;
use std::pin::Pin;
use std::task::{Context, Poll};

/// The boundary of a sync body (`boundary::sync_boundary`), for the
/// expansion. The body reaches the boundary as a `dyn SyncBody`, so that
/// the boundary's code is compiled once for each return type, not once
/// for each tool: each tool compiles only this call and `SyncBody::run`.
#[inline(always)]
pub fn sync_boundary<R, F>(tool: &'static str, body: F) -> R
where
    R: ToolReturn,
    F: FnOnce() -> R,
{
    run_in_boundary(tool, &mut Some(body))
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

/// Runs the body in the runtime's sync boundary, once for each return type.
fn run_in_boundary<R: ToolReturn>(tool: &'static str, body: &mut dyn SyncBody<R>) -> R {
    crate::boundary::sync_boundary(tool, || match body.run() {
        Some(result) => result,
        // Only `sync_boundary` above runs a body, and once.
        None => unreachable!("a tool body runs once"),
    })
}

/// The boundary of an async body (`async_boundary`), for the
/// expansion. Its future is opaque, so where it is used (`.await`)
/// rustc checks this function's own bound
/// `R: ToolReturn` again, and a failure there, given the call's span by
/// the expansion, is the same error as the call's and shown once;
/// through the future's own `Future` impl it would be a second one.
#[inline(always)]
pub fn async_tool_boundary<R, F>(
    tool: &'static str,
    body: F,
) -> impl ::core::future::Future<Output = R>
where
    R: ToolReturn,
    F: ::core::future::Future<Output = R>,
{
    crate::scope::body_started();
    AsyncToolBody { tool, body }
}

pin_project_lite::pin_project! {
    /// An async tool body inside the boundary: each poll goes through
    /// [`poll_in_boundary`], so that of the boundary's code only this
    /// forwarding is compiled for each tool.
    struct AsyncToolBody<F> {
        tool: &'static str,
        #[pin]
        body: F,
    }
}

impl<F> ::core::future::Future for AsyncToolBody<F>
where
    F: ::core::future::Future,
    F::Output: ToolReturn,
{
    type Output = F::Output;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        poll_in_boundary(this.tool, this.body, cx)
    }
}

/// One poll of a tool body in the runtime's async boundary (which notes
/// again that the body started: it has). The body is a `dyn Future`, so
/// the boundary's code (its guard against panics, its handling of the
/// result) is compiled once for each return type, not once for each tool,
/// and a crate of many tools compiles about as much as under rmcp's own
/// `#[tool]`. The dynamic call costs a few nanoseconds a poll.
fn poll_in_boundary<R: ToolReturn>(
    tool: &'static str,
    body: Pin<&mut (dyn ::core::future::Future<Output = R> + '_)>,
    cx: &mut Context<'_>,
) -> Poll<R> {
    Pin::new(&mut crate::boundary::async_boundary(tool, body)).poll(cx)
}

/// A future whose output becomes the tool's answer (an async body's tail,
/// or a `return`), held to be checked against the declared return type
/// `R` by method resolution: its own `__outcome_checked` when the output is
/// `R` (or not yet known, which this then makes `R`), else, through
/// [`Deref`], [`NotAnswer`]'s, whose bound fails with a message that names
/// both types and says the fix, which rustc gives only for a value that is
/// not awaited. Both are inherent, so the expansion imports nothing.
///
/// A bound on the value itself (`T: Same<R>`) would say the same, but
/// would not pass `R` on to a value whose type is only known from it,
/// such as `std::future::pending().await`.
pub struct Answer<F, R> {
    future: F,
    not: NotAnswer<F, R>,
}

/// What an [`Answer`] whose output is not `R` resolves its check to.
pub struct NotAnswer<F, R>(PhantomData<Types<F, R>>);

/// `F` and `R` named only: a [`NotAnswer`] holds neither, so it is `Send`
/// and `Sync` whatever they are.
type Types<F, R> = (fn() -> F, fn() -> R);

/// Holds `future` to be checked against `R`; see [`Answer`].
#[inline(always)]
pub fn answer<R, F>(future: F) -> Answer<F, R> {
    Answer {
        future,
        not: NotAnswer(PhantomData),
    }
}

impl<F: IntoFuture<Output = R>, R> Answer<F, R> {
    /// The future, unchanged: its output is the declared return type.
    #[inline(always)]
    pub fn __outcome_checked(self) -> F {
        self.future
    }
}

impl<F, R> Deref for Answer<F, R> {
    type Target = NotAnswer<F, R>;

    fn deref(&self) -> &NotAnswer<F, R> {
        &self.not
    }
}

impl<F, R> NotAnswer<F, R> {
    /// Never callable: chosen only when `F`'s output is not `R`, so one
    /// of its bounds fails, the first with rustc's "is not a future" and
    /// the second with the fix. Awaits as `R`, so that no second error
    /// follows.
    pub fn __outcome_checked(&self) -> Pending<R>
    where
        F: IntoFuture,
        F: AwaitsAnswer<R>,
    {
        std::future::pending()
    }
}

/// A future whose output is `R`: the bound that fails, with the fix, when
/// an async body's answer awaits another type.
#[diagnostic::on_unimplemented(
    message = "the body awaits `{Self}` as its answer, but the tool returns `{R}`",
    label = "its output is not the tool's return type",
    note = "when the output is a helper's `Result` whose error converts into the tool's (rmcp's `McpError` into `ToolError`), write `Ok(helper(..).await?)`"
)]
pub trait AwaitsAnswer<R> {}

// Not shown in the error: the message above says it in the user's terms.
#[diagnostic::do_not_recommend]
impl<F: IntoFuture<Output = R>, R> AwaitsAnswer<R> for F {}

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
/// The mark `#[tool_router]` puts after each tool attribute once it has
/// checked the tool's texts: `#[tool]` removes it and checks them no more;
/// after rmcp's `#[tool]` it expands to the method unchanged.
pub use outcome_macros::__texts_checked;
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
