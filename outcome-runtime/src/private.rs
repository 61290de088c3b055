//! What the macros' expansions call, and nothing else: the one module
//! whose items generated code names, by absolute path. Not public API.

pub use crate::boundary::{ToolErrorType, ToolReturn, assert_send, async_boundary, sync_boundary};
pub use crate::call::listing::{list_tools, server_info};
pub use crate::call::malformed::custom_request;
pub use crate::call::request::{call_routes, call_tool};
pub use crate::call::routes::{Routes, mark_router, unchecked_route, whole_route};

use std::future::{IntoFuture, Pending};
use std::marker::PhantomData;
use std::ops::Deref;

/// A future whose output becomes the tool's answer (an async body's tail,
/// or a `return`), held to be checked against the declared return type
/// `R` by method resolution: its own `__outcome_checked` when the output is
/// `R` (or not yet known, which this then makes `R`), else, through
/// [`Deref`], [`WrongTail`]'s, whose bound fails with a message that names
/// both types and says the fix, which rustc gives only for a value that is
/// not awaited. Both are inherent, so the expansion imports nothing.
///
/// A bound on the value itself (`T: Same<R>`) would say the same, but
/// would not pass `R` on to a value whose type is only known from it,
/// such as `std::future::pending().await`.
pub struct TailCheck<F, R> {
    future: F,
    not: WrongTail<F, R>,
}

/// What an [`TailCheck`] whose output is not `R` resolves its check to.
pub struct WrongTail<F, R>(PhantomData<Types<F, R>>);

/// `F` and `R` named only: a [`WrongTail`] holds neither, so it is `Send`
/// and `Sync` whatever they are.
type Types<F, R> = (fn() -> F, fn() -> R);

/// Holds `future` to be checked against `R`; see [`TailCheck`].
#[inline(always)]
pub fn answer<R, F>(future: F) -> TailCheck<F, R> {
    TailCheck {
        future,
        not: WrongTail(PhantomData),
    }
}

impl<F: IntoFuture<Output = R>, R> TailCheck<F, R> {
    /// The future, unchanged: its output is the declared return type.
    #[inline(always)]
    pub fn __outcome_checked(self) -> F {
        self.future
    }
}

impl<F, R> Deref for TailCheck<F, R> {
    type Target = WrongTail<F, R>;

    fn deref(&self) -> &WrongTail<F, R> {
        &self.not
    }
}

impl<F, R> WrongTail<F, R> {
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

/// What `#[tool_handler]`'s static router lives in: a `OnceLock` that
/// is never dropped, as a static never is. Without the `ManuallyDrop`,
/// the compiler would look the `OnceLock`'s drop glue up among the
/// generics every upstream crate shares, again on each rebuild of the
/// server's crate, as it does for no other item there.
pub type RouterCell<S> = std::mem::ManuallyDrop<OnceLock<Routes<S>>>;

/// An empty [`RouterCell`], for the static's initializer.
#[must_use]
pub const fn router_cell<S>() -> RouterCell<S> {
    std::mem::ManuallyDrop::new(OnceLock::new())
}

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
