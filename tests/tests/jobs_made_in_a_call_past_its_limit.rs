//! A `Jobs` made inside a call, the first of the process, by a call whose
//! work outlasts the limit: the call, which answers no job (see
//! `jobs_made_in_a_call.rs`), ends at the limit as a fault, logged once,
//! and its work is stopped.
//!
//! The only test of its binary: `Jobs` made by any other test first would
//! hide the case.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use outcome_runtime::{Deferred, FAULT_MESSAGE, Jobs, ToolError, tool, tool_handler, tool_router};
use outcome_tests::Session;
use rmcp::ServerHandler;
use serde_json::json;

const DEADLINE: Duration = Duration::from_millis(50);
const MAX_RUN: Duration = Duration::from_millis(200);

/// Set if the endless work ever runs on past the limit.
static RAN_ON: AtomicBool = AtomicBool::new(false);

/// Makes its `Jobs` on first use, inside a call.
#[derive(Default)]
struct Lazy {
    jobs: OnceLock<Jobs>,
}

#[tool_router]
impl Lazy {
    /// Work past any limit.
    #[tool]
    async fn endless(&self) -> Result<Deferred<String>, ToolError> {
        let jobs = self.jobs.get_or_init(|| Jobs::new().with_max_run(MAX_RUN));
        jobs.run(DEADLINE, async {
            tokio::time::sleep(MAX_RUN * 10).await;
            RAN_ON.store(true, Ordering::SeqCst);
            Ok("never".to_owned())
        })
        .await
    }
}

#[tool_handler]
impl ServerHandler for Lazy {}

#[tokio::test(start_paused = true)]
async fn a_call_that_made_the_first_jobs_ends_at_the_limit_as_a_fault() {
    let session = Session::connect(Lazy::default(), ()).await;
    let started = tokio::time::Instant::now();
    let call = session.call("endless", json!({})).await;
    assert_eq!(call.text(), FAULT_MESSAGE);
    assert_eq!(call.ok().is_error, Some(true));
    assert_eq!(started.elapsed(), MAX_RUN, "the call ends at the limit");
    assert_eq!(
        call.events(),
        ["ERROR tool_failed", "ERROR tool_call_failed"],
        "{:?}",
        call.records
    );
    assert!(
        call.record("tool_failed")
            .field("error")
            .is_some_and(|error| error.contains("ran past its limit")),
        "{:?}",
        call.records
    );
    // The work was stopped with the call.
    tokio::time::sleep(MAX_RUN * 20).await;
    assert!(!RAN_ON.load(Ordering::SeqCst));
}
