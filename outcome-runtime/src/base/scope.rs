//! The request in flight: who is calling which tool, for the code that
//! runs inside the call and that rmcp calls without saying (the boundary,
//! a job, `ToolError`'s conversions).

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::InitializeRequestParams;
use rmcp::service::RequestContext;

use crate::base::bounds::ToolName;

/// The call in flight. How it ends is not here: that travels in the answer
/// (see [`report`](crate::base::report)).
///
/// `tool` is the router's key, cloned: free for a `&'static str` name, as
/// `#[tool]` writes it; bounded for records once, when the call starts.
#[derive(Default)]
pub(crate) struct CallScope {
    pub(crate) tool: ToolName,
    /// The session a job the call starts is bound to; `None` for a call
    /// whose body runs whole when it is called (a sync tool), which can
    /// wait on no job, so its session is never read.
    pub(crate) session: Option<Session>,
    /// The arguments the client sent: what the model wrote is its own to
    /// read back, and explains arguments that fail to deserialize.
    pub(crate) arguments: Option<rmcp::model::JsonObject>,
    /// The call's ids, when its span is recorded; a job it starts carries
    /// them.
    pub(crate) ids: Option<Box<CallIds>>,
    /// Set only on the stand-in that hides the call in flight: see
    /// [`in_scope`].
    pub(crate) outside: bool,
}

/// The ids that tie a job's records to the call that started it.
#[derive(Clone, Debug)]
pub(crate) struct CallIds {
    /// The request's id, bounded.
    pub(crate) request: String,
    /// The `Mcp-Session-Id` header, bounded.
    pub(crate) session: Option<String>,
}

/// The session a request came from, as a job is bound to it.
#[derive(Debug, Default)]
pub(crate) struct Session {
    /// The client's `initialize` parameters, when the request belongs to a
    /// session: their allocation stands for the session in this process.
    pub(crate) params: Option<Arc<InitializeRequestParams>>,
    /// The `Mcp-Session-Id` header over streamable HTTP (a shared handle on
    /// the request's bytes): the session, in memory as in an outside store.
    pub(crate) id: Option<http::HeaderValue>,
}

impl Session {
    /// The session of `context`'s request: over HTTP its `Mcp-Session-Id`
    /// alone (none in rmcp's stateless mode, whose client parameters are
    /// fresh each request); on stdio the connection, by its `initialize`
    /// parameters. A stateless-lifecycle request has none, whatever header
    /// it carries, as rmcp checks no session id for it. With no session, a
    /// job's id is the capability.
    pub(crate) fn of(context: &RequestContext<RoleServer>) -> Self {
        match context.extensions.get::<http::request::Parts>() {
            Some(_) if stateless_lifecycle(context) || stateless_http(context) => {
                Session::default()
            }
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

/// Whether rmcp serves the request without a session (its stateless
/// streamable HTTP mode, `legacy_session_mode = false`): rmcp then checks
/// no `Mcp-Session-Id`, so the header names nothing, and hands the tool
/// client parameters it made for this request alone, which no client's
/// `initialize` holds: rmcp's own name and version, no capability, no
/// `_meta`. A client that sends exactly those over a session (an rmcp
/// client left with its defaults) has its jobs read by their ids alone, as
/// in stateless mode: they still work, bound to no session.
fn stateless_http(context: &RequestContext<RoleServer>) -> bool {
    use rmcp::model::{ClientCapabilities, Implementation};
    // Made once: rmcp's default names are allocated strings.
    static MADE_UP: std::sync::OnceLock<(Implementation, ClientCapabilities)> =
        std::sync::OnceLock::new();
    let (client_info, capabilities) = MADE_UP.get_or_init(Default::default);
    context.peer.peer_info().is_some_and(|params| {
        params.meta.is_none()
            && params.capabilities == *capabilities
            && params.client_info == *client_info
    })
}

/// The client's `initialize` parameters; `None` for a stateless-lifecycle
/// request, whose parameters rmcp makes afresh, so a job it starts stays
/// readable from the next request.
fn initialize_params(context: &RequestContext<RoleServer>) -> Option<Arc<InitializeRequestParams>> {
    if stateless_lifecycle(context) {
        return None;
    }
    context.peer.peer_info()
}

/// The scope of the call in flight on this thread: set while its future is
/// polled (or drops its body from outside), so only code running there
/// sees it.
///
/// A scoped thread-local lent the scope for each poll, not tokio's
/// `task_local!`, which moves the whole scope in and out on every poll and
/// borrows a `RefCell` on every read.
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

/// Runs `f` with `scope` (or none) as the call in flight, restoring the
/// previous one even if `f` panics.
#[inline(always)]
pub(crate) fn in_scope<R>(scope: Option<&CallScope>, f: impl FnOnce() -> R) -> R {
    match scope {
        Some(scope) => IN_FLIGHT.set(scope, f),
        None => NO_CALL.with(|none| IN_FLIGHT.set(none, f)),
    }
}
