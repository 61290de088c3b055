//! Tools that are not `#[tool]` methods: rmcp's trait-based tools and routes
//! added by hand end by the same rules once wrapped, and the test helper
//! finds any that are not.

use std::borrow::Cow;
use std::sync::Arc;

use outcome_runtime::testing::assert_wrapped;
use outcome_runtime::{
    ToolError, handler::wrap_route, handler::wrap_router, message::FAULT_MESSAGE, tool,
    tool_handler, tool_router,
};
use outcome_tests::{Session, events};
use rmcp::handler::server::router::tool::{AsyncTool, SyncTool, ToolBase, ToolRoute, ToolRouter};
use rmcp::model::{CallToolResult, Tool};
use rmcp::{ErrorData, ServerHandler, schemars};
use serde::{Deserialize, Serialize};

struct Server {
    router: ToolRouter<Server>,
}

#[derive(Deserialize, schemars::JsonSchema, Default)]
struct Numbers {
    left: u32,
    right: u32,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Sum {
    sum: u32,
}

/// A sync trait-based tool whose errors are `ToolError`s.
struct Add;

impl ToolBase for Add {
    type Parameter = Numbers;
    type Output = Sum;
    type Error = ToolError;

    fn name() -> Cow<'static, str> {
        "add".into()
    }

    fn description() -> Option<Cow<'static, str>> {
        Some("Add two numbers.".into())
    }
}

impl SyncTool<Server> for Add {
    fn invoke(_: &Server, Numbers { left, right }: Numbers) -> Result<Sum, ToolError> {
        let sum = left.checked_add(right).ok_or_else(|| {
            ToolError::invalid(
                "The sum is past 4294967295",
                "Call add with smaller numbers",
            )
        })?;
        Ok(Sum { sum })
    }
}

/// A sync trait-based tool that ends in each other outcome: a stale read
/// (`left` 0), a fault that heals itself (1), and a fault (2).
struct Fetch;

impl ToolBase for Fetch {
    type Parameter = Numbers;
    type Output = Sum;
    type Error = ToolError;

    fn name() -> Cow<'static, str> {
        "fetch".into()
    }

    fn description() -> Option<Cow<'static, str>> {
        Some("Fetch a sum.".into())
    }
}

impl SyncTool<Server> for Fetch {
    fn invoke(_: &Server, Numbers { left, .. }: Numbers) -> Result<Sum, ToolError> {
        Err(match left {
            0 => ToolError::stale(
                "The sum changed since it was read",
                "Call fetch again for the current sum",
            ),
            1 => ToolError::retry_later("The adder is busy. Call fetch again in a minute."),
            _ => ToolError::from(std::io::Error::other("adder offline at /srv/adder")),
        })
    }
}

/// An async trait-based tool that panics after an `.await`.
struct Explode;

impl ToolBase for Explode {
    type Parameter = Numbers;
    type Output = Sum;
    type Error = ErrorData;

    fn name() -> Cow<'static, str> {
        "explode".into()
    }
}

impl AsyncTool<Server> for Explode {
    async fn invoke(_: &Server, _: Numbers) -> Result<Sum, ErrorData> {
        tokio::task::yield_now().await;
        panic!("the async trait tool exploded")
    }
}

/// A route added by hand, failing with a protocol error.
fn by_hand() -> ToolRoute<Server> {
    let attr = Tool::new("by_hand", "Fail by hand.", Arc::new(Default::default()));
    ToolRoute::new_dyn(attr, |_| {
        Box::pin(async { Err(ErrorData::internal_error("pool exhausted at /srv/db", None)) })
    })
}

#[tool_router(router = methods)]
impl Server {
    /// Say hello.
    #[tool]
    fn hello(&self) -> Result<String, ToolError> {
        Ok("hello".to_owned())
    }
}

#[tool_handler(router = self.router)]
impl ServerHandler for Server {}

fn unwrapped_router() -> ToolRouter<Server> {
    ToolRouter::new()
        .with_sync_tool::<Add>()
        .with_sync_tool::<Fetch>()
        .with_async_tool::<Explode>()
        .with_route(by_hand())
}

fn server() -> Server {
    Server {
        router: Server::methods() + wrap_router(unwrapped_router()),
    }
}

async fn call(
    tool: &'static str,
    arguments: serde_json::Value,
) -> (CallToolResult, Vec<outcome_runtime::testing::Record>) {
    let session = Session::connect(server(), ()).await;
    let call = session.call(tool, arguments).await;
    let records = call
        .records
        .iter()
        .filter(|r| r.target == "outcome_runtime")
        .cloned()
        .collect();
    (call.ok().clone(), records)
}

fn text(result: &CallToolResult) -> &str {
    &result.content[0].as_text().unwrap().text
}

#[tokio::test]
async fn a_trait_tool_with_tool_errors_keeps_their_outcome() {
    let (result, records) = call("add", serde_json::json!({ "left": 1, "right": 2 })).await;
    assert_eq!(
        result.structured_content,
        Some(serde_json::json!({ "sum": 3 }))
    );
    assert_eq!(events(&records), ["INFO tool_call_completed"]);

    let (result, records) = call("add", serde_json::json!({ "left": u32::MAX, "right": 2 })).await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text(&result),
        "The sum is past 4294967295. Call add with smaller numbers."
    );
    assert_eq!(events(&records), ["INFO tool_call_failed"]);
    assert_eq!(records[0].field("outcome"), Some("invalid"));
}

#[tokio::test]
async fn a_trait_tool_keeps_every_outcome_of_its_tool_errors() {
    let (result, records) = call("fetch", serde_json::json!({ "left": 0, "right": 0 })).await;
    assert_eq!(
        text(&result),
        "The sum changed since it was read, so resending this call fails again. Call fetch again for the current sum."
    );
    assert_eq!(events(&records), ["INFO tool_call_failed"]);
    assert_eq!(records[0].field("outcome"), Some("stale"));

    let (result, records) = call("fetch", serde_json::json!({ "left": 1, "right": 0 })).await;
    assert_eq!(
        text(&result),
        "The adder is busy. Call fetch again in a minute."
    );
    assert_eq!(
        events(&records),
        ["WARN tool_failed", "WARN tool_call_failed"]
    );

    let (result, records) = call("fetch", serde_json::json!({ "left": 2, "right": 0 })).await;
    assert_eq!(text(&result), FAULT_MESSAGE);
    assert!(!text(&result).contains("/srv/adder"));
    assert_eq!(
        events(&records),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
    assert_eq!(records[1].field("outcome"), Some("fault"));
}

#[tokio::test]
async fn a_panic_in_a_wrapped_async_trait_tool_is_one_fault() {
    let (result, records) = call("explode", serde_json::json!({ "left": 1, "right": 2 })).await;
    assert_eq!(text(&result), FAULT_MESSAGE);
    assert_eq!(
        events(&records),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
    assert_eq!(
        records[0].field("error"),
        Some("the async trait tool exploded")
    );
}

#[tokio::test]
async fn a_protocol_error_from_a_route_added_by_hand_is_one_fault() {
    let (result, records) = call("by_hand", serde_json::json!({})).await;
    assert_eq!(text(&result), FAULT_MESSAGE);
    assert!(!text(&result).contains("/srv/db"));
    assert_eq!(
        events(&records),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
}

#[test]
fn the_helper_accepts_routers_inside_the_boundary() {
    assert_wrapped(&Server::methods());
    assert_wrapped(&server().router);
    assert_wrapped(&ToolRouter::<Server>::new().with_route(wrap_route(by_hand())));
}

#[test]
fn the_helper_names_every_tool_outside_the_boundary() {
    let router = Server::methods() + unwrapped_router().with_disabled("explode");
    let failure =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| assert_wrapped(&router)))
            .expect_err("a router with unwrapped tools fails the helper");
    let message = failure
        .downcast_ref::<String>()
        .expect("the helper fails with a message");
    assert!(
        message.starts_with("tools outside the outcome boundary: add, by_hand, explode, fetch;"),
        "{message}"
    );
}
