//! The future of one `tools/call`, from its first poll to its end: the
//! request log that `#[tool_handler]` generates.
//!
//! rmcp has no middleware, so this is the `call_tool` that
//! `#[outcome_runtime::tool_handler]` generates. On its first poll a call
//! opens its span and scope and finds its route; each poll runs the body in
//! the scope, under the panic guard, racing the cancel; the poll that sees
//! the body stop ends the call by the table of [`ending`](crate::ending),
//! which writes its lines and gives its answer.

use std::borrow::Cow;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use rmcp::handler::server::tool::{ToolCallContext, ToolRoute, ToolRouter};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, JsonObject,
};
use rmcp::service::{MaybeSend, RequestContext};
use rmcp::{ErrorData, RoleServer};

use crate::arguments;
use crate::boundary::caught_panic;
use crate::cancel::{Cancellation, ClientCancel, TaskCancel};
use crate::ending::{self, AnswerSlot, CallOutput, Stopped, take_answer};
use crate::panics::{catch, catch_inline};
use crate::records;
use crate::report;
use crate::request_log;
use crate::routes::{self, RouteFuture, RouterFacts, Routes};
use crate::scope::{self, CallScope, Session};
use crate::telemetry::Telemetry;

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

/// Calls a tool through `router` until `cancelled` completes, and logs how
/// the call ended. `None` when it was cancelled: the body is dropped and the
/// call is logged as `tool_call_cancelled`.
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
    /// The future of a tool call, written out by hand. rmcp moves the
    /// future of every request into a task of its own, several times over;
    /// an `async fn` would hold the request and its context twice (as its
    /// arguments and as the locals they move to) and rmcp's
    /// `ToolRouter::call` future a third time, and move them between its
    /// states. Here each part has one place, written once.
    ///
    /// What the call holds is dropped by the poll that ends it (`parts`
    /// becomes `None`), or with the future, for a call dropped before it
    /// ended.
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
    // What the tool's route is called with, until the first poll hands it
    // over.
    call: Option<ToolCallContext<'a, S>>,
    // Everything the call does, its body and its log lines, happens in its
    // span, entered by hand on every poll.
    telemetry: Telemetry,
    // Kept to explain arguments that fail to deserialize; the tool takes
    // the request's own copy.
    arguments: Option<JsonObject>,
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
                arguments: None,
                tool: RunningTool {
                    scope: CallScope::default(),
                    body: Body::Gone,
                },
            }),
            cancelled,
            ended: PhantomData,
        }
    }
}

/// The tool's side of a call: the scope it runs in, and its body.
struct RunningTool<'a> {
    scope: CallScope,
    body: Body<'a>,
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
    /// Drops the body of a call whose future is dropped from outside
    /// before the call ended: in the call's scope, with a panic of its drop
    /// kept from unwinding into the caller's drop and written as a fault of
    /// a call whose tool is no longer known.
    #[cold]
    fn drop_body_from_outside(&mut self) {
        if let Body::Running(body) = std::mem::replace(&mut self.body, Body::Gone) {
            let scope = &self.scope;
            if let Err(payload) = catch(|| scope::in_scope(Some(scope), || drop(body))) {
                drop(caught_panic("unknown", payload));
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
                    &mut parts.arguments,
                    &mut parts.tool,
                );
                if let (Some(route), Some(call)) = (route, parts.call.as_ref())
                    && !routes::runs_whole(this.known.runs_whole, route)
                {
                    this.cancelled.as_mut().arm(&call.request_context.ct);
                }
                (started, route)
            }
        };
        let mut answer = Poll::Pending;
        let stopped = {
            let _inside = parts.telemetry.enter();
            match parts.tool.poll(route, &mut parts.call, &mut answer, cx) {
                Poll::Ready(stopped) => stopped,
                // Polling the call first keeps the cancellation off the
                // path of a call that is ready.
                Poll::Pending => match this.cancelled.as_mut().poll(cx) {
                    Poll::Ready(()) => Stopped::Cancelled,
                    Poll::Pending => return Poll::Pending,
                },
            }
        };
        let ended = parts.tool.end(
            &parts.telemetry,
            started,
            parts.arguments.as_ref(),
            this.router,
            stopped,
            &mut answer,
        );
        // Ends the span, and drops what else the call held.
        *this.parts = None;
        Poll::Ready(ended)
    }
}

/// A call's first steps, on its first poll: its span, the scope the request
/// log reads, and the route to call, if the router has the tool.
fn start<'a, S: MaybeSend + 'static>(
    router: &'a ToolRouter<S>,
    none_disabled: bool,
    call: &mut Option<ToolCallContext<'a, S>>,
    telemetry: &mut Telemetry,
    arguments: &mut Option<JsonObject>,
    tool: &mut RunningTool<'a>,
) -> Option<&'a ToolRoute<S>> {
    let Some(request) = call.as_mut() else {
        unreachable!("the call is handed over on the first poll only");
    };
    request_log::check_filter_once();
    let found = find(router, none_disabled, &request.name);
    let (span, ids) = Telemetry::call(&request.name, found.is_some(), &request.request_context);
    *telemetry = span;
    *arguments = request.arguments.clone();
    let scope = &mut tool.scope;
    scope.session = Session::of(&request.request_context);
    scope.ids = ids;
    match found {
        Some((name, route)) => {
            scope.tool = name.clone();
            Some(route)
        }
        None => {
            scope.tool = std::mem::take(&mut request.name);
            tool.body = Body::NotFound;
            *call = None;
            None
        }
    }
}

/// The route of `name`, with the router's own copy of the name, as rmcp's
/// `ToolRouter::call` finds it: a disabled tool is not found. With
/// `none_disabled`, the router is known to have no tool disabled.
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
    // Only `get` knows which tools are disabled. The tool it answers with
    // is its route's: among a few routes, finding that one by address costs
    // less than hashing the name a second time.
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
    /// Polls the body of the call, calling `route` with `call` first on
    /// the first poll, in the call's scope, catching a panic. An answer
    /// goes to `answer`.
    fn poll<S: MaybeSend + 'static>(
        &mut self,
        route: Option<&'a ToolRoute<S>>,
        call: &mut Option<ToolCallContext<'a, S>>,
        answer: &mut AnswerSlot,
        cx: &mut Context<'_>,
    ) -> Poll<Stopped> {
        let RunningTool { scope, body } = self;
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
                            // A body that answered is dropped under the
                            // same guard: its drop is the tool's code too.
                            // It is taken out first, so that a drop that
                            // panics leaves nothing to drop twice, and
                            // dropped outside the call's scope, which
                            // holds what the request log reads of the call
                            // that answered.
                            let answered = std::mem::replace(body, Body::Gone);
                            scope::in_scope(None, || drop(answered));
                        }
                    }
                    Body::NotFound => {
                        *answer = Poll::Ready(Err(crate::rmcp_errors::tool_not_found()))
                    }
                    Body::Gone => unreachable!("a call is polled only while its body is there"),
                }
            })
        });
        match polled {
            Ok(()) if answer.is_pending() => return Poll::Pending,
            Err(payload) if answer.is_pending() => return Poll::Ready(Stopped::Panicked(payload)),
            Ok(()) => {}
            // The body answered, and its drop panicked: a fault of this
            // call, logged where it is caught; the answer stands.
            Err(payload) => drop(caught_panic(&scope.tool, payload)),
        }
        let Poll::Ready(answered) = answer else {
            unreachable!("the body answered");
        };
        let report = report::take(answered);
        // What rmcp's `ToolRouter::call` makes of the route's error:
        // arguments that did not deserialize become an `isError` result
        // with rmcp's text. No body made it: every error a body returns
        // through a boundary carries its report.
        if let Err(error) = answered
            && report.is_none()
            && crate::rmcp_errors::is_argument_error(error)
        {
            let text = std::mem::take(&mut error.message);
            *answered = Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into());
            return Poll::Ready(Stopped::Refused);
        }
        Poll::Ready(Stopped::Answered(report))
    }

    /// Ends the call: drops its body and logs how it ended, and gives its
    /// answer, from `answer` when it answered.
    fn end<S: MaybeSend + 'static, E: CallOutput>(
        &mut self,
        telemetry: &Telemetry,
        started: Instant,
        arguments: Option<&JsonObject>,
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
                    &self.scope.tool,
                    records::duration_ms(started),
                );
                None
            } else {
                self.log_end(telemetry, started, arguments, router, stopped, answer)
            }
        };
        // The answer leaves its slot only now, after the span is left, so
        // that it is moved once, straight to where the caller wants it.
        ended.unwrap_or_else(|| E::answered(take_answer(answer)))
    }

    /// Whether the call ended the way nearly every call ends: its body
    /// answered with a result that is not an error and carried no report. Such a call is logged as completed, as
    /// [`log_end`](Self::log_end) would log it, without the code of every
    /// other ending in the way. (A body that answered was dropped where it
    /// answered.)
    #[inline(always)]
    fn plainly_answered(&self, stopped: &Stopped, answer: &AnswerSlot) -> bool {
        matches!(stopped, Stopped::Answered(None))
            && matches!(
                answer,
                Poll::Ready(Ok(CallToolResponse::Complete(result))) if result.is_error != Some(true)
            )
    }

    /// What [`end`](Self::end) does in the call's span: everything but
    /// taking the answer out of its slot, which is the call's answer when
    /// this gives `None`.
    // Out of line and kept apart, so that a call that plainly answered runs
    // through a few lines of code, not past every other ending's.
    #[cold]
    #[inline(never)]
    fn log_end<S: MaybeSend + 'static, E: CallOutput>(
        &mut self,
        telemetry: &Telemetry,
        started: Instant,
        arguments: Option<&JsonObject>,
        router: &ToolRouter<S>,
        stopped: Stopped,
        answer: &mut AnswerSlot,
    ) -> Option<E> {
        let tool = &self.scope.tool;
        // A body that answered was dropped where it answered; one still
        // here was cancelled, or panicked. Its drop is the tool's code: a
        // panic there is a fault of this call. Both are dropped outside the
        // call's scope, which holds what the request log reads. (A call's
        // future dropped from outside before it ended drops its body in the
        // scope: see `drop_body_from_outside`.)
        if let Body::Running(body) = std::mem::replace(&mut self.body, Body::Gone)
            && let Err(payload) = catch(|| scope::in_scope(None, || drop(body)))
        {
            // Logged where it is caught.
            drop(caught_panic(tool, payload));
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
