//! Long-running tools: past a deadline, the call answers with a job the
//! model polls, and the work goes on.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::ErrorData;
use rmcp::handler::server::tool::{IntoCallToolResult, ToolRoute};
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, JsonObject, Tool};
use rmcp::service::MaybeSend;
use serde_json::Value;

use crate::boundary::{CatchPanic, caught_panic};
use crate::error::ToolError;
use crate::logging::{self, CALL, CallScope, Note};
use crate::message::quote;

/// The name of the status tool [`Jobs::status_tool`] registers.
pub const STATUS_TOOL: &str = "job_status";

/// The jobs of a server's long-running tools.
///
/// A tool hands its work to [`run`](Self::run) with a deadline. Work that
/// ends in time answers the call as usual. Work that does not goes on in the
/// background, and the call answers with a job that the model polls through
/// the `job_status` tool ([`status_tool`](Self::status_tool)). When the job
/// ends, the poll reads the outcome and text the inline call would have
/// given, and the log gets that call's lines, once.
///
/// Nothing outlives its bound: a job still running after
/// [`max_run`](Self::with_max_run) is stopped as a fault, and a finished
/// job's answer is dropped [`keep`](Self::with_keep) after it ended, whether
/// or not anyone polled it.
///
/// ```
/// use std::time::Duration;
/// use outcome_runtime::{Deferred, Jobs, ToolError, tool, tool_handler, tool_router};
/// use rmcp::ServerHandler;
/// use rmcp::handler::server::router::tool::ToolRouter;
///
/// struct Archive {
///     jobs: Jobs,
///     tools: ToolRouter<Archive>,
/// }
///
/// #[tool_router]
/// impl Archive {
///     /// Pack every note into an archive; returns its size in bytes.
///     #[tool]
///     async fn pack(&self) -> Result<Deferred<String>, ToolError> {
///         // The work owns what it uses: it may outlive the call.
///         let work = async { Ok("1024".to_owned()) };
///         self.jobs.run("pack", Duration::from_secs(5), work).await
///     }
/// }
///
/// #[tool_handler(router = self.tools)]
/// impl ServerHandler for Archive {}
///
/// let jobs = Jobs::new();
/// let tools = Archive::tool_router().with_route(jobs.status_tool());
/// let server = Archive { jobs, tools };
/// # let _ = server;
/// ```
#[derive(Clone)]
pub struct Jobs {
    jobs: Arc<Mutex<HashMap<String, Job>>>,
    next: Arc<AtomicU64>,
    keep: Duration,
    max_run: Duration,
}

enum Job {
    Running { tool: Arc<str> },
    Done(Result<CallToolResponse, ErrorData>),
}

/// A long-running tool's answer: the value, or the job to poll for it.
pub enum Deferred<T> {
    /// The work ended before the deadline.
    Ready(T),
    /// The work goes on as this job.
    Running(String),
}

impl<T: IntoCallToolResult> IntoCallToolResult for Deferred<T> {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        match self {
            Deferred::Ready(value) => value.into_call_tool_result(),
            Deferred::Running(job) => {
                logging::note(Note::Deferred);
                Ok(CallToolResult::success(vec![ContentBlock::text(running_text(&job))]).into())
            }
        }
    }
}

fn running_text(job: &str) -> String {
    format!(
        "The work goes on as job {}. Call {STATUS_TOOL} with job set to {} in a few seconds \
         for its result.",
        quote(job),
        quote(job)
    )
}

impl Default for Jobs {
    fn default() -> Self {
        Self::new()
    }
}

impl Jobs {
    /// Jobs that may run for 10 minutes and whose answers are kept for 5.
    pub fn new() -> Self {
        Jobs {
            jobs: Arc::default(),
            next: Arc::new(AtomicU64::new(1)),
            keep: Duration::from_secs(300),
            max_run: Duration::from_secs(600),
        }
    }

    /// How long a finished job's answer is kept for a poll.
    pub fn with_keep(mut self, keep: Duration) -> Self {
        self.keep = keep;
        self
    }

    /// How long a job may run before it is stopped as a fault.
    pub fn with_max_run(mut self, max_run: Duration) -> Self {
        self.max_run = max_run;
        self
    }

    /// How many jobs are held, running or finished.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no job is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Job>> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `work` for `tool`, waiting at most `deadline` for it.
    ///
    /// The work must own what it uses (clone it in), since it may outlive
    /// the call. It ends by the boundary's rules wherever it ends: a
    /// `ToolError` keeps its outcome, any other error and any panic is a
    /// fault, logged once.
    pub async fn run<T, F>(
        &self,
        tool: &'static str,
        deadline: Duration,
        work: F,
    ) -> Result<Deferred<T>, ToolError>
    where
        T: IntoCallToolResult + Send + 'static,
        F: Future<Output = Result<T, ToolError>> + Send + 'static,
    {
        let started = Instant::now();
        let mut handle = tokio::spawn(async move {
            match CatchPanic::new(work).await {
                Ok(ended) => ended,
                Err(payload) => Err(caught_panic(tool, payload)),
            }
        });
        // A call cancelled before its deadline takes its work with it.
        let guard = AbortOnDrop(Some(handle.abort_handle()));
        match tokio::time::timeout(deadline, &mut handle).await {
            Ok(Ok(ended)) => return ended.map(Deferred::Ready),
            Ok(Err(join)) => return Err(join.into()),
            Err(_elapsed) => guard.disarm(),
        }
        let job = format!("j-{}", self.next.fetch_add(1, Ordering::Relaxed));
        self.lock().insert(
            job.clone(),
            Job::Running {
                tool: Arc::from(tool),
            },
        );
        let jobs = self.clone();
        let id = job.clone();
        tokio::spawn(async move {
            let limit = jobs.max_run.saturating_sub(started.elapsed());
            let ended = match tokio::time::timeout(limit, &mut handle).await {
                Ok(Ok(ended)) => ended,
                Ok(Err(join)) => Err(join.into()),
                Err(_) => {
                    handle.abort();
                    Err(ToolError::fault(format!(
                        "job {id} of {tool} ran past its limit of {:?} and was stopped",
                        jobs.max_run
                    )))
                }
            };
            let response = finish(tool, started, ended).await;
            jobs.lock().insert(id.clone(), Job::Done(response));
            tokio::time::sleep(jobs.keep).await;
            jobs.lock().remove(&id);
        });
        Ok(Deferred::Running(job))
    }

    /// The `job_status` tool that answers the polls; add it to the router
    /// of the server whose tools use these jobs.
    pub fn status_tool<S: MaybeSend + 'static>(&self) -> ToolRoute<S> {
        let schema: JsonObject = match serde_json::json!({
            "type": "object",
            "properties": {
                "job": { "type": "string", "description": "The job a long-running tool answered with." }
            },
            "required": ["job"]
        }) {
            Value::Object(schema) => schema,
            _ => unreachable!("the schema is an object"),
        };
        let attr = Tool::new(
            STATUS_TOOL,
            "Return the result of a job that a long-running tool started, or say that it \
             is still running.",
            Arc::new(schema),
        );
        let jobs = self.clone();
        let route = ToolRoute::new_dyn(attr, move |context| {
            let job = context
                .arguments
                .as_ref()
                .and_then(|arguments| arguments.get("job"))
                .and_then(Value::as_str)
                .map(str::to_owned);
            let answer = jobs.status(job.as_deref());
            Box::pin(async move { answer })
        });
        crate::routes::mark(&route.call);
        route
    }

    fn status(&self, job: Option<&str>) -> Result<CallToolResponse, ErrorData> {
        let Some(job) = job else {
            return ToolError::invalid(
                format_args!("The argument job of {STATUS_TOOL} is missing"),
                format_args!("Call {STATUS_TOOL} again with the job a tool answered with"),
            )
            .into_call_tool_result();
        };
        match self.lock().get(job) {
            Some(Job::Running { tool }) => {
                let text = format!(
                    "Job {} of {tool} is still running. Call {STATUS_TOOL} with job set to {} \
                     again in a few seconds.",
                    quote(job),
                    quote(job)
                );
                Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
            }
            Some(Job::Done(answer)) => {
                logging::note(Note::Replayed);
                answer.clone()
            }
            None => ToolError::invalid(
                format_args!(
                    "No job {} is running or kept; a finished job's result is kept for {}",
                    quote(job),
                    match self.keep.as_secs() {
                        0 => "under a second".to_owned(),
                        1 => "a second".to_owned(),
                        seconds => format!("{seconds} seconds"),
                    }
                ),
                "Call the tool that started it again",
            )
            .into_call_tool_result(),
        }
    }
}

/// Aborts a spawned job's work when dropped, unless disarmed.
struct AbortOnDrop(Option<tokio::task::AbortHandle>);

impl AbortOnDrop {
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(handle) = self.0.take() {
            handle.abort();
        }
    }
}

/// Ends a job's call as the inline call would have ended: its answer, and
/// its log lines, once.
async fn finish<T: IntoCallToolResult>(
    tool: &'static str,
    started: Instant,
    ended: Result<T, ToolError>,
) -> Result<CallToolResponse, ErrorData> {
    let scope = CallScope {
        tool: tool.into(),
        report: Default::default(),
        stashed: Default::default(),
        note: Default::default(),
    };
    CALL.scope(scope, async move {
        let response = match ended {
            Ok(value) => value.into_call_tool_result(),
            Err(error) => error.into_call_tool_result(),
        };
        let elapsed = started.elapsed().as_micros() as f64 / 1000.0;
        let report = CALL.with(|call| call.report.get());
        match (&response, report) {
            (Ok(_), Some(report)) => logging::call_failed_as(tool, report, elapsed),
            (Ok(_), None) => logging::call_completed(tool, elapsed),
            (Err(error), _) => logging::call_protocol(tool, error.code.0, elapsed),
        }
        response
    })
    .await
}
