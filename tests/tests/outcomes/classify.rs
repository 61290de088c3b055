//! A call is classified by what happened, never by text: faults that heal
//! themselves are recognised by type anywhere in the source chain
//! (reqwest's timeouts and HTTP 429, the `reqwest` feature), and a tool's
//! own error result stays a fault even when it reads like an argument error.

use std::time::Duration;

use outcome_runtime::{Outcome, ToolError, message::RETRY_MESSAGE};
use outcome_tests::hostile::session;
use serde_json::json;
use tracing::Level;

/// A reqwest error for a response with `status`, made without a network.
fn status_error(status: u16) -> reqwest::Error {
    let response = http::Response::builder().status(status).body("").unwrap();
    reqwest::Response::from(response)
        .error_for_status()
        .expect_err("an error status is an error")
}

#[derive(Debug)]
struct SyncFailed(reqwest::Error);

impl std::fmt::Display for SyncFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("sync failed")
    }
}

impl std::error::Error for SyncFailed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

#[test]
fn an_http_429_from_reqwest_heals_itself_anywhere_in_the_chain() {
    let error = ToolError::from(SyncFailed(status_error(429)));
    assert_eq!(error.outcome(), Outcome::Fault);
    assert_eq!(error.level(), Level::WARN);
    assert_eq!(error.message(), RETRY_MESSAGE);

    let error = ToolError::from(status_error(500));
    assert_eq!(error.level(), Level::ERROR);
}

#[tokio::test]
async fn a_reqwest_timeout_heals_itself() {
    // A local listener that accepts and never answers.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let hold = tokio::spawn(async move {
        let (_socket, _) = listener.accept().await.unwrap();
        tokio::time::sleep(Duration::from_secs(10)).await;
    });
    let client = reqwest::Client::builder()
        .timeout(Duration::from_millis(50))
        .build()
        .unwrap();
    let error = client
        .get(format!("http://{address}/"))
        .send()
        .await
        .expect_err("the request times out");
    assert!(error.is_timeout());
    let error = ToolError::from(SyncFailed(error));
    assert_eq!(error.level(), Level::WARN);
    hold.abort();
}

#[tokio::test]
async fn a_tools_own_result_that_looks_like_an_argument_error_is_a_fault() {
    let (session, _jobs) = session().await;
    let call = session.call("lookalike", json!({})).await;
    assert_eq!(
        call.text(),
        "failed to deserialize parameters: the tool wrote this itself"
    );
    assert_eq!(call.events(), ["ERROR tool_call_failed"]);
    assert_eq!(
        call.record("tool_call_failed").field("outcome"),
        Some("fault")
    );
}
