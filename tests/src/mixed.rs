//! A server whose one tool ends each call the way its argument says, in
//! every outcome, and what each call must read: for the load tests.

use std::time::Duration;

use outcome_runtime::testing::Record;
use outcome_runtime::{
    ToolError, message::FAULT_MESSAGE, message::RETRY_MESSAGE, tool, tool_handler, tool_router,
};
use rmcp::ServerHandler;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolRequestParams;
use rmcp::schemars;
use rmcp::service::{RoleClient, RunningService};
use serde::Deserialize;
use serde_json::json;
use tokio::task::JoinSet;
use tracing::Level;

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Kind {
    /// What the call does: result, invalid, stale, fault, transient, panic.
    kind: String,
}

pub struct Mixed;

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
pub fn kind_of(i: usize) -> &'static str {
    match i % 10 {
        0..=4 => "result",
        5 => "invalid",
        6 => "stale",
        7 => "fault",
        8 => "transient",
        _ => "panic",
    }
}

/// Makes `calls` calls through `client`, at most `in_flight` at a time,
/// sync and async bodies alternating within each kind, and checks each
/// answer; the number answered.
pub async fn run(client: &RunningService<RoleClient, ()>, calls: usize, in_flight: usize) -> usize {
    let run = async {
        let mut running = JoinSet::new();
        let mut answered = 0;
        for i in 0..calls {
            if running.len() == in_flight {
                check(running.join_next().await.unwrap().unwrap());
                answered += 1;
            }
            let peer = client.peer().clone();
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
    tokio::time::timeout(Duration::from_secs(300), run)
        .await
        .expect("the calls finish in bounded time")
}

/// Checks the records of `calls` calls made by [`run`]: one `tool_failed`
/// per fault, at its level, and ERROR only for faults and panics.
pub fn check_records(records: &[Record], calls: usize) {
    let count = |name: &str, level: Level| {
        records
            .iter()
            .filter(|r| r.name() == name && r.level == level)
            .count()
    };
    let tenth = calls / 10;
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
