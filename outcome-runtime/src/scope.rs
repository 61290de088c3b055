//! The request in flight: who is calling which tool, for the code that
//! runs inside the call and that rmcp calls without saying (the boundary,
//! a job, `ToolError`'s conversions).

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::InitializeRequestParams;
use rmcp::service::RequestContext;

/// The request in flight on this task: what identifies it to code that
/// rmcp calls without it (the boundary, a job, `ToolError`'s conversions).
/// How the call ends is not here: it travels in the answer (see
/// [`report`](crate::report)).
///
/// The name is the router's key, cloned: a name the router holds as a
/// `&'static str`, as `#[tool]` writes it, costs no copy.
#[derive(Default)]
pub(crate) struct CallScope {
    pub(crate) tool: Cow<'static, str>,
    /// The session the call came from, read as the call starts: a job
    /// the call starts is bound to it.
    pub(crate) session: Session,
    /// The call's request and session ids, when its span is recorded: a job
    /// the call starts carries them.
    pub(crate) ids: Option<Box<crate::telemetry::CallIds>>,
    /// Set only on the stand-in that hides the call in flight: see
    /// [`in_scope`].
    pub(crate) outside: bool,
}

/// The session a request came from, as a job is bound to it.
#[derive(Debug, Default)]
pub(crate) struct Session {
    /// The client's `initialize` parameters, when the request belongs to a
    /// session: their allocation stands for the session in this process.
    pub(crate) params: Option<Arc<InitializeRequestParams>>,
    /// The `Mcp-Session-Id` header, over streamable HTTP: a shared handle on
    /// the request's bytes, what stands for the session in a store outside
    /// the process.
    pub(crate) id: Option<http::HeaderValue>,
}

impl Session {
    /// The session of the request of `context`.
    ///
    /// Over HTTP the session is its `Mcp-Session-Id` alone, in memory as in
    /// a store outside the process: rmcp's stateless mode serves each
    /// request with fresh client parameters and no session id, so a job
    /// started there is bound to no session, and its id is the capability.
    /// On any other transport (stdio) the connection is the session, and
    /// its client's `initialize` parameters stand for it.
    /// A request of the stateless lifecycle belongs to no session, whatever
    /// header it carries: rmcp serves it on its own and checks no session
    /// id.
    pub(crate) fn of(context: &RequestContext<RoleServer>) -> Self {
        match context.extensions.get::<http::request::Parts>() {
            Some(_) if stateless_lifecycle(context) => Session::default(),
            Some(parts) => Session {
                params: None,
                id: parts.headers.get("mcp-session-id").cloned(),
            },
            None => Session {
                params: initialize_params(context),
                id: None,
            },
        }
    }
}

/// Whether the request is of the stateless lifecycle (protocol
/// 2026-07-28), which carries its protocol version in its own `_meta`.
fn stateless_lifecycle(context: &RequestContext<RoleServer>) -> bool {
    const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    context.meta.0.0.contains_key(PROTOCOL_VERSION)
}

/// The session a request belongs to, by its client's `initialize`
/// parameters; `None` for a request of the stateless lifecycle (protocol
/// 2026-07-28), which carries its protocol version in its own `_meta`: rmcp
/// makes fresh client parameters for each such request, so they stand for
/// no session, and a job it starts must be readable from the next request.
fn initialize_params(context: &RequestContext<RoleServer>) -> Option<Arc<InitializeRequestParams>> {
    if stateless_lifecycle(context) {
        return None;
    }
    context.peer.peer_info()
}

/// The scope of the call in flight on this thread, read as a task-local
/// is: set while the call's future is polled (and while a call that was
/// cancelled from outside drops its body), so that code running there, and
/// only there, sees it.
///
/// A scoped thread-local, lent the scope the call's future owns for each
/// poll, not tokio's `task_local!`: that one moves the whole scope into its
/// slot and back on every poll, and takes a `RefCell` borrow on every read.
pub(crate) static CALL: InFlight = InFlight;

scoped_tls::scoped_thread_local!(static IN_FLIGHT: CallScope);

thread_local! {
    /// The stand-in that hides the call in flight from code run outside
    /// it, such as the drop of a body that answered.
    static NO_CALL: CallScope = CallScope {
        outside: true,
        ..CallScope::default()
    };
}

/// The handle to the call in flight; see [`CALL`].
pub(crate) struct InFlight;

/// No call is in flight on this thread.
#[derive(Debug)]
pub(crate) struct NoCall;

impl InFlight {
    /// Runs `f` with the scope of the call in flight, if there is one.
    #[inline(always)]
    pub(crate) fn try_with<R>(&self, f: impl FnOnce(&CallScope) -> R) -> Result<R, NoCall> {
        if !IN_FLIGHT.is_set() {
            return Err(NoCall);
        }
        IN_FLIGHT.with(|scope| {
            if scope.outside {
                Err(NoCall)
            } else {
                Ok(f(scope))
            }
        })
    }

    /// Runs `f` with `scope` as the call in flight.
    pub(crate) fn sync_scope<R>(&self, scope: CallScope, f: impl FnOnce() -> R) -> R {
        in_scope(Some(&scope), f)
    }
}

/// Runs `f` with `scope` as the call in flight on this thread (`None`: with
/// no call in flight), and puts back the one there was before, also when
/// `f` panics.
#[inline(always)]
pub(crate) fn in_scope<R>(scope: Option<&CallScope>, f: impl FnOnce() -> R) -> R {
    match scope {
        Some(scope) => IN_FLIGHT.set(scope, f),
        None => NO_CALL.with(|none| IN_FLIGHT.set(none, f)),
    }
}
