//! What a call holds is freed when it ends, however it ends. The request
//! log drops a call's parts by hand (and skips the drop of parts that hold
//! nothing), so a part it forgot would stay allocated: these count the
//! allocations still live after many calls of each kind. In a binary of
//! its own: the allocator that counts is the process's.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicI64, Ordering};

use outcome_runtime::testing::connect;
use outcome_runtime::{ToolError, tool, tool_handler, tool_router};
use rmcp::ServerHandler;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService, ServiceError};
use serde::Deserialize;

/// Counts the allocations that are live.
struct Counting;

static LIVE: AtomicI64 = AtomicI64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(1, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[derive(Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct Text {
    /// Any text.
    text: String,
}

struct Server;

#[tool_router]
impl Server {
    /// Return the text.
    #[tool]
    fn echo(&self, Parameters(Text { text }): Parameters<Text>) -> Result<String, ToolError> {
        Ok(text)
    }

    /// Return the text, later.
    #[tool]
    async fn later(
        &self,
        Parameters(Text { text }): Parameters<Text>,
    ) -> Result<String, ToolError> {
        tokio::task::yield_now().await;
        Ok(text)
    }

    /// Return a number, later.
    #[tool]
    async fn soon(&self) -> Result<String, ToolError> {
        tokio::task::yield_now().await;
        Ok("42".to_owned())
    }

    /// Fail as the model's request.
    #[tool]
    fn refuse(&self, Parameters(Text { text }): Parameters<Text>) -> Result<String, ToolError> {
        Err(ToolError::invalid(
            format!("`{text}` is not allowed."),
            "Call refuse again with other text.",
        ))
    }
}

#[tool_handler]
impl ServerHandler for Server {}

/// The allocations that stay live over `calls` more calls of `tool` with
/// `arguments` (an object, or null for none), after as many to settle
/// whatever is built once.
async fn growth(
    client: &RunningService<RoleClient, ()>,
    tool: &'static str,
    arguments: &serde_json::Value,
    calls: i64,
) -> i64 {
    let call = || async {
        let mut request = CallToolRequestParams::new(tool);
        if let serde_json::Value::Object(arguments) = arguments {
            request = request.with_arguments(arguments.clone());
        }
        // Answered with a result or a JSON-RPC error: both end the call.
        // Anything else (the session gone) would leave nothing to count.
        match client.call_tool(request).await {
            Ok(_) | Err(ServiceError::McpError(_)) => {}
            Err(error) => panic!("{tool} was not answered: {error}"),
        }
    };
    for _ in 0..calls {
        call().await;
    }
    let before = LIVE.load(Ordering::Relaxed);
    for _ in 0..calls {
        call().await;
    }
    LIVE.load(Ordering::Relaxed) - before
}

#[tokio::test(flavor = "current_thread")]
async fn a_call_leaves_nothing_allocated_however_it_ends() {
    let client = connect(Server, ()).await.unwrap();
    let text = serde_json::json!({ "text": "note ".repeat(50) });
    const CALLS: i64 = 200;
    // A call that holds its arguments at its end, answered at its first
    // poll, later, or with a failure; one that holds none, answered later
    // (after it waited for the client's cancel); one whose tool does not
    // exist; one whose arguments do not deserialize.
    for (tool, arguments) in [
        ("echo", text.clone()),
        ("later", text.clone()),
        ("refuse", text.clone()),
        ("soon", serde_json::Value::Null),
        ("no_such_tool", text.clone()),
        ("echo", serde_json::json!({ "text": 42 })),
    ] {
        let grown = growth(&client, tool, &arguments, CALLS).await;
        eprintln!("{tool} {grown}");
        assert!(
            grown < CALLS / 4,
            "{grown} allocations stayed live over {CALLS} calls of {tool} with {arguments}"
        );
    }
}
