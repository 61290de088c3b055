//! Tools that are not `#[tool]` methods: routes added by hand
//! (`ToolRouter::with_route`, `ToolRoute::new_dyn`) and rmcp's trait-based
//! tools (`with_sync_tool`, `with_async_tool`).
//!
//! [`wrap_router`] and [`wrap_route`] put such routes inside the boundary: a
//! panic becomes outcome 4, a `ToolError` keeps its outcome, a protocol
//! error from inside the call ends as its code says (invalid params is
//! outcome 2, a missing client capability passes through, any other code is
//! a fault), and a fault is logged once.
//! `testing::assert_wrapped` (feature `testing`) fails for a
//! route that is not.

use std::collections::HashMap;
use std::sync::{Arc, Weak};

use rmcp::ErrorData;
use rmcp::handler::server::router::tool::IntoToolRoute;
use rmcp::handler::server::tool::{
    AsyncAdapter, AsyncMethodAdapter, DynCallToolHandler, SyncAdapter, SyncMethodAdapter,
    ToolCallContext, ToolRoute, ToolRouter,
};
use rmcp::model::CallToolResponse;
use rmcp::service::MaybeSend;

use outcome_schema::Contract;

use crate::answer::error::ToolError;
use crate::base::bounds::{Bounded, ToolName};
use crate::base::panics::{CatchPanic, catch};
use crate::call::ending;

/// What a route's handler returns: rmcp's `MaybeBoxFuture`, which it does not
/// export.
#[cfg(not(feature = "local"))]
pub(crate) type RouteFuture<'a> = std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<CallToolResponse, ErrorData>> + Send + 'a>,
>;
#[cfg(feature = "local")]
pub(crate) type RouteFuture<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<CallToolResponse, ErrorData>> + 'a>>;

/// Puts every route of `router` inside the boundary, disabled routes
/// included; routes already inside are left as they are.
///
/// ```
/// use std::borrow::Cow;
/// use outcome_runtime::{ToolError, handler::wrap_router};
/// use rmcp::handler::server::router::tool::{SyncTool, ToolBase, ToolRouter};
/// use rmcp::schemars;
///
/// struct Server;
/// struct Add;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema, Default)]
/// struct Numbers { left: u32, right: u32 }
///
/// impl ToolBase for Add {
///     type Parameter = Numbers;
///     type Output = u32;
///     type Error = ToolError;
///     fn name() -> Cow<'static, str> { "add".into() }
///     fn description() -> Option<Cow<'static, str>> { Some("Add two numbers.".into()) }
/// }
///
/// impl SyncTool<Server> for Add {
///     fn invoke(_: &Server, Numbers { left, right }: Numbers) -> Result<u32, ToolError> {
///         left.checked_add(right).ok_or_else(|| {
///             ToolError::invalid("The sum is past 4294967295", "Call add with smaller numbers")
///         })
///     }
/// }
///
/// let router = wrap_router(ToolRouter::<Server>::new().with_sync_tool::<Add>());
/// # #[cfg(feature = "testing")]
/// outcome_runtime::testing::assert_wrapped(&router);
/// ```
pub fn wrap_router<S: MaybeSend + 'static>(mut router: ToolRouter<S>) -> ToolRouter<S> {
    for route in router.map.values_mut() {
        wrap_in_place(route);
    }
    router
}

/// Puts one route inside the boundary; see [`wrap_router`].
pub fn wrap_route<S: MaybeSend + 'static>(mut route: ToolRoute<S>) -> ToolRoute<S> {
    wrap_in_place(&mut route);
    route
}

fn wrap_in_place<S: MaybeSend + 'static>(route: &mut ToolRoute<S>) {
    if is_wrapped(&route.call) {
        return;
    }
    let unchecked = flags_of(&route.call).unchecked;
    let inner = route.call.clone();
    let tool = Arc::new(ToolName::new(route.attr.name.clone()));
    let contract = Some(crate::answer::arguments::contract(&route.attr.input_schema))
        .filter(|contract| contract.narrows() && !unchecked);
    let output = output_contract(route);
    let call: Arc<DynCallToolHandler<S>> =
        Arc::new(move |context: ToolCallContext<'_, S>| -> RouteFuture<'_> {
            if let Some(contract) = &contract
                && let Err(text) = contract.check(&tool, context.arguments.as_ref())
            {
                let answer = crate::call::fault::answer(ToolError::invalid_text(text), None);
                return Box::pin(std::future::ready(answer));
            }
            // The route may panic before it returns its future: a sync
            // trait tool runs its whole body there.
            let started = catch(|| inner(context));
            let tool = tool.clone();
            let output = output.clone();
            Box::pin(async move {
                let ended = match started {
                    Ok(future) => CatchPanic::new(future).await,
                    Err(payload) => Err(payload),
                };
                let answer = ending::route_answer(&tool.logged(), ended);
                match &output {
                    Some(output) => kept_to(answer, output, &tool.logged()),
                    None => answer,
                }
            })
        });
    register(&call, Flags::INSIDE);
    route.call = call;
}

/// Whether a handler still exists. `Send`, as the registry is shared,
/// except under `local`, whose handlers are not and whose registry is per
/// thread.
#[cfg(not(feature = "local"))]
type Alive = Box<dyn Fn() -> bool + Send>;
#[cfg(feature = "local")]
type Alive = Box<dyn Fn() -> bool>;

/// What the registry knows of a route handler.
struct Entry {
    alive: Alive,
    /// Whether the handler runs its body whole when it is called, and
    /// returns a future that is ready at its first poll.
    runs_whole: bool,
    /// Whether its author turned the check of the input schema off.
    unchecked: bool,
    /// Whether the handler is inside the boundary.
    inside: bool,
}

/// What is recorded of a handler.
#[derive(Clone, Copy)]
struct Flags {
    inside: bool,
    runs_whole: bool,
    unchecked: bool,
}

impl Flags {
    /// A handler the registry knows nothing of.
    const NONE: Flags = Flags {
        inside: false,
        runs_whole: false,
        unchecked: false,
    };

    /// A handler inside the boundary, and nothing else known of it.
    const INSIDE: Flags = Flags {
        inside: true,
        runs_whole: false,
        unchecked: false,
    };
}

/// Whether a route handler still exists: a `Weak` that is only counted,
/// never upgraded.
struct Liveness<S: 'static>(Weak<DynCallToolHandler<S>>);

impl<S: 'static> Liveness<S> {
    fn alive(&self) -> bool {
        self.0.strong_count() > 0
    }
}

/// The routes inside the boundary, by the address of their handler. Each
/// entry keeps a `Weak` to its handler, so the address cannot be reused
/// while the entry exists, and entries of dropped routes are pruned.
#[cfg(not(feature = "local"))]
static WRAPPED: std::sync::Mutex<Option<HashMap<usize, Entry>>> = std::sync::Mutex::new(None);

#[cfg(feature = "local")]
thread_local! {
    static WRAPPED: std::cell::RefCell<Option<HashMap<usize, Entry>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` with the registry.
fn registry<R>(f: impl FnOnce(&mut Option<HashMap<usize, Entry>>) -> R) -> R {
    #[cfg(not(feature = "local"))]
    {
        f(&mut WRAPPED.lock().unwrap_or_else(|e| e.into_inner()))
    }
    #[cfg(feature = "local")]
    {
        WRAPPED.with(|wrapped| f(&mut wrapped.borrow_mut()))
    }
}

fn address<S>(call: &Arc<DynCallToolHandler<S>>) -> usize {
    Arc::as_ptr(call).cast::<()>() as usize
}

/// Records a route handler as inside the boundary.
pub(crate) fn mark<S: 'static>(call: &Arc<DynCallToolHandler<S>>) {
    register(call, Flags::INSIDE);
}

/// Records `flags` for a handler, adding to what is known of a live one:
/// marking it again keeps that it runs whole.
fn register<S: 'static>(call: &Arc<DynCallToolHandler<S>>, flags: Flags) {
    registry(|wrapped| register_in(wrapped.get_or_insert_with(HashMap::new), call, flags));
}

fn register_in<S: 'static>(
    wrapped: &mut HashMap<usize, Entry>,
    call: &Arc<DynCallToolHandler<S>>,
    flags: Flags,
) {
    if wrapped.len() >= 64 && wrapped.len().is_power_of_two() {
        wrapped.retain(|_, entry| (entry.alive)());
    }
    match wrapped.get_mut(&address(call)) {
        Some(entry) if (entry.alive)() => {
            entry.inside |= flags.inside;
            entry.runs_whole |= flags.runs_whole;
            entry.unchecked |= flags.unchecked;
        }
        // A new handler, or one at the address of a handler that is gone.
        _ => {
            let liveness = Liveness(Arc::downgrade(call));
            let entry = Entry {
                alive: Box::new(move || liveness.alive()),
                inside: flags.inside,
                runs_whole: flags.runs_whole,
                unchecked: flags.unchecked,
            };
            wrapped.insert(address(call), entry);
        }
    }
}

/// What the registry knows of a live handler; nothing set for one it does
/// not know.
fn flags_of<S: 'static>(call: &Arc<DynCallToolHandler<S>>) -> Flags {
    registry(|wrapped| {
        wrapped
            .as_ref()
            .and_then(|wrapped| wrapped.get(&address(call)))
            .filter(|entry| (entry.alive)())
            .map_or(Flags::NONE, |entry| Flags {
                inside: entry.inside,
                runs_whole: entry.runs_whole,
                unchecked: entry.unchecked,
            })
    })
}

/// Marks every route of a router that `#[tool_router]` built from `#[tool]`
/// methods, whose bodies are already inside the boundary, and puts the
/// check of its published input schema in front of each (unless its
/// author turned it off with `unchecked_input`).
pub fn mark_router<S: MaybeSend + 'static>(mut router: ToolRouter<S>) -> ToolRouter<S> {
    for route in router.map.values_mut() {
        let flags = Flags {
            inside: true,
            ..flags_of(&route.call)
        };
        if !flags.unchecked {
            check_before(route);
        }
        check_after(route);
        register(&route.call, flags);
    }
    router
}

/// Puts the check of its published input schema in front of `route`'s
/// handler, if the schema narrows anything: a call outside it is answered
/// as outcome 2, and the handler is never called.
fn check_before<S: MaybeSend + 'static>(route: &mut ToolRoute<S>) {
    let contract = crate::answer::arguments::contract(&route.attr.input_schema);
    if !contract.narrows() {
        return;
    }
    let inner = route.call.clone();
    let tool: Arc<str> = Arc::from(&*route.attr.name);
    route.call = Arc::new(move |context: ToolCallContext<'_, S>| -> RouteFuture<'_> {
        match contract.check(&tool, context.arguments.as_ref()) {
            Ok(()) => inner(context),
            Err(text) => {
                let answer = crate::call::fault::answer(ToolError::invalid_text(text), None);
                Box::pin(std::future::ready(answer))
            }
        }
    });
}

/// The contract of `route`'s output schema, if it narrows anything the
/// result's type does not already guarantee: only then is a result
/// checked against it.
fn output_contract<S>(route: &ToolRoute<S>) -> Option<Arc<Contract>> {
    let schema = route.attr.output_schema.as_ref()?;
    Some(crate::answer::arguments::contract(schema)).filter(|contract| contract.narrows())
}

/// Checks each result of `route` against its output schema, if that
/// narrows anything: a result outside it is the server's fault, never
/// the contract met.
fn check_after<S: MaybeSend + 'static>(route: &mut ToolRoute<S>) {
    let Some(output) = output_contract(route) else {
        return;
    };
    let inner = route.call.clone();
    let tool = Arc::new(ToolName::new(route.attr.name.clone()));
    route.call = Arc::new(move |context: ToolCallContext<'_, S>| -> RouteFuture<'_> {
        let answered = inner(context);
        let output = output.clone();
        let tool = tool.clone();
        Box::pin(async move { kept_to(answered.await, &output, &tool.logged()) })
    });
}

/// `answer`, or the fault of a result whose `structuredContent` is outside
/// the tool's output schema: the MCP specification makes a server promise
/// that every result keeps to it. The reason goes to the operator's
/// `tool_failed` record at ERROR; the model reads the fixed fault message.
fn kept_to(
    answer: Result<CallToolResponse, ErrorData>,
    output: &Contract,
    tool: &Bounded<'_>,
) -> Result<CallToolResponse, ErrorData> {
    let Ok(CallToolResponse::Complete(result)) = &answer else {
        return answer;
    };
    let Some(value) = result.structured_content.as_ref() else {
        return answer;
    };
    if result.is_error == Some(true) {
        return answer;
    }
    match output.verify(value) {
        Ok(()) => answer,
        Err(reason) => {
            let fault = ToolError::from(ResultOutsideSchema(reason));
            crate::call::fault::answer(fault, Some(tool))
        }
    }
}

/// A result whose `structuredContent` breaks the tool's output schema: the
/// server's fault, logged with where and how.
#[derive(Debug)]
pub(crate) struct ResultOutsideSchema(String);

impl std::fmt::Display for ResultOutsideSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the result's structuredContent is outside the tool's output schema: {}",
            self.0
        )
    }
}

impl std::error::Error for ResultOutsideSchema {}

/// Turns off the check of `route`'s published input schema before its
/// handler, for a tool that checks its arguments itself, with words better
/// than the schema's; `reason` says why, for the reader of the code.
///
/// `#[tool(unchecked_input = "reason")]` does this for a `#[tool]` method.
/// Leave the check on unless the tool's own words are better: without it,
/// a value outside the schema reaches the body, and the model reads
/// whatever the body makes of it.
///
/// ```
/// use outcome_runtime::{ToolError, handler::unchecked_input, handler::wrap_router};
/// use rmcp::handler::server::tool::{ToolRoute, ToolRouter};
/// use rmcp::model::Tool;
/// use std::sync::Arc;
///
/// struct Server;
/// let schema = serde_json::json!({
///     "type": "object",
///     "properties": { "when": { "type": "string", "format": "date" } }
/// });
/// let tool = Tool::new("plan", "Plan a day.", Arc::new(schema.as_object().unwrap().clone()));
/// let route = ToolRoute::<Server>::new_dyn(tool, |_| {
///     Box::pin(async { Ok(rmcp::model::CallToolResult::success(vec![]).into()) })
/// });
/// let reason = "plan reads 'today' and 'tomorrow' as dates, which the format does not";
/// let router = wrap_router(ToolRouter::new().with_route(unchecked_input(route, reason)));
/// # let _ = router;
/// ```
pub fn unchecked_input<S: 'static>(route: ToolRoute<S>, reason: &'static str) -> ToolRoute<S> {
    let _ = reason;
    registry(|wrapped| {
        let wrapped = wrapped.get_or_insert_with(HashMap::new);
        let flags = Flags {
            unchecked: true,
            ..Flags::NONE
        };
        register_in(wrapped, &route.call, flags);
    });
    route
}

/// [`unchecked_input`] for the route of a `#[tool]` method whose
/// attribute says `unchecked_input = ".."`.
pub fn unchecked_route<S, A, R>(route: R, reason: &'static str) -> ToolRoute<S>
where
    S: MaybeSend + 'static,
    R: IntoToolRoute<S, A>,
{
    unchecked_input(route.into_tool_route(), reason)
}

/// Which of rmcp's ways to call a tool method runs the method whole when
/// the route is called: the two for methods that are not `async`, whose
/// future rmcp makes ready with the method's answer.
pub trait Adapter {
    /// Whether the route runs the method whole when it is called.
    const RUNS_WHOLE: bool;
}

impl<P, R> Adapter for SyncMethodAdapter<P, R> {
    const RUNS_WHOLE: bool = true;
}

impl<P, R> Adapter for SyncAdapter<P, R> {
    const RUNS_WHOLE: bool = true;
}

impl<P, R> Adapter for AsyncMethodAdapter<P, R> {
    const RUNS_WHOLE: bool = false;
}

impl<P, F, R> Adapter for AsyncAdapter<P, F, R> {
    const RUNS_WHOLE: bool = false;
}

/// The route of a `#[tool]` method that is not `async`, recorded as one
/// whose body never waits when rmcp runs it as such (which the types say),
/// so that the request log sets up no wait for a cancel for its calls.
pub fn whole_route<S, A, R>(route: R) -> ToolRoute<S>
where
    S: MaybeSend + 'static,
    A: Adapter,
    R: IntoToolRoute<S, A>,
{
    let route = route.into_tool_route();
    let flags = Flags {
        runs_whole: A::RUNS_WHOLE,
        ..Flags::INSIDE
    };
    register(&route.call, flags);
    route
}

/// A router built once, with the addresses of its handlers that run their
/// body whole when they are called: the router that `#[tool_handler]`
/// keeps in a static.
pub struct Routes<S> {
    router: ToolRouter<S>,
    /// Sorted.
    runs_whole: Box<[usize]>,
    /// Whether the router has no tool disabled: it can't change, as
    /// nothing can reach the router to change it.
    none_disabled: bool,
}

/// What a router built once tells a call of its routes, beyond what rmcp's
/// router does; nothing, for any other router.
#[derive(Clone, Copy, Default)]
pub(crate) struct RouterFacts<'a> {
    /// The addresses of the handlers that run their body whole, sorted.
    pub(crate) runs_whole: &'a [usize],
    /// Whether no tool of the router is disabled, so that a tool is found
    /// by its name alone.
    pub(crate) none_disabled: bool,
}

impl<S: 'static> Routes<S> {
    /// Keeps `router`, with what the registry knows of its handlers.
    pub fn new(router: ToolRouter<S>) -> Self
    where
        S: MaybeSend,
    {
        let mut runs_whole: Vec<usize> = registry(|wrapped| {
            router
                .map
                .values()
                .map(|route| address(&route.call))
                .filter(|address| {
                    wrapped
                        .as_ref()
                        .and_then(|wrapped| wrapped.get(address))
                        .is_some_and(|entry| entry.runs_whole && (entry.alive)())
                })
                .collect()
        });
        runs_whole.sort_unstable();
        let none_disabled = router.map.keys().all(|name| router.get(name).is_some());
        Routes {
            router,
            runs_whole: runs_whole.into_boxed_slice(),
            none_disabled,
        }
    }

    /// The router.
    pub fn tools(&self) -> &ToolRouter<S> {
        &self.router
    }

    /// What the router tells a call of its routes.
    pub(crate) fn facts(&self) -> RouterFacts<'_> {
        RouterFacts {
            runs_whole: &self.runs_whole,
            none_disabled: self.none_disabled,
        }
    }
}

/// Whether `route`'s handler is among `runs_whole` (sorted addresses).
#[inline]
pub(crate) fn runs_whole<S>(runs_whole: &[usize], route: &ToolRoute<S>) -> bool {
    !runs_whole.is_empty() && runs_whole.binary_search(&address(&route.call)).is_ok()
}

/// Whether a route handler is inside the boundary.
pub(crate) fn is_wrapped<S: 'static>(call: &Arc<DynCallToolHandler<S>>) -> bool {
    flags_of(call).inside
}

#[cfg(test)]
mod tests;
