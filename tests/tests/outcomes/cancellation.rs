//! A call the client cancels: the body's future is dropped, and the log
//! records the cancellation, with no failure and no panic. The request log
//! waits for a cancel only for a body that may wait; these hold for each
//! kind of route it must still wait for: an `async` tool in the router that
//! `#[tool_handler]` keeps, one in a router of the server's own, and a route
//! added by hand next to `#[tool]` methods. A call's future dropped before
//! it ended, never polled again, drops the body too.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use outcome_runtime::{ToolError, handler::wrap_route, tool, tool_handler, tool_router};
use outcome_tests::{Session, events};
use rmcp::handler::server::tool::{ToolRoute, ToolRouter};
use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock, Tool};
use rmcp::model::{CallToolResponse, ServerCapabilities, ServerConfig};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

/// What the test sees of a body: that it started, and that it was dropped.
struct Flags {
    started: AtomicBool,
    dropped: AtomicBool,
}

/// Sets `dropped` when the body's future is dropped.
struct OnDrop(&'static Flags);

impl Drop for OnDrop {
    fn drop(&mut self) {
        self.0.dropped.store(true, Ordering::SeqCst);
    }
}

/// A body that waits for an hour, and says when it starts and is dropped.
async fn wait_long(flags: &'static Flags) -> Result<String, ToolError> {
    let _guard = OnDrop(flags);
    flags.started.store(true, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_secs(3600)).await;
    Ok("done".to_owned())
}

static SLOW: Flags = Flags {
    started: AtomicBool::new(false),
    dropped: AtomicBool::new(false),
};

/// An `async` tool, in the router `#[tool_handler]` builds once.
struct Slow;

#[tool_router]
impl Slow {
    /// Wait for a long time, then answer.
    #[tool]
    async fn wait(&self) -> Result<String, ToolError> {
        wait_long(&SLOW).await
    }

    /// Answer at once.
    #[tool]
    fn now(&self) -> Result<String, ToolError> {
        Ok("now".to_owned())
    }
}

#[tool_handler]
impl ServerHandler for Slow {}

static OWN: Flags = Flags {
    started: AtomicBool::new(false),
    dropped: AtomicBool::new(false),
};

/// An `async` tool, in a router the server keeps itself.
struct OwnRouter {
    tools: ToolRouter<OwnRouter>,
}

#[tool_router(router = own_tools)]
impl OwnRouter {
    /// Wait for a long time, then answer.
    #[tool]
    async fn wait(&self) -> Result<String, ToolError> {
        wait_long(&OWN).await
    }
}

#[tool_handler(router = self.tools)]
impl ServerHandler for OwnRouter {}

static BY_HAND: Flags = Flags {
    started: AtomicBool::new(false),
    dropped: AtomicBool::new(false),
};

/// A route added by hand to the `#[tool]` methods' router, which
/// `#[tool_handler]` builds once: the request log knows nothing of how its
/// body runs.
struct ByHand;

#[tool_router(router = methods)]
impl ByHand {
    /// Answer at once.
    #[tool]
    fn now(&self) -> Result<String, ToolError> {
        Ok("now".to_owned())
    }
}

impl ByHand {
    fn every_tool() -> ToolRouter<Self> {
        let tool = Tool::new("wait", "Wait for a long time, then answer.", Arc::default());
        let route = ToolRoute::new_dyn(tool, |_| {
            Box::pin(async {
                let text = wait_long(&BY_HAND).await.unwrap_or_default();
                Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
            })
        });
        Self::methods().with_route(wrap_route(route))
    }
}

#[tool_handler(router = Self::every_tool())]
impl ServerHandler for ByHand {}

async fn until(flag: &AtomicBool) {
    tokio::time::timeout(Duration::from_secs(10), async {
        while !flag.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    })
    .await
    .expect("the flag is set in time");
}

/// Calls `wait` on `server`, cancels the call once its body has started,
/// and checks that the body was dropped and the call logged as cancelled.
async fn cancel_wait<S: ServerHandler>(server: S, flags: &'static Flags) {
    let session = Session::connect(server, ()).await;

    let call = tokio::spawn({
        let peer = session.client.peer().clone();
        async move { peer.call_tool(CallToolRequestParams::new("wait")).await }
    });
    until(&flags.started).await;
    // Dropping the request future makes rmcp's client send
    // `notifications/cancelled`.
    call.abort();
    until(&flags.dropped).await;
    // Let the server finish logging the call.
    tokio::time::sleep(Duration::from_millis(20)).await;

    let records = session.capture.take();
    assert_eq!(events(&records), ["INFO tool_call_cancelled"]);
    assert!(
        records.iter().all(|r| r.level > tracing::Level::WARN),
        "{records:?}"
    );
}

/// A call of a tool that answers at once: completed, as ever.
async fn call_now<S: ServerHandler>(server: S) {
    let session = Session::connect(server, ()).await;
    let call = session.call("now", serde_json::json!({})).await;
    let result = call.result.expect("a result");
    assert_eq!(result.is_error, Some(false));
    assert_eq!(events(&call.records), ["INFO tool_call_completed"]);
}

#[tokio::test]
async fn a_cancelled_call_drops_the_body_and_logs_no_failure() {
    cancel_wait(Slow, &SLOW).await;
    call_now(Slow).await;
}

#[tokio::test]
async fn a_tool_in_the_servers_own_router_is_cancelled_too() {
    let server = OwnRouter {
        tools: OwnRouter::own_tools(),
    };
    cancel_wait(server, &OWN).await;
}

#[tokio::test]
async fn a_route_added_by_hand_is_cancelled_too() {
    cancel_wait(ByHand, &BY_HAND).await;
    call_now(ByHand).await;
}

static TIMED_OUT: Flags = Flags {
    started: AtomicBool::new(false),
    dropped: AtomicBool::new(false),
};

/// A server that writes its own `call_tool` around the request log's, and
/// gives a call 50 ms: a call that takes longer has its future dropped
/// from outside, never polled to its end.
struct Impatient {
    tools: ToolRouter<Impatient>,
}

#[tool_router(router = impatient_tools)]
impl Impatient {
    /// Wait for a long time, then answer.
    #[tool]
    async fn wait(&self) -> Result<String, ToolError> {
        wait_long(&TIMED_OUT).await
    }
}

impl ServerHandler for Impatient {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = outcome_runtime::handler::call_tool(self, &self.tools, request, context);
        match tokio::time::timeout(Duration::from_millis(50), call).await {
            Ok(answer) => answer,
            Err(_) => Ok(CallToolResult::error(vec![ContentBlock::text(
                "The call took too long. Call it again later.",
            )])
            .into()),
        }
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

/// The call's future, dropped before it ended, drops the body itself.
#[tokio::test]
async fn a_call_dropped_before_it_ends_drops_the_body() {
    let server = Impatient {
        tools: Impatient::impatient_tools(),
    };
    let session = Session::connect(server, ()).await;
    let call = session.call("wait", serde_json::json!({})).await;
    assert!(TIMED_OUT.started.load(Ordering::SeqCst));
    assert!(TIMED_OUT.dropped.load(Ordering::SeqCst));
    assert_eq!(call.result.expect("a result").is_error, Some(true));
}
