//! Request logging for `tools/call`, used by `#[tool_handler]`.
//!
//! rmcp has no middleware, so this is the `call_tool` that
//! `#[outcome_runtime::tool_handler]` generates. It runs the router, and for
//! every call writes `tool_call_completed` or `tool_call_failed` with the
//! outcome the boundary reported. It also ends the calls that fail before or
//! around a tool body by the same rules: arguments that do not deserialize,
//! protocol errors, and panics or errors of tools that skipped the boundary.

use std::any::Any;
use std::borrow::Cow;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use rmcp::handler::server::tool::{ToolCallContext, ToolRoute, ToolRouter};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode, JsonObject,
};
use rmcp::service::{MaybeSend, RequestContext};
use rmcp::{ErrorData, RoleServer};
use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};
use tracing::Level;

use crate::arguments;
use crate::boundary::caught_panic;
use crate::call::{self, CallScope, Note, Session};
use crate::ending::{argument_error, is_rmcp_argument_error, passes_through};
use crate::error::ToolError;
use crate::logging;
use crate::outcome::Ending;
use crate::outcome::Outcome;
use crate::panics::{catch, catch_inline};
use crate::records;
use crate::routes::{self, Known, RouteFuture, Routes};
use crate::telemetry::Telemetry;

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
    CallUntil::new(
        service,
        router,
        Known::default(),
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
    CallUntil::new(
        service,
        routes.tools(),
        routes.known(),
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
) -> CallUntil<'a, S, Given<C>, Option<Result<CallToolResponse, ErrorData>>>
where
    S: MaybeSend + 'static,
    C: Future<Output = ()>,
{
    let cancelled = Given { cancelled };
    CallUntil::new(
        service,
        router,
        Known::default(),
        request,
        context,
        cancelled,
    )
}

/// What a call's future gives: its answer, with what a cancelled call gives.
pub(crate) trait Ended {
    /// The answer of a call that was not cancelled.
    fn answered(answer: Result<CallToolResponse, ErrorData>) -> Self;
    /// What a cancelled call gives.
    fn cancelled() -> Self;
}

/// `call_tool` answers a cancelled call with an `isError` result.
impl Ended for Result<CallToolResponse, ErrorData> {
    #[inline(always)]
    fn answered(answer: Result<CallToolResponse, ErrorData>) -> Self {
        answer
    }

    fn cancelled() -> Self {
        let text = "The call was cancelled.";
        Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into())
    }
}

/// `None` for a cancelled call: a task ends it as cancelled.
impl Ended for Option<Result<CallToolResponse, ErrorData>> {
    #[inline(always)]
    fn answered(answer: Result<CallToolResponse, ErrorData>) -> Self {
        Some(answer)
    }

    fn cancelled() -> Self {
        None
    }
}

/// What ends a call early: the client's cancel, or a task's.
pub(crate) trait Cancellation: Future<Output = ()> {
    /// Called on the call's first poll, before the tool's route takes the
    /// request's context with its token, for a call whose body may wait.
    fn arm(self: Pin<&mut Self>, token: &CancellationToken);
}

/// The client's cancel of a call. rmcp only flags a cancelled request, and
/// the body would run on; this waits for the flag. Armed with the request's
/// token only for a call whose body may wait: one that runs whole at its
/// first poll, or has no tool, answers before any cancel could be heard,
/// and then this never completes.
pub(crate) struct ClientCancel {
    token: Option<CancellationToken>,
    // Made when the call first waits, and boxed: a call that answers at
    // its first poll never registers with the token, and its future does
    // not carry the wait's room.
    wait: Option<Pin<Box<WaitForCancellationFutureOwned>>>,
}

impl ClientCancel {
    fn new() -> Self {
        ClientCancel {
            token: None,
            wait: None,
        }
    }
}

impl Cancellation for ClientCancel {
    fn arm(self: Pin<&mut Self>, token: &CancellationToken) {
        self.get_mut().token = Some(token.clone());
    }
}

impl Future for ClientCancel {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = self.get_mut();
        if let Some(token) = this.token.take() {
            this.wait = Some(Box::pin(token.cancelled_owned()));
        }
        match &mut this.wait {
            Some(wait) => wait.as_mut().poll(cx),
            None => Poll::Pending,
        }
    }
}

pin_project_lite::pin_project! {
    /// A task's own cancel, which it hands over ready to wait on.
    pub(crate) struct Given<C> {
        #[pin]
        cancelled: C,
    }
}

impl<C: Future<Output = ()>> Cancellation for Given<C> {
    fn arm(self: Pin<&mut Self>, _: &CancellationToken) {}
}

impl<C: Future<Output = ()>> Future for Given<C> {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.project().cancelled.poll(cx)
    }
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
    pub(crate) struct CallUntil<'a, S, C, E> {
        router: &'a ToolRouter<S>,
        known: Known<'a>,
        // Set by the first poll.
        started: Option<Instant>,
        // `None` once the call ended.
        parts: Option<Parts<'a, S>>,
        #[pin]
        cancelled: C,
        ended: PhantomData<fn() -> E>,
    }
}

/// What a call holds until it ends.
struct Parts<'a, S> {
    // What the tool's route is called with, until the first poll hands it
    // over.
    call: Option<ToolCallContext<'a, S>>,
    // Everything the call does, its body and its log lines, happens in its
    // span, entered by hand on every poll.
    telemetry: Telemetry,
    // Kept to explain arguments that fail to deserialize; the tool takes
    // the request's own copy.
    arguments: Option<JsonObject>,
    tool: ToolSide<'a>,
}

impl<'a, S, C, E> CallUntil<'a, S, C, E>
where
    S: MaybeSend + 'static,
{
    #[inline(always)]
    fn new(
        service: &'a S,
        router: &'a ToolRouter<S>,
        known: Known<'a>,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
        cancelled: C,
    ) -> Self {
        CallUntil {
            router,
            known,
            started: None,
            parts: Some(Parts {
                call: Some(ToolCallContext::new(service, request, context)),
                telemetry: Telemetry::none(),
                arguments: None,
                tool: ToolSide {
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
struct ToolSide<'a> {
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

impl Drop for ToolSide<'_> {
    #[inline]
    fn drop(&mut self) {
        // A call that ends drops its body itself, and logs a panic there
        // with the tool's name.
        if let Body::Running(_) = self.body {
            self.drop_body_from_outside();
        }
    }
}

impl ToolSide<'_> {
    /// Drops the body of a call whose future is dropped from outside
    /// before the call ended: in the call's scope, with a panic of its drop
    /// kept from unwinding into the caller's drop and written as a fault of
    /// a call whose tool is no longer known.
    #[cold]
    fn drop_body_from_outside(&mut self) {
        if let Body::Running(body) = std::mem::replace(&mut self.body, Body::Gone) {
            let scope = &self.scope;
            if let Err(payload) = catch(|| call::in_scope(Some(scope), || drop(body))) {
                drop(caught_panic("unknown", payload));
            }
        }
    }
}

/// How a call's body stopped.
enum Stop {
    /// It answered; the answer is in the caller's slot.
    Answered,
    /// A panic escaped it.
    Panicked(Box<dyn Any + Send>),
    /// The call was cancelled.
    Cancelled,
}

/// Where a call's answer is kept from its body's last poll to the end of
/// the call: one slot, written once (by the body's poll itself) and read
/// once, rather than a value handed back through each layer between.
type Slot = Poll<Result<CallToolResponse, ErrorData>>;

impl<S, C, E> Future for CallUntil<'_, S, C, E>
where
    S: MaybeSend + 'static,
    C: Cancellation,
    E: Ended,
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
        let stop = {
            let _inside = parts.telemetry.enter();
            match parts.tool.poll(route, &mut parts.call, &mut answer, cx) {
                Poll::Ready(stop) => stop,
                // Polling the call first keeps the cancellation off the
                // path of a call that is ready.
                Poll::Pending => match this.cancelled.as_mut().poll(cx) {
                    Poll::Ready(()) => Stop::Cancelled,
                    Poll::Pending => return Poll::Pending,
                },
            }
        };
        let ended = parts.tool.end(
            &parts.telemetry,
            started,
            parts.arguments.as_ref(),
            this.router,
            stop,
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
    tool: &mut ToolSide<'a>,
) -> Option<&'a ToolRoute<S>> {
    let Some(request) = call.as_mut() else {
        unreachable!("the call is handed over on the first poll only");
    };
    logging::check_filter_once();
    let found = find(router, none_disabled, &request.name);
    let (span, ids) = Telemetry::call(&request.name, found.is_some(), &request.request_context);
    *telemetry = span;
    *arguments = request.arguments.clone();
    let scope = &mut tool.scope;
    if crate::jobs::any_made() {
        scope.session = Some(Session::of(&request.request_context));
    }
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

impl<'a> ToolSide<'a> {
    /// Polls the body of the call, calling `route` with `call` first on
    /// the first poll, in the call's scope, catching a panic. An answer
    /// goes to `answer`.
    fn poll<S: MaybeSend + 'static>(
        &mut self,
        route: Option<&'a ToolRoute<S>>,
        call: &mut Option<ToolCallContext<'a, S>>,
        answer: &mut Slot,
        cx: &mut Context<'_>,
    ) -> Poll<Stop> {
        let ToolSide { scope, body } = self;
        let polled = call::in_scope(Some(scope), || {
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
                            call::in_scope(None, || drop(answered));
                        }
                    }
                    Body::NotFound => {
                        *answer =
                            Poll::Ready(Err(ErrorData::invalid_params("tool not found", None)))
                    }
                    Body::Gone => unreachable!("a call is polled only while its body is there"),
                }
            })
        });
        match polled {
            Ok(()) if answer.is_pending() => return Poll::Pending,
            Err(payload) if answer.is_pending() => return Poll::Ready(Stop::Panicked(payload)),
            Ok(()) => {}
            // The body answered, and its drop panicked: a fault of this
            // call, logged where it is caught; the answer stands.
            Err(payload) => drop(caught_panic(&scope.tool, payload)),
        }
        // What rmcp's `ToolRouter::call` makes of the route's error:
        // arguments that did not deserialize become an `isError` result
        // with rmcp's text.
        if let Poll::Ready(Err(error)) = answer
            && is_rmcp_argument_error(error)
        {
            let text = std::mem::take(&mut error.message);
            *answer = Poll::Ready(Ok(
                CallToolResult::error(vec![ContentBlock::text(text)]).into()
            ));
        }
        Poll::Ready(Stop::Answered)
    }

    /// Ends the call: drops its body and logs how it ended, and gives its
    /// answer, from `answer` when it answered.
    fn end<S: MaybeSend + 'static, E: Ended>(
        &mut self,
        telemetry: &Telemetry,
        started: Instant,
        arguments: Option<&JsonObject>,
        router: &ToolRouter<S>,
        stop: Stop,
        answer: &mut Slot,
    ) -> E {
        let ended = {
            // No await from here on: the guard is never held across one.
            let _inside = telemetry.enter();
            if self.plainly_answered(&stop, answer) {
                logging::call_completed(telemetry, &self.scope.tool, records::duration_ms(started));
                None
            } else {
                self.log_end(telemetry, started, arguments, router, stop, answer)
            }
        };
        // The answer leaves its slot only now, after the span is left, so
        // that it is moved once, straight to where the caller wants it.
        ended.unwrap_or_else(|| E::answered(taken(answer)))
    }

    /// Whether the call ended the way nearly every call ends: its body
    /// answered with a result that is not an error, and it is not part of a
    /// job. Such a call is logged as completed, as
    /// [`log_end`](Self::log_end) would log it, without the code of every
    /// other ending in the way. (A body that answered was dropped where it
    /// answered, and a stashed `ToolError` only ever replaces an error.)
    #[inline(always)]
    fn plainly_answered(&self, stop: &Stop, answer: &Slot) -> bool {
        matches!(stop, Stop::Answered)
            && self.scope.note.get().is_none()
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
    fn log_end<S: MaybeSend + 'static, E: Ended>(
        &mut self,
        telemetry: &Telemetry,
        started: Instant,
        arguments: Option<&JsonObject>,
        router: &ToolRouter<S>,
        stop: Stop,
        answer: &mut Slot,
    ) -> Option<E> {
        // Read in place: nothing writes the scope once the body is done.
        let CallScope {
            tool,
            report,
            stashed,
            note,
            body_ran,
            ..
        } = &self.scope;
        // A body that answered was dropped where it answered; one still
        // here was cancelled, or panicked. Its drop is the tool's code: a
        // panic there is a fault of this call. Both are dropped outside the
        // call's scope, which holds what the request log reads. (A call's
        // future dropped from outside before it ended drops its body in the
        // scope: see `drop_body_from_outside`.)
        if let Body::Running(body) = std::mem::replace(&mut self.body, Body::Gone)
            && let Err(payload) = catch(|| call::in_scope(None, || drop(body)))
        {
            // Logged where it is caught.
            drop(caught_panic(tool, payload));
        }
        let elapsed = || records::duration_ms(started);
        match stop {
            Stop::Answered => {}
            // Cancelled: logged as such, not as a failure.
            Stop::Cancelled => {
                logging::call_cancelled(telemetry, tool, elapsed());
                return Some(E::cancelled());
            }
            // The panic escaped the boundary: the tool is not wrapped, or
            // rmcp's own code around the body panicked.
            Stop::Panicked(payload) => {
                return Some(E::answered(end_as(
                    telemetry,
                    tool,
                    caught_panic(tool, payload),
                    elapsed(),
                )));
            }
        }
        let Poll::Ready(ended) = answer else {
            unreachable!("a call that answered has its answer in the slot");
        };
        let report = report.get();
        // A `ToolError` that travelled as an `ErrorData` ends as itself.
        if let Some(stashed) = stashed.take() {
            let (response, stand_in) = *stashed;
            if matches!(ended, Err(error) if *error == stand_in) {
                *ended = Ok(response);
            }
        }
        // A call that is part of a job is logged as the job says.
        if let (Ok(_), Some(note)) = (&*ended, note.get()) {
            match note {
                Note::Deferred => {
                    logging::call_deferred(telemetry, tool, Ending::Deferred, elapsed())
                }
                Note::Replayed => logging::call_completed(telemetry, tool, elapsed()),
            }
            return None;
        }
        // The body never ran, and rmcp answered: its extractor refused the
        // arguments. (A tool outside the boundary never says whether its
        // body ran, so rmcp's text must agree.)
        if let Ok(CallToolResponse::Complete(result)) = &*ended
            && result.is_error == Some(true)
            && report.is_none()
            && !body_ran.get()
            && let Some(reason) = argument_error(result)
        {
            // rmcp found the tool to answer, so the router has it.
            let schema = router
                .get(tool)
                .map(|t| t.input_schema.clone())
                .unwrap_or_default();
            let text = arguments::message(tool, &schema, arguments, Some(reason));
            logging::call_failed(
                telemetry,
                Level::INFO,
                tool,
                Outcome::Invalid,
                elapsed(),
                None,
                None,
            );
            return Some(E::answered(Ok(CallToolResult::error(vec![
                ContentBlock::text(text),
            ])
            .into())));
        }
        // A protocol error from inside a tool call (a failed extractor, a
        // result that did not serialize, a tool that skipped the boundary)
        // means what its code means when a body raises it with `?`: invalid
        // params is the model's to fix, the rest a fault. Only an unknown
        // tool, a missing capability and `ToolError::protocol` stay JSON-RPC
        // errors.
        if let Err(error) = &*ended
            && !(passes_through(error) || report.is_some_and(|r| r.protocol))
        {
            let Err(error) = taken(answer) else {
                unreachable!("the answer was just matched");
            };
            return Some(E::answered(end_as(
                telemetry,
                tool,
                ToolError::from(error),
                elapsed(),
            )));
        }
        logging::call_ended(telemetry, tool, ended, report, elapsed());
        None
    }
}

/// The answer in `slot`, taken out.
#[inline(always)]
fn taken(slot: &mut Slot) -> Result<CallToolResponse, ErrorData> {
    match std::mem::replace(slot, Poll::Pending) {
        Poll::Ready(answer) => answer,
        Poll::Pending => unreachable!("a call that answered has its answer in the slot"),
    }
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
    crate::boundary::record(&mut error, tool);
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

/// The answer to a `tools/call` whose params rmcp could not read as a
/// call (no `name`, a `name` that is not a string, `arguments` that are
/// not an object, no params at all), logged as every call is: `None` for
/// any other request.
///
/// rmcp hands such a request to `ServerHandler::on_custom_request`, whose
/// default answers "method not found" and logs nothing. The
/// `on_custom_request` that [`tool_handler`](macro@crate::tool_handler)
/// writes, unless the impl has its own, answers it with this: JSON-RPC
/// invalid params (-32602) saying what the params must be, and one
/// `tool_call_failed` line at INFO, outcome `invalid`. An impl that writes
/// its own `on_custom_request` calls this first:
///
/// ```
/// use outcome_runtime::malformed_call;
/// use rmcp::model::{CustomRequest, CustomResult, ErrorCode};
/// use rmcp::service::RequestContext;
/// use rmcp::{ErrorData, RoleServer};
///
/// async fn on_custom_request(
///     request: CustomRequest,
///     context: RequestContext<RoleServer>,
/// ) -> Result<CustomResult, ErrorData> {
///     if let Some(error) = malformed_call(&request, &context) {
///         return Err(error);
///     }
///     // The server's own methods here.
///     Err(ErrorData::new(ErrorCode::METHOD_NOT_FOUND, request.method, None))
/// }
/// ```
pub fn malformed_call(
    request: &rmcp::model::CustomRequest,
    context: &RequestContext<RoleServer>,
) -> Option<ErrorData> {
    if request.method != "tools/call" {
        return None;
    }
    let started = Instant::now();
    let params = request.params.as_ref();
    let name = params
        .and_then(|params| params.get("name"))
        .and_then(serde_json::Value::as_str);
    let tool = name.unwrap_or_default();
    let (telemetry, _ids) = Telemetry::call(tool, false, context);
    let _inside = telemetry.enter();
    // A JSON-RPC error, which the client may hand to the model: in the
    // words of a tool call, not of the protocol's methods.
    let message = match (params, name) {
        (Some(serde_json::Value::Object(_)), Some(name)) => format!(
            "The arguments of a call of {} must be an object that maps each argument's name \
             to its value. Call the tool again with its arguments as such an object.",
            crate::quote(name)
        ),
        (Some(serde_json::Value::Object(_)), None) => "A tool call must name its tool, as a \
             string, in name. Call the tool again with name set to its name as the tool list \
             gives it."
            .to_owned(),
        _ => "A tool call must carry an object with name, the tool's name, and arguments, an \
              object of its arguments. Call the tool again with both."
            .to_owned(),
    };
    logging::call_failed(
        &telemetry,
        Level::INFO,
        tool,
        Outcome::Invalid,
        records::duration_ms(started),
        None,
        Some(ErrorCode::INVALID_PARAMS.0),
    );
    Some(ErrorData::invalid_params(message, None))
}

/// The `on_custom_request` that `#[tool_handler]` writes: a malformed
/// `tools/call` as [`malformed_call`] answers it, any other method as
/// rmcp's default does.
#[doc(hidden)]
pub fn custom_request(
    request: rmcp::model::CustomRequest,
    context: RequestContext<RoleServer>,
) -> std::future::Ready<Result<rmcp::model::CustomResult, ErrorData>> {
    let error = malformed_call(&request, &context)
        .unwrap_or_else(|| ErrorData::new(ErrorCode::METHOD_NOT_FOUND, request.method, None));
    std::future::ready(Err(error))
}
