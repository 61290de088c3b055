//! The future of one `tools/call`: the `call_tool` that
//! `#[outcome_runtime::tool_handler]` generates, as rmcp has no middleware.
//!
//! The first poll opens the call's span and scope and finds its route; each
//! poll runs the body in the scope, under the panic guard, racing the
//! cancel; the poll that sees the body stop ends the call by the table of
//! [`ending`](crate::call::ending).

use std::borrow::Cow;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use rmcp::handler::server::tool::{ToolCallContext, ToolRoute, ToolRouter};
use rmcp::model::{CallToolRequestParams, CallToolResponse};
use rmcp::service::{MaybeSend, RequestContext};
use rmcp::{ErrorData, RoleServer};

use crate::answer::arguments;
use crate::base::bounds::{Bounded, ToolName};
use crate::base::panics::{catch, catch_inline};
use crate::base::report;
use crate::base::scope::{self, CallScope, Session};
use crate::call::cancel::{Cancellation, ClientCancel, TaskCancel};
use crate::call::ending::{self, AnswerSlot, CallOutput, Stopped, take_answer};
use crate::call::fault::caught_panic;
use crate::call::routes::{self, RouteFuture, RouterFacts, Routes};
use crate::logs::records;
use crate::logs::request_log;
use crate::logs::telemetry::Telemetry;

/// Calls a tool through `router` and logs how the call ended: the
/// `call_tool` that [`tool_handler`](macro@crate::tool_handler) generates,
/// for a `ServerHandler` that writes its own (to run some calls as tasks,
/// say).
///
/// Writes `tool_call_completed` or `tool_call_failed` for the call; answers
/// arguments that do not deserialize with outcome 2; keeps an unknown tool
/// and a missing client capability as JSON-RPC errors; ends any other
/// JSON-RPC error as [`ToolError`](crate::ToolError) maps it (invalid params is outcome 2, the
/// rest outcome 4) and any panic that escaped the boundary as outcome 4;
/// drops the body of a call the client cancels and logs
/// `tool_call_cancelled`.
///
/// Nothing is run or logged until the future is first polled.
// Inlined, so that the call's state (some 900 bytes) is built where the
// caller keeps it, not built here and copied there.
#[inline(always)]
pub fn call_tool<'a, S>(
    service: &'a S,
    router: &'a ToolRouter<S>,
    request: CallToolRequestParams,
    context: RequestContext<RoleServer>,
) -> impl Future<Output = Result<CallToolResponse, ErrorData>>
where
    S: MaybeSend + 'static,
{
    ToolCall::new(
        service,
        router,
        RouterFacts::default(),
        request,
        context,
        ClientCancel::new(),
    )
}

/// [`call_tool`] with a router that `#[tool_handler]` built once: the same
/// call, which sets up no wait for a cancel for a tool whose body runs whole
/// when it is called.
#[inline(always)]
pub fn call_routes<'a, S>(
    service: &'a S,
    routes: &'a Routes<S>,
    request: CallToolRequestParams,
    context: RequestContext<RoleServer>,
) -> impl Future<Output = Result<CallToolResponse, ErrorData>>
where
    S: MaybeSend + 'static,
{
    ToolCall::new(
        service,
        routes.tools(),
        routes.facts(),
        request,
        context,
        ClientCancel::new(),
    )
}

/// [`call_tool`], ended by `cancelled`: `None` then, the body dropped and
/// the call logged as `tool_call_cancelled`.
// Only tasks end a call by their own token, and there are none under `local`.
#[cfg_attr(feature = "local", allow(dead_code))]
pub(crate) fn call_until<'a, S, C>(
    service: &'a S,
    router: &'a ToolRouter<S>,
    request: CallToolRequestParams,
    context: RequestContext<RoleServer>,
    cancelled: C,
) -> ToolCall<'a, S, TaskCancel<C>, Option<Result<CallToolResponse, ErrorData>>>
where
    S: MaybeSend + 'static,
    C: Future<Output = ()>,
{
    let cancelled = TaskCancel::new(cancelled);
    ToolCall::new(
        service,
        router,
        RouterFacts::default(),
        request,
        context,
        cancelled,
    )
}

pin_project_lite::pin_project! {
    /// The future of a tool call, written by hand: rmcp moves every
    /// request's future several times, and an `async fn` would hold the
    /// request and its context two or three times over and move them
    /// between states. Here each part has one place.
    ///
    /// `parts` is dropped by the poll that ends the call, else with the
    /// future.
    pub(crate) struct ToolCall<'a, S, C, E> {
        router: &'a ToolRouter<S>,
        known: RouterFacts<'a>,
        // Set by the first poll.
        started: Option<Instant>,
        // `None` once the call ended.
        parts: Option<CallState<'a, S>>,
        #[pin]
        cancelled: C,
        ended: PhantomData<fn() -> E>,
    }
}

/// What a call holds until it ends.
struct CallState<'a, S> {
    // Handed to the route by the first poll.
    call: Option<ToolCallContext<'a, S>>,
    // The span the body and its lines run in, entered on every poll.
    telemetry: Telemetry,
    tool: RunningTool<'a>,
}

impl<'a, S, C, E> ToolCall<'a, S, C, E>
where
    S: MaybeSend + 'static,
{
    #[inline(always)]
    fn new(
        service: &'a S,
        router: &'a ToolRouter<S>,
        known: RouterFacts<'a>,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
        cancelled: C,
    ) -> Self {
        ToolCall {
            router,
            known,
            started: None,
            parts: Some(CallState {
                call: Some(ToolCallContext::new(service, request, context)),
                telemetry: Telemetry::none(),
                tool: RunningTool {
                    scope: CallScope::default(),
                    body: Body::Gone,
                    whole: false,
                },
            }),
            cancelled,
            ended: PhantomData,
        }
    }
}

/// The tool's side of a call.
struct RunningTool<'a> {
    scope: CallScope,
    body: Body<'a>,
    /// Whether the body runs whole when its route is called (a sync tool):
    /// what is left of it once it answered is rmcp's, not tool code.
    whole: bool,
}

/// The body of a call.
enum Body<'a> {
    /// The router has no such tool, or has it disabled.
    NotFound,
    /// The future the tool's route returned.
    Running(RouteFuture<'a>),
    /// Not started, or dropped.
    Gone,
}

impl Drop for RunningTool<'_> {
    #[inline]
    fn drop(&mut self) {
        // A call that ends drops its body itself, and logs a panic there
        // with the tool's name.
        if let Body::Running(_) = self.body {
            self.drop_body_from_outside();
        }
    }
}

impl RunningTool<'_> {
    /// Drops the body of a call dropped before it ended, in its scope; a
    /// panic there is caught, not unwound into the caller's drop, and
    /// logged under `unknown`.
    #[cold]
    fn drop_body_from_outside(&mut self) {
        if let Body::Running(body) = std::mem::replace(&mut self.body, Body::Gone) {
            let scope = &self.scope;
            if let Err(payload) = catch(|| scope::in_scope(Some(scope), || drop(body))) {
                drop(caught_panic(&Bounded::new("unknown"), payload));
            }
        }
    }
}

impl<S, C, E> Future for ToolCall<'_, S, C, E>
where
    S: MaybeSend + 'static,
    C: Cancellation,
    E: CallOutput,
{
    type Output = E;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<E> {
        let mut this = self.project();
        let Some(parts) = this.parts.as_mut() else {
            panic!("a tool call was polled after it ended");
        };
        let (started, route) = match *this.started {
            Some(started) => (started, None),
            None => {
                let started = Instant::now();
                *this.started = Some(started);
                let route = start(
                    this.router,
                    this.known.none_disabled,
                    &mut parts.call,
                    &mut parts.telemetry,
                    &mut parts.tool,
                );
                // A body that runs whole when it is called can be neither
                // cancelled nor wait on a job: its call reads no session.
                if let (Some(route), Some(call)) = (route, parts.call.as_ref()) {
                    if routes::runs_whole(this.known.runs_whole, route) {
                        parts.tool.whole = true;
                    } else {
                        parts.tool.scope.session = Some(Session::of(&call.request_context));
                        this.cancelled.as_mut().arm(&call.request_context.ct);
                    }
                }
                (started, route)
            }
        };
        let mut answer = Poll::Pending;
        let stopped = {
            let _inside = parts.telemetry.enter();
            match parts.tool.poll(route, &mut parts.call, &mut answer, cx) {
                Poll::Ready(stopped) => stopped,
                // Polled first: a ready call never touches the cancel.
                Poll::Pending => match this.cancelled.as_mut().poll(cx) {
                    Poll::Ready(()) => Stopped::Cancelled,
                    Poll::Pending => return Poll::Pending,
                },
            }
        };
        let ended = parts
            .tool
            .end(&parts.telemetry, started, this.router, stopped, &mut answer);
        // Ends the span, and drops what else the call held.
        *this.parts = None;
        Poll::Ready(ended)
    }
}

/// The first poll's work: the span, the scope, and the route (`None` for a
/// tool the router lacks).
fn start<'a, S: MaybeSend + 'static>(
    router: &'a ToolRouter<S>,
    none_disabled: bool,
    call: &mut Option<ToolCallContext<'a, S>>,
    telemetry: &mut Telemetry,
    tool: &mut RunningTool<'a>,
) -> Option<&'a ToolRoute<S>> {
    let Some(request) = call.as_mut() else {
        unreachable!("the call is handed over on the first poll only");
    };
    request_log::check_filter_once();
    let found = find(router, none_disabled, &request.name);
    let scope = &mut tool.scope;
    // The name is bounded here, once: the span, the records and the answer
    // all read it from the scope.
    scope.tool = ToolName::new(match found {
        Some((name, _)) => name.clone(),
        None => std::mem::take(&mut request.name),
    });
    let (span, ids) = Telemetry::call(
        &scope.tool,
        &scope.tool.logged(),
        found.is_some(),
        &request.request_context,
    );
    *telemetry = span;
    scope.arguments = request.arguments.clone();
    scope.ids = ids;
    match found {
        Some((_, route)) => Some(route),
        None => {
            tool.body = Body::NotFound;
            *call = None;
            None
        }
    }
}

/// The route of `name` and the router's copy of the name; a disabled tool
/// is not found, as in rmcp's `ToolRouter::call`.
#[inline(always)]
fn find<'a, S: MaybeSend + 'static>(
    router: &'a ToolRouter<S>,
    none_disabled: bool,
    name: &str,
) -> Option<(&'a Cow<'static, str>, &'a ToolRoute<S>)> {
    if none_disabled {
        return router.map.get_key_value(name);
    }
    find_enabled(router, name)
}

/// [`find`], for a router that may have a tool disabled.
#[inline(never)]
fn find_enabled<'a, S: MaybeSend + 'static>(
    router: &'a ToolRouter<S>,
    name: &str,
) -> Option<(&'a Cow<'static, str>, &'a ToolRoute<S>)> {
    // Only `get` knows which tools are disabled; among a few routes,
    // finding its answer's route by address beats hashing the name again.
    const FEW: usize = 16;
    let tool = router.get(name)?;
    let found = if router.map.len() <= FEW {
        router
            .map
            .iter()
            .find(|(_, route)| std::ptr::eq(&route.attr, tool))
    } else {
        None
    };
    found.or_else(|| router.map.get_key_value(name))
}

impl<'a> RunningTool<'a> {
    /// Polls the body in the call's scope, under the panic guard, calling
    /// `route` first on the first poll; an answer goes to `answer`.
    fn poll<S: MaybeSend + 'static>(
        &mut self,
        route: Option<&'a ToolRoute<S>>,
        call: &mut Option<ToolCallContext<'a, S>>,
        answer: &mut AnswerSlot,
        cx: &mut Context<'_>,
    ) -> Poll<Stopped> {
        let RunningTool { scope, body, whole } = self;
        let polled = scope::in_scope(Some(scope), || {
            catch_inline(|| {
                if let Some(route) = route {
                    let Some(call) = call.take() else {
                        unreachable!("the route is called once, with the call");
                    };
                    *body = Body::Running((route.call)(call));
                }
                match body {
                    Body::Running(future) => {
                        *answer = future.as_mut().poll(cx);
                        if answer.is_ready() {
                            // Dropped under the guard (its drop is tool
                            // code), taken out first so a panicking drop
                            // leaves nothing to drop twice, and outside
                            // the scope, which the request log still reads;
                            // a body that ran whole left only rmcp's
                            // future, spent.
                            let answered = std::mem::replace(body, Body::Gone);
                            if *whole {
                                drop(answered);
                            } else {
                                scope::in_scope(None, || drop(answered));
                            }
                        }
                    }
                    Body::NotFound => {
                        *answer = Poll::Ready(Err(crate::base::rmcp_errors::tool_not_found()))
                    }
                    Body::Gone => unreachable!("a call is polled only while its body is there"),
                }
            })
        });
        match polled {
            Ok(()) if answer.is_pending() => return Poll::Pending,
            Err(payload) if answer.is_pending() => return Poll::Ready(Stopped::Panicked(payload)),
            Ok(()) => {}
            // The body answered, then its drop panicked: logged here; the
            // answer stands.
            Err(payload) => drop(caught_panic(&scope.tool.logged(), payload)),
        }
        let Poll::Ready(answered) = answer else {
            unreachable!("the body answered");
        };
        let report = report::take(answered);
        // An argument error with no report is rmcp's refusal, before any
        // body ran: a boundary's errors carry one.
        if let Err(error) = answered
            && report.is_none()
            && crate::base::rmcp_errors::is_argument_error(error)
        {
            return Poll::Ready(Stopped::Refused);
        }
        Poll::Ready(Stopped::Answered(report))
    }

    /// Ends the call: drops its body, logs the ending, gives the answer.
    fn end<S: MaybeSend + 'static, E: CallOutput>(
        &mut self,
        telemetry: &Telemetry,
        started: Instant,
        router: &ToolRouter<S>,
        stopped: Stopped,
        answer: &mut AnswerSlot,
    ) -> E {
        let ended = {
            // No await from here on: the guard is never held across one.
            let _inside = telemetry.enter();
            if self.plainly_answered(&stopped, answer) {
                request_log::call_completed(
                    telemetry,
                    &self.scope.tool.logged(),
                    records::duration_ms(started),
                );
                None
            } else {
                self.log_end(telemetry, started, router, stopped, answer)
            }
        };
        // Taken out only after the span is left, so the answer moves once,
        // straight to the caller.
        ended.unwrap_or_else(|| E::answered(take_answer(answer)))
    }

    /// Whether the body answered a result that is not an error, with no
    /// report, as nearly every call does: logged as completed, as
    /// [`log_end`](Self::log_end) would.
    #[inline(always)]
    fn plainly_answered(&self, stopped: &Stopped, answer: &AnswerSlot) -> bool {
        matches!(stopped, Stopped::Answered(None))
            && matches!(
                answer,
                Poll::Ready(Ok(CallToolResponse::Complete(result))) if result.is_error != Some(true)
            )
    }

    /// [`end`](Self::end) in the span, but for taking out the answer:
    /// `None` means the slot's.
    // Out of line, so a plainly answered call runs a few lines, not past
    // every other ending's.
    #[cold]
    #[inline(never)]
    fn log_end<S: MaybeSend + 'static, E: CallOutput>(
        &mut self,
        telemetry: &Telemetry,
        started: Instant,
        router: &ToolRouter<S>,
        stopped: Stopped,
        answer: &mut AnswerSlot,
    ) -> Option<E> {
        let tool = &self.scope.tool;
        let arguments = self.scope.arguments.as_ref();
        // A body still here was cancelled or panicked. Its drop is tool code
        // (a panic is this call's fault), run outside the scope, which the
        // request log reads.
        if let Body::Running(body) = std::mem::replace(&mut self.body, Body::Gone)
            && let Err(payload) = catch(|| scope::in_scope(None, || drop(body)))
        {
            // Logged where it is caught.
            drop(caught_panic(&tool.logged(), payload));
        }
        // rmcp found the tool to answer, so the router has it.
        let explain = |reason: &str| {
            let schema = router
                .get(tool)
                .map(|t| t.input_schema.clone())
                .unwrap_or_default();
            arguments::message(tool, &schema, arguments, Some(reason))
        };
        ending::end_call(telemetry, started, tool, stopped, answer, explain)
    }
}
