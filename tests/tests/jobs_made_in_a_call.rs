//! A `Jobs` made inside a call, the first of the process: the call that
//! made it started before any `Jobs` existed, so nothing bound it to its
//! session, and a job it started could be read from any session. Its work
//! runs on inside the call instead, up to the limit; the calls after it get
//! jobs as usual.
//!
//! The only test of its binary: `Jobs` made by any other test first would
//! hide the case.

use std::time::Duration;

use outcome_tests::lazy_jobs::LazyJobs;
use outcome_tests::{Session, job_of};
use serde_json::json;

const MAX_RUN: Duration = Duration::from_secs(600);
const WORK: Duration = Duration::from_millis(300);

#[tokio::test(start_paused = true)]
async fn a_call_that_made_the_first_jobs_waits_for_its_work_and_the_next_gets_a_job() {
    let session = Session::connect(LazyJobs::new(MAX_RUN, WORK), ()).await;
    let first = session.call("work", json!({})).await;
    assert_eq!(first.text(), "done");
    assert_eq!(first.ok().is_error, Some(false));
    assert_eq!(first.events(), ["INFO tool_call_completed"]);

    let second = session.call("work", json!({})).await;
    assert_eq!(second.ok().is_error, Some(false));
    job_of(second.ok());
    assert_eq!(second.events(), ["INFO tool_call_deferred"]);
}
