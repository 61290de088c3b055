//! A call the client cancels: the body's future is dropped, and the log
//! records the cancellation, with no failure and no panic.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use outcome_runtime::{ToolError, tool, tool_handler, tool_router};
use outcome_tests::{Session, events};
use rmcp::ServerHandler;
use rmcp::model::CallToolRequestParams;

static STARTED: AtomicBool = AtomicBool::new(false);
static DROPPED: AtomicBool = AtomicBool::new(false);

/// Sets `DROPPED` when the body's future is dropped.
struct OnDrop;

impl Drop for OnDrop {
    fn drop(&mut self) {
        DROPPED.store(true, Ordering::SeqCst);
    }
}

struct Slow;

#[tool_router]
impl Slow {
    /// Wait for a long time, then answer.
    #[tool]
    async fn wait(&self) -> Result<String, ToolError> {
        let _guard = OnDrop;
        STARTED.store(true, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_secs(3600)).await;
        Ok("done".to_owned())
    }
}

#[tool_handler]
impl ServerHandler for Slow {}

async fn until(flag: &AtomicBool) {
    tokio::time::timeout(Duration::from_secs(10), async {
        while !flag.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    })
    .await
    .expect("the flag is set in time");
}

#[tokio::test]
async fn a_cancelled_call_drops_the_body_and_logs_no_failure() {
    let session = Session::connect(Slow, ()).await;

    let call = tokio::spawn({
        let peer = session.client.peer().clone();
        async move { peer.call_tool(CallToolRequestParams::new("wait")).await }
    });
    until(&STARTED).await;
    // Dropping the request future makes rmcp's client send
    // `notifications/cancelled`.
    call.abort();
    until(&DROPPED).await;
    // Let the server finish logging the call.
    tokio::time::sleep(Duration::from_millis(20)).await;

    let records = session.capture.take();
    assert_eq!(events(&records), ["INFO tool_call_cancelled"]);
    assert!(
        records.iter().all(|r| r.level > tracing::Level::WARN),
        "{records:?}"
    );
}
