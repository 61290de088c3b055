//! A server that makes its `Jobs` on first use, inside a call: for the
//! test of a call that started before the process made any `Jobs`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use outcome_runtime::{Deferred, Jobs, ToolError, tool, tool_handler, tool_router};
use rmcp::ServerHandler;

/// How long the tool waits for its work before it answers with a job.
pub const DEADLINE: Duration = Duration::from_millis(50);

/// Makes its `Jobs`, with `max_run`, the first time its tool is called.
pub struct LazyJobs {
    jobs: OnceLock<Jobs>,
    max_run: Duration,
    work: Duration,
    /// Set once a call's work has run to its end.
    pub finished: Arc<AtomicBool>,
}

impl LazyJobs {
    /// A server whose tool's work takes `work`, in jobs that may run for
    /// `max_run`.
    pub fn new(max_run: Duration, work: Duration) -> Self {
        LazyJobs {
            jobs: OnceLock::new(),
            max_run,
            work,
            finished: Arc::default(),
        }
    }
}

#[tool_router]
impl LazyJobs {
    /// Work for a while, past the deadline.
    #[tool]
    async fn work(&self) -> Result<Deferred<String>, ToolError> {
        let jobs = self
            .jobs
            .get_or_init(|| Jobs::new().with_max_run(self.max_run));
        let (work, finished) = (self.work, Arc::clone(&self.finished));
        jobs.run(DEADLINE, async move {
            tokio::time::sleep(work).await;
            finished.store(true, Ordering::SeqCst);
            Ok("done".to_owned())
        })
        .await
    }
}

#[tool_handler]
impl ServerHandler for LazyJobs {}
