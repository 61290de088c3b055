use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use rmcp::handler::server::tool::ToolRouter;
use rmcp::model::Tool;

use super::{Routes, mark_router, runs_whole, whole_route};
use crate::ToolError;

struct Server;

type Returned = Result<String, ToolError>;

fn now(_: &Server) -> Returned {
    Ok("now".to_owned())
}

fn later(_: &Server) -> Pin<Box<dyn Future<Output = Returned> + Send + '_>> {
    Box::pin(async { Ok("later".to_owned()) })
}

fn tool(name: &'static str) -> Tool {
    Tool::new(name, "A tool.", Arc::default())
}

#[test]
fn only_a_route_that_runs_whole_is_known_as_one() {
    let router = ToolRouter::<Server>::new()
        .with_route(whole_route((tool("now"), now)))
        .with_route(whole_route((tool("later"), later)))
        .with_route((tool("plain"), now))
        // Replaced by a route the request log knows nothing of.
        .with_route(whole_route((tool("replaced"), now)))
        .with_route((tool("replaced"), now));
    // As `#[tool_router]` does last: every route marked as wrapped,
    // which keeps what is known of them.
    let routes = Routes::new(mark_router(router));
    let whole = |name: &str| runs_whole(routes.facts().runs_whole, &routes.tools().map[name]);
    assert!(whole("now"));
    assert!(!whole("later"), "an async route may wait");
    assert!(!whole("plain"), "a route not built by `whole_route`");
    assert!(!whole("replaced"), "the route that replaced it");
    assert!(routes.facts().none_disabled);
}

#[test]
fn only_a_schema_that_narrows_puts_a_check_in_front_of_the_handler() {
    let schema =
        |value: serde_json::Value| Arc::new(value.as_object().cloned().unwrap_or_default());
    let plain = Tool::new(
        "plain",
        "A tool.",
        schema(serde_json::json!({
            "type": "object",
            "properties": { "n": { "type": "integer", "format": "uint32", "minimum": 0 } },
            "required": ["n"]
        })),
    );
    let narrow = Tool::new(
        "narrow",
        "A tool.",
        schema(serde_json::json!({
            "type": "object",
            "properties": { "n": { "type": "integer", "minimum": 1, "maximum": 7 } }
        })),
    );
    let router = ToolRouter::<Server>::new()
        .with_route(whole_route((plain, now)))
        .with_route(whole_route((narrow, now)));
    let before: Vec<(String, usize)> = router
        .map
        .iter()
        .map(|(name, route)| (name.to_string(), super::address(&route.call)))
        .collect();
    let router = mark_router(router);
    for (name, address) in before {
        let same = super::address(&router.map[name.as_str()].call) == address;
        // The same handler: a call of a tool whose schema narrows
        // nothing runs exactly the code it ran without the check.
        assert_eq!(same, name == "plain", "{name}");
    }
    // The check keeps what is known of the handler it is put before.
    let routes = Routes::new(router);
    assert!(runs_whole(
        routes.facts().runs_whole,
        &routes.tools().map["narrow"]
    ));
}

#[test]
fn a_router_with_a_tool_disabled_is_known_as_one() {
    let router = ToolRouter::<Server>::new()
        .with_route(whole_route((tool("now"), now)))
        .with_route(whole_route((tool("later"), later)))
        .with_disabled("later");
    assert!(!Routes::new(router).facts().none_disabled);
    // A name disabled with no tool of that name disables nothing.
    let router = ToolRouter::<Server>::new()
        .with_route(whole_route((tool("now"), now)))
        .with_disabled("gone");
    assert!(Routes::new(router).facts().none_disabled);
}
