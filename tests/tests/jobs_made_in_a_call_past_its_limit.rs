//! A `Jobs` made inside a call, the first of the process, by a call whose
//! work outlasts the limit: the call, which answers no job (see
//! `jobs_made_in_a_call.rs`), ends at the limit as a fault, logged once,
//! and its work is stopped.
//!
//! The only test of its binary: `Jobs` made by any other test first would
//! hide the case.

use std::sync::atomic::Ordering;
use std::time::Duration;

use outcome_runtime::FAULT_MESSAGE;
use outcome_tests::Session;
use outcome_tests::lazy_jobs::LazyJobs;
use serde_json::json;

const MAX_RUN: Duration = Duration::from_millis(200);

#[tokio::test(start_paused = true)]
async fn a_call_that_made_the_first_jobs_ends_at_the_limit_as_a_fault() {
    let server = LazyJobs::new(MAX_RUN, MAX_RUN * 10);
    let finished = server.finished.clone();
    let session = Session::connect(server, ()).await;
    let started = tokio::time::Instant::now();
    let call = session.call("work", json!({})).await;
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
    assert!(!finished.load(Ordering::SeqCst));
}
