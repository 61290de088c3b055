//! A `Jobs` made inside a call, the first of the process: the call that
//! made it started before any `Jobs` existed, so nothing bound it to its
//! session, and a job it started could be read from any session. Its work
//! runs on inside the call instead, up to the limit; the calls after it get
//! jobs as usual.
//!
//! The only test of its binary: `Jobs` made by any other test first would
//! hide the case.

use std::sync::OnceLock;
use std::time::Duration;

use outcome_runtime::{Deferred, Jobs, ToolError, tool, tool_handler, tool_router};
use outcome_tests::{Session, job_of};
use rmcp::ServerHandler;
use serde_json::json;

const DEADLINE: Duration = Duration::from_millis(50);
const WORK: Duration = Duration::from_millis(300);

/// Makes its `Jobs` on first use, inside a call.
#[derive(Default)]
struct Lazy {
    jobs: OnceLock<Jobs>,
}

#[tool_router]
impl Lazy {
    /// Finish past the deadline.
    #[tool]
    async fn slow(&self) -> Result<Deferred<String>, ToolError> {
        let jobs = self.jobs.get_or_init(Jobs::new);
        jobs.run(DEADLINE, async {
            tokio::time::sleep(WORK).await;
            Ok("slow".to_owned())
        })
        .await
    }
}

#[tool_handler]
impl ServerHandler for Lazy {}

#[tokio::test(start_paused = true)]
async fn a_call_that_made_the_first_jobs_waits_for_its_work_and_the_next_gets_a_job() {
    let session = Session::connect(Lazy::default(), ()).await;
    let first = session.call("slow", json!({})).await;
    assert_eq!(first.text(), "slow");
    assert_eq!(first.ok().is_error, Some(false));
    assert_eq!(first.events(), ["INFO tool_call_completed"]);

    let second = session.call("slow", json!({})).await;
    assert_eq!(second.ok().is_error, Some(false));
    job_of(second.ok());
    assert_eq!(second.events(), ["INFO tool_call_deferred"]);
}
