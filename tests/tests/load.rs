//! Load: 10,000 `tools/call` requests, 64 in flight, through a real rmcp
//! client, half of them failing in every way a call can fail. Every call is
//! answered with its outcome, and the log holds exactly one `tool_failed`
//! per fault and no ERROR for anything else.

use std::time::Duration;

use outcome_runtime::testing::{LogCapture, connect};
use outcome_runtime::{FAULT_MESSAGE, RETRY_MESSAGE, ToolError, tool, tool_handler, tool_router};
use rmcp::ServerHandler;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolRequestParams;
use rmcp::schemars;
use serde::Deserialize;
use serde_json::json;
use tokio::task::JoinSet;
use tracing::Level;

const CALLS: usize = 10_000;
const IN_FLIGHT: usize = 64;

#[derive(Deserialize, schemars::JsonSchema)]
struct Kind {
    /// What the call does: result, invalid, stale, fault, transient, panic.
    kind: String,
}

struct Mixed;

fn outcome(kind: &str) -> Result<String, ToolError> {
    match kind {
        "result" => Ok("done".to_owned()),
        "invalid" => Err(ToolError::invalid(
            "No such thing",
            "Call list_things first",
        )),
        "stale" => Err(ToolError::stale(
            "The thing changed since version 'v1'",
            "Call read_thing for the current version",
        )),
        "fault" => Err(std::io::Error::other("disk on fire"))?,
        "transient" => Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "slow"))?,
        "panic" => panic!("the load test panics on purpose"),
        other => unreachable!("unknown kind {other}"),
    }
}

#[tool_router]
impl Mixed {
    /// End the call the way `kind` says, at once.
    #[tool]
    fn sync_call(&self, Parameters(Kind { kind }): Parameters<Kind>) -> Result<String, ToolError> {
        outcome(&kind)
    }

    /// End the call the way `kind` says, after yielding.
    #[tool]
    async fn async_call(
        &self,
        Parameters(Kind { kind }): Parameters<Kind>,
    ) -> Result<String, ToolError> {
        tokio::task::yield_now().await;
        outcome(&kind)
    }
}

#[tool_handler]
impl ServerHandler for Mixed {}

/// The kind of call number `i`: half results, a tenth each kind of failure.
fn kind_of(i: usize) -> &'static str {
    match i % 10 {
        0..=4 => "result",
        5 => "invalid",
        6 => "stale",
        7 => "fault",
        8 => "transient",
        _ => "panic",
    }
}

#[tokio::test]
async fn ten_thousand_calls_each_end_in_their_outcome() {
    let capture = LogCapture::new();
    let _guard = capture.set_default();
    let client = connect(Mixed, ()).await.unwrap();
    client.list_all_tools().await.unwrap();
    capture.take();

    let run = async {
        let mut running = JoinSet::new();
        let mut answered = 0;
        for i in 0..CALLS {
            if running.len() == IN_FLIGHT {
                check(running.join_next().await.unwrap().unwrap());
                answered += 1;
            }
            let peer = client.peer().clone();
            // Sync and async bodies alternate within each kind.
            let tool = if (i / 10) % 2 == 0 {
                "sync_call"
            } else {
                "async_call"
            };
            let kind = kind_of(i);
            running.spawn(async move {
                let arguments = json!({ "kind": kind }).as_object().unwrap().clone();
                let params = CallToolRequestParams::new(tool).with_arguments(arguments);
                (kind, peer.call_tool(params).await)
            });
        }
        while let Some(joined) = running.join_next().await {
            check(joined.unwrap());
            answered += 1;
        }
        answered
    };
    let answered = tokio::time::timeout(Duration::from_secs(300), run)
        .await
        .expect("10,000 calls finish in bounded time");
    assert_eq!(answered, CALLS);

    let records = capture.take();
    let count = |name: &str, level: Level| {
        records
            .iter()
            .filter(|r| r.name() == name && r.level == level)
            .count()
    };
    let tenth = CALLS / 10;
    // One `tool_failed` per fault: ERROR for faults and panics, WARNING for
    // the ones that heal themselves; none for anything else.
    assert_eq!(count("tool_failed", Level::ERROR), 2 * tenth);
    assert_eq!(count("tool_failed", Level::WARN), tenth);
    assert_eq!(
        records.iter().filter(|r| r.name() == "tool_failed").count(),
        3 * tenth
    );
    assert_eq!(count("tool_call_completed", Level::INFO), 5 * tenth);
    assert_eq!(count("tool_call_failed", Level::INFO), 2 * tenth);
    assert_eq!(count("tool_call_failed", Level::WARN), tenth);
    assert_eq!(count("tool_call_failed", Level::ERROR), 2 * tenth);
    let errors = records.iter().filter(|r| r.level == Level::ERROR).count();
    assert_eq!(errors, 4 * tenth, "ERROR only for faults and panics");
}

fn check(
    (kind, result): (
        &'static str,
        Result<rmcp::model::CallToolResult, rmcp::service::ServiceError>,
    ),
) {
    let result = result.unwrap_or_else(|e| panic!("{kind}: no answer: {e}"));
    let text = result.content[0].as_text().unwrap().text.as_str();
    let expected = match kind {
        "result" => "done",
        "invalid" => "No such thing. Call list_things first.",
        "stale" => {
            "The thing changed since version 'v1', so resending this call fails again. \
             Call read_thing for the current version."
        }
        "transient" => RETRY_MESSAGE,
        _ => FAULT_MESSAGE,
    };
    assert_eq!(text, expected, "{kind}");
    assert_eq!(result.is_error, Some(kind != "result"), "{kind}");
}
