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

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::handler::server::tool::{DynCallToolHandler, ToolCallContext, ToolRoute, ToolRouter};
use rmcp::model::CallToolResponse;
use rmcp::service::MaybeSend;

use crate::boundary::{CatchPanic, catch, caught_panic};

/// What a route's handler returns: rmcp's `MaybeBoxFuture`, which it does not
/// export.
#[cfg(not(feature = "local"))]
pub(crate) type RouteFuture<'a> = std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<CallToolResponse, ErrorData>> + Send + 'a>,
>;
#[cfg(feature = "local")]
pub(crate) type RouteFuture<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<CallToolResponse, ErrorData>> + 'a>>;
use crate::error::ToolError;
use crate::handler;

/// Puts every route of `router` inside the boundary, disabled routes
/// included; routes already inside are left as they are.
///
/// ```
/// use std::borrow::Cow;
/// use outcome_runtime::{ToolError, wrap_router};
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
    let inner = route.call.clone();
    let tool: Arc<str> = Arc::from(&*route.attr.name);
    let call: Arc<DynCallToolHandler<S>> =
        Arc::new(move |context: ToolCallContext<'_, S>| -> RouteFuture<'_> {
            // The route may panic before it returns its future: a sync
            // trait tool runs its whole body there.
            let started = catch(|| inner(context));
            let tool = tool.clone();
            Box::pin(async move {
                let ended = match started {
                    Ok(future) => CatchPanic::new(future).await,
                    Err(payload) => Err(payload),
                };
                // The route parses its arguments and runs its body in one:
                // only its refusal of the arguments says the body never ran.
                if !matches!(&ended, Ok(Err(error)) if handler::is_rmcp_argument_error(error)) {
                    crate::call::body_started();
                }
                end(&tool, ended)
            })
        });
    mark(&call);
    route.call = call;
}

/// How a wrapped route's call ends.
fn end(
    tool: &str,
    ended: Result<Result<CallToolResponse, ErrorData>, Box<dyn Any + Send>>,
) -> Result<CallToolResponse, ErrorData> {
    match ended {
        Ok(Ok(response)) => Ok(response),
        // rmcp's own errors around the body: arguments that do not
        // deserialize, and the ones that stay JSON-RPC errors.
        Ok(Err(error))
            if handler::is_rmcp_argument_error(&error) || handler::passes_through(&error) =>
        {
            Err(error)
        }
        Ok(Err(error)) => match handler::take_stashed(&error) {
            Some(response) => Ok(response),
            None => ToolError::from(error).into_call_tool_result(),
        },
        Err(payload) => caught_panic(tool, payload).into_call_tool_result(),
    }
}

type Alive = Box<dyn Fn() -> bool + Send>;

/// Whether a route handler still exists: a `Weak` that is only counted,
/// never upgraded, so that it may live in the registry whatever the
/// handler is (under rmcp's `local` feature, neither `Send` nor `Sync`).
struct Liveness<S: 'static>(Weak<DynCallToolHandler<S>>);

// Without `local` every handler is `Send` and `Sync`, and so is its `Weak`.
// SAFETY: the `Weak` is never upgraded, so the handler is never reached
// through it. What is done with it from any thread is reading its strong
// count and dropping it, which frees the allocation once the last `Weak`
// is gone; both go through the counts, which are atomic for an `Arc`
// whatever the handler, and neither touches the handler itself: its
// destructor runs where the last `Arc` is dropped, before the strong
// references give up the allocation.
#[cfg(feature = "local")]
unsafe impl<S: 'static> Send for Liveness<S> {}

impl<S: 'static> Liveness<S> {
    fn alive(&self) -> bool {
        self.0.strong_count() > 0
    }
}

/// The routes inside the boundary, by the address of their handler. Each
/// entry keeps a `Weak` to its handler, so the address cannot be reused
/// while the entry exists, and entries of dropped routes are pruned.
static WRAPPED: Mutex<Option<HashMap<usize, Alive>>> = Mutex::new(None);

fn address<S>(call: &Arc<DynCallToolHandler<S>>) -> usize {
    Arc::as_ptr(call).cast::<()>() as usize
}

/// Records a route handler as inside the boundary.
pub(crate) fn mark<S: 'static>(call: &Arc<DynCallToolHandler<S>>) {
    let liveness = Liveness(Arc::downgrade(call));
    let mut wrapped = WRAPPED.lock().unwrap_or_else(|e| e.into_inner());
    let wrapped = wrapped.get_or_insert_with(HashMap::new);
    if wrapped.len() >= 64 && wrapped.len().is_power_of_two() {
        wrapped.retain(|_, alive| alive());
    }
    wrapped.insert(address(call), Box::new(move || liveness.alive()));
}

/// Marks every route of a router that `#[tool_router]` built from `#[tool]`
/// methods, whose bodies are already inside the boundary.
pub fn mark_router<S: 'static>(router: ToolRouter<S>) -> ToolRouter<S> {
    for route in router.map.values() {
        mark(&route.call);
    }
    router
}

/// Whether a route handler is inside the boundary.
pub(crate) fn is_wrapped<S>(call: &Arc<DynCallToolHandler<S>>) -> bool {
    let wrapped = WRAPPED.lock().unwrap_or_else(|e| e.into_inner());
    wrapped
        .as_ref()
        .and_then(|wrapped| wrapped.get(&address(call)))
        .is_some_and(|alive| alive())
}
