//! Long-running tools: past a deadline, the call answers with a job the
//! model polls, and the work goes on.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::handler::server::tool::{IntoCallToolResult, ToolRoute};
use rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, InitializeRequestParams, JsonObject, Tool,
};
use rmcp::service::MaybeSend;
use serde_json::Value;
// tokio's clock, not the system's: a test that pauses time (tokio's
// `start_paused`) sees jobs end and expire as its timers do.
use tokio::time::Instant;
use tracing::Span;

use crate::boundary::{CatchPanic, catch, caught_panic};
use crate::call::{self, CALL, CallScope, Note};
use crate::error::ToolError;
use crate::logging;
use crate::message::quote;
use crate::telemetry::Telemetry;

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
///         self.jobs.run(Duration::from_secs(5), work).await
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
    keep: Duration,
    max_run: Duration,
}

struct Job {
    tool: Arc<str>,
    /// The session that started the job, by the allocation of its client's
    /// `initialize` parameters (a `Weak` keeps the address from being
    /// reused while the job lives); `None` without a session.
    owner: Option<Weak<InitializeRequestParams>>,
    /// When the job must have ended: `max_run` after the call started.
    deadline: Instant,
    state: State,
}

enum State {
    Running,
    /// The answer, kept until the instant given.
    Done(Box<Result<CallToolResponse, ErrorData>>, Instant),
}

/// A long-running tool's answer: the value, or the job to poll for it.
pub enum Deferred<T> {
    /// The work ended before the deadline.
    Ready(T),
    /// The work goes on as this job.
    Running(JobId),
}

/// A job's id, as the model reads it and passes it back to `job_status`:
/// `j-` and 128 random bits in hex. Opaque: its text is for display and
/// logs, and only [`Jobs`] makes one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct JobId(String);

impl JobId {
    /// The id as the model reads it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for JobId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl<T: IntoCallToolResult> IntoCallToolResult for Deferred<T> {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        match self {
            Deferred::Ready(value) => value.into_call_tool_result(),
            Deferred::Running(job) => {
                call::note(Note::Deferred);
                let text = running_text(job.as_str());
                Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
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

    /// The jobs, without those past their bounds: an answer kept past
    /// `keep`, and a job whose bookkeeping ended without an answer and that
    /// nobody polled for `keep` after its deadline.
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Job>> {
        let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        jobs.retain(|_, job| match job.state {
            State::Running => now < job.deadline + self.keep,
            State::Done(_, until) => now < until,
        });
        jobs
    }

    /// Runs `work` for `tool`, waiting at most `deadline` for it.
    ///
    /// The work must own what it uses (clone it in), since it may outlive
    /// the call. It ends by the boundary's rules wherever it ends: a
    /// `ToolError` keeps its outcome, any other error and any panic is a
    /// fault, logged once.
    ///
    /// Past the deadline the model reads a job id to poll: 128 bits from
    /// the operating system's random source, so it cannot be guessed. A job
    /// is read only from the session that started it; any other session
    /// reads what an unknown id reads. Where there is no session (a
    /// stateless transport, or a request of protocol 2026-07-28's stateless
    /// lifecycle), the id itself is the capability: whoever holds it reads
    /// the answer.
    ///
    /// The job is the tool's that runs it: its name comes from the call.
    pub async fn run<T, F>(&self, deadline: Duration, work: F) -> Result<Deferred<T>, ToolError>
    where
        T: IntoCallToolResult + Send + 'static,
        F: Future<Output = Result<T, ToolError>> + Send + 'static,
    {
        // Outside a call (a body called directly, as in a unit test) the
        // job still runs, under a name that says so.
        let tool: Arc<str> = CALL
            .try_with(|call| Arc::from(&*call.tool))
            .unwrap_or_else(|_| Arc::from("a tool called outside a tools/call"));
        let started = Instant::now();
        // The work runs on a task of its own, in a span that outlives the
        // call's when the call answers with the job.
        let ids = CALL.try_with(|call| call.ids.clone()).ok().flatten();
        let telemetry = Telemetry::job(&tool, &Span::current(), ids.as_deref());
        let work_tool = Arc::clone(&tool);
        let handle = tokio::spawn(telemetry.share().instrument(async move {
            match CatchPanic::new(work).await {
                Ok(ended) => ended,
                Err(payload) => Err(caught_panic(&work_tool, payload)),
            }
        }));
        // A call cancelled before its deadline takes its work with it, and
        // so does bookkeeping that ends early.
        let mut work = AbortOnDrop(handle);
        match tokio::time::timeout(deadline, &mut work.0).await {
            Ok(Ok(ended)) => return ended.map(Deferred::Ready),
            Ok(Err(join)) => return Err(join.into()),
            Err(_elapsed) => {}
        }
        let id = new_id()?;
        let owner = CALL
            .try_with(|call| call.session.as_ref().map(Arc::downgrade))
            .ok()
            .flatten();
        self.lock().insert(
            id.as_str().to_owned(),
            Job {
                tool: Arc::clone(&tool),
                owner,
                deadline: started + self.max_run,
                state: State::Running,
            },
        );
        let mut settle = Settle {
            jobs: self.clone(),
            id: id.as_str().to_owned(),
            tool,
            started,
            telemetry: Some(telemetry),
        };
        let bookkeeping = async move {
            let limit = settle.jobs.max_run.saturating_sub(started.elapsed());
            let ended = match tokio::time::timeout(limit, &mut work.0).await {
                Ok(Ok(ended)) => ended,
                Ok(Err(join)) => Err(join.into()),
                Err(_) => Err(ToolError::fault(format!(
                    "job {} of {} ran past its limit of {:?} and was stopped",
                    settle.id, settle.tool, settle.jobs.max_run
                ))),
            };
            drop(work);
            settle.settle(ended);
            let keep = settle.jobs.keep;
            tokio::time::sleep(keep).await;
            // Taking the lock sweeps the answer, now past its keep.
            drop(settle.jobs.lock());
        };
        tokio::spawn(bookkeeping);
        Ok(Deferred::Running(id))
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
        let schema = attr.input_schema.clone();
        let route = ToolRoute::new_dyn(attr, move |context| {
            let session = context.request_context.peer.peer_info();
            let arguments = context.arguments.as_ref();
            let answer = match arguments.and_then(|arguments| arguments.get("job")) {
                Some(Value::String(job)) => jobs.status(job, session.as_ref()),
                // Missing, or not a string: the model's to fix, told as any
                // argument that does not fit.
                _ => ToolError::invalid_text(crate::arguments::message(
                    STATUS_TOOL,
                    &schema,
                    arguments,
                    None,
                ))
                .into_call_tool_result(),
            };
            Box::pin(async move { answer })
        });
        crate::routes::mark(&route.call);
        route
    }

    fn status(
        &self,
        job: &str,
        session: Option<&Arc<InitializeRequestParams>>,
    ) -> Result<CallToolResponse, ErrorData> {
        let mut jobs = self.lock();
        let entry = jobs
            .get_mut(job)
            .filter(|entry| match (&entry.owner, session) {
                (None, _) => true,
                (Some(owner), Some(session)) => std::ptr::eq(owner.as_ptr(), Arc::as_ptr(session)),
                (Some(_), None) => false,
            });
        let Some(entry) = entry else {
            drop(jobs);
            return ToolError::invalid(
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
            .into_call_tool_result();
        };
        let now = Instant::now();
        if matches!(entry.state, State::Running) && now >= entry.deadline {
            // Past its deadline the bookkeeping has settled every job; one
            // still running lost its bookkeeping (a runtime shutting down
            // drops tasks), so it ends here, as the fault it is.
            let failed = Err(ToolError::fault(format!(
                "job {job} of {} reached its limit of {:?} with no answer",
                entry.tool, self.max_run
            )));
            let telemetry = Telemetry::job(&entry.tool, &Span::current(), None);
            let answer = {
                let _inside = telemetry.enter();
                finish::<String>(&telemetry, &entry.tool, now, failed)
            };
            entry.state = State::Done(Box::new(answer), now + self.keep);
        }
        match &entry.state {
            State::Running => {
                let text = format!(
                    "Job {} of {} is still running. Call {STATUS_TOOL} with job set to {} \
                     again in a few seconds.",
                    quote(job),
                    entry.tool,
                    quote(job)
                );
                Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
            }
            State::Done(answer, _) => {
                call::note(Note::Replayed);
                (**answer).clone()
            }
        }
    }
}

/// Aborts a spawned job's work when dropped.
struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Settles a job: its answer when the work ends, and the fault answer if the
/// bookkeeping itself ends first, so no job can say "still running" for
/// ever.
struct Settle {
    jobs: Jobs,
    id: String,
    tool: Arc<str>,
    started: Instant,
    /// The work's span, until the job is settled: the span ends then, not
    /// when its answer is swept.
    telemetry: Option<Telemetry>,
}

impl Settle {
    /// Ends the job as `ended` says, once: its answer kept for the polls,
    /// its call's log lines written in the work's span.
    fn settle<T: IntoCallToolResult>(&mut self, ended: Result<T, ToolError>) {
        let Some(telemetry) = self.telemetry.take() else {
            return;
        };
        let answer = {
            let _inside = telemetry.enter();
            finish(&telemetry, &self.tool, self.started, ended)
        };
        let until = Instant::now() + self.jobs.keep;
        if let Some(job) = self.jobs.lock().get_mut(&self.id) {
            job.state = State::Done(Box::new(answer), until);
        }
    }
}

impl Drop for Settle {
    fn drop(&mut self) {
        let failed = Err::<String, _>(ToolError::fault(format!(
            "the bookkeeping of job {} of {} ended before the job did",
            self.id, self.tool
        )));
        self.settle(failed);
    }
}

/// A job id: 128 bits from the operating system's random source.
fn new_id() -> Result<JobId, ToolError> {
    let mut bytes = [0_u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|error| ToolError::fault(format!("no random job id could be made: {error}")))?;
    let mut id = String::with_capacity(2 + 2 * bytes.len());
    id.push_str("j-");
    for byte in bytes {
        id.push_str(&format!("{byte:02x}"));
    }
    Ok(JobId(id))
}

/// Ends a job's call as the inline call would have ended: its answer, and
/// its log lines, once. Whatever the value or the error do while they turn
/// into an answer (fail to serialize, panic), the job ends.
fn finish<T: IntoCallToolResult>(
    telemetry: &Telemetry,
    tool: &str,
    started: Instant,
    ended: Result<T, ToolError>,
) -> Result<CallToolResponse, ErrorData> {
    let scope = CallScope {
        tool: tool.to_owned().into(),
        ..CallScope::default()
    };
    CALL.sync_scope(scope, || {
        let converted = catch(|| match ended {
            Ok(value) => value.into_call_tool_result(),
            Err(error) => error.into_call_tool_result(),
        });
        let report = CALL.with(|call| call.report.get());
        let response = match converted {
            Ok(Err(error)) if report.is_some_and(|r| r.protocol) => Err(error),
            // The value did not become an answer: a fault of this call.
            Ok(Err(error)) => ToolError::from(error).into_call_tool_result(),
            Ok(answer) => answer,
            Err(payload) => caught_panic(tool, payload).into_call_tool_result(),
        };
        let elapsed = started.elapsed().as_micros() as f64 / 1000.0;
        let report = CALL.with(|call| call.report.get());
        logging::call_ended(telemetry, tool, &response, report, elapsed);
        response
    })
}
