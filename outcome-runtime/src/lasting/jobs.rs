//! Long-running tools: past a deadline, the call answers with a job the
//! model polls, and the work goes on.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::handler::server::tool::{IntoCallToolResult, ToolRoute};
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, JsonObject, Tool};
use rmcp::service::MaybeSend;
use serde_json::Value;
// tokio's clock, not the system's: a test that pauses time (tokio's
// `start_paused`) sees jobs end and expire as its timers do.
use tokio::time::Instant;
use tracing::{Level, Span};

use crate::answer::error::ToolError;
use crate::base::message::quote;
use crate::base::panics::{CatchPanic, catch};
use crate::base::report::{self, Report};
use crate::base::scope::{CALL, CallScope, Session};
use crate::call::fault::{answer, caught_panic};
use crate::lasting::job_store::{
    JobState, JobStore, MemoryStore, NewJob, Owner, StoreError, StoredAnswer, StoredJob,
};
use crate::logs::records;
use crate::logs::request_log;
use crate::logs::telemetry::Telemetry;

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
/// The jobs live in this process's memory unless they are given a store
/// ([`with_store`](Self::with_store)): with the `redis` feature,
/// `Jobs::redis` keeps them in Redis, where every replica of the server
/// answers every poll and a replica that restarts forgets nothing. See
/// [`job_store`](crate::job_store) for what binds a job to a session in
/// each store, and for what the model reads when the store fails.
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
    store: Arc<dyn JobStore>,
    keep: Duration,
    max_run: Duration,
    store_timeout: Duration,
    /// Whether a request's `Mcp-Session-Id` names a session (rmcp's
    /// stateful mode) that a job is bound to.
    http_sessions: bool,
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
                let text = running_text(job.as_str());
                let mut answer = Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into());
                report::attach(&mut answer, &Report::Deferred);
                answer
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
    /// Jobs in this process's memory that may run for 10 minutes and whose
    /// answers are kept for 5, at most
    /// [`DEFAULT_CAPACITY`](crate::job_store::DEFAULT_CAPACITY) of them at
    /// once; `Jobs::with_store(MemoryStore::with_capacity(n))` holds
    /// another number ([`MemoryStore`]).
    pub fn new() -> Self {
        Jobs::with_store(MemoryStore::new())
    }

    /// Jobs kept in `store`, with the bounds of [`new`](Self::new).
    pub fn with_store(store: impl JobStore) -> Self {
        crate::recognize_transient::<StoreError>();
        Jobs {
            store: Arc::new(store),
            keep: Duration::from_secs(300),
            max_run: Duration::from_secs(600),
            store_timeout: Duration::from_secs(2),
            http_sessions: true,
        }
    }

    /// Jobs kept in the Redis at `url` (`redis://127.0.0.1:6379`), shared
    /// by every replica of the server that uses it; see
    /// [`RedisStore`](crate::job_store::RedisStore) for the keys and their
    /// expiries. Connects on the first job; must be called inside a tokio
    /// runtime.
    #[cfg(feature = "redis")]
    pub fn redis(url: &str) -> Result<Self, StoreError> {
        crate::lasting::job_store::RedisStore::open(url).map(Jobs::with_store)
    }

    /// How long one operation of the store may take before the call or the
    /// poll that waits on it answers a fault that heals itself (2 seconds
    /// unless set).
    pub fn with_store_timeout(mut self, timeout: Duration) -> Self {
        self.store_timeout = timeout;
        self
    }

    /// Whether the server's streamable HTTP transport keeps sessions, as
    /// rmcp's `legacy_session_mode` says (true unless set, as rmcp's).
    ///
    /// With sessions, rmcp checks each request's `Mcp-Session-Id`, and a
    /// job is bound to the session that started it. Without (`false`, for
    /// `legacy_session_mode = false`), the header names nothing rmcp
    /// checks, and no job is bound to it: whoever holds a job's id reads
    /// it, whatever header a request sends. A server in rmcp's stateless
    /// mode need not say so: a request rmcp serves without a session is
    /// read as one (see the [jobs guide](crate::guide::jobs)), and so is a
    /// request of protocol 2026-07-28's stateless lifecycle. On stdio the
    /// connection is the session, whatever this says.
    pub fn with_http_sessions(mut self, http_sessions: bool) -> Self {
        self.http_sessions = http_sessions;
        self
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

    /// How many jobs are held, running or finished; 0 for a store that
    /// cannot count them without a round trip (Redis).
    pub fn len(&self) -> usize {
        self.store.held().unwrap_or(0)
    }

    /// Whether no job is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The HTTP session id a request's jobs are bound to: its
    /// `Mcp-Session-Id`, unless the transport keeps no sessions.
    fn session_id<'a>(&self, session: &'a Session) -> Option<&'a [u8]> {
        match self.http_sessions {
            true => session.id.as_ref().map(http::HeaderValue::as_bytes),
            false => None,
        }
    }

    /// Waits for one of the store's operations, at most the store timeout.
    async fn stored<T>(
        &self,
        operation: impl Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        match tokio::time::timeout(self.store_timeout, operation).await {
            Ok(done) => done,
            Err(_elapsed) => Err(StoreError::timed_out(self.store_timeout)),
        }
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
    /// lifecycle, or a server whose jobs are told so with
    /// [`with_http_sessions(false)`](Self::with_http_sessions)), the id
    /// itself is the capability: whoever holds it reads the answer. Over
    /// HTTP, in memory as in a store outside the process (Redis), the
    /// session is its `Mcp-Session-Id`, which every replica that serves the
    /// session sees alike; the job keeps a 128-bit key of it, not the
    /// header, so its record costs a few hundred bytes plus its answer
    /// whatever the client sends.
    ///
    /// When the store cannot record the job (it fails, or does not answer
    /// within the store timeout), the work is stopped, since no poll could
    /// ever read it, and the call answers a fault that heals itself.
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
        // Outside a call there is no session to bind the job to.
        let owner = CALL
            .try_with(|call| {
                Owner::local(call.session.params.as_ref(), self.session_id(&call.session))
            })
            .unwrap_or_default();
        let id = new_id()?;
        let job = NewJob {
            tool: tool.to_string(),
            owner,
            runs_for: self.max_run.saturating_sub(started.elapsed()),
            keep: self.keep,
        };
        // Unrecorded, no poll could read it: `?` drops `work`, aborting it.
        self.stored(self.store.start(id.as_str(), job))
            .await
            .map_err(StoreError::into_fault)?;
        let mut settle = JobFinisher {
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
            settle.settle(ended).await;
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
            let arguments = context.arguments.as_ref();
            match arguments.and_then(|arguments| arguments.get("job")) {
                Some(Value::String(job)) => {
                    let poll = Session::of(&context.request_context);
                    let (jobs, job) = (jobs.clone(), job.clone());
                    Box::pin(async move { jobs.status(&job, poll).await })
                }
                // Missing, or not a string: the model's to fix, told as any
                // argument that does not fit.
                _ => {
                    let answer = ToolError::invalid_text(crate::answer::arguments::message(
                        STATUS_TOOL,
                        &schema,
                        arguments,
                        None,
                    ));
                    let answer = crate::call::fault::answer(answer, None);
                    Box::pin(std::future::ready(answer))
                }
            }
        });
        crate::call::routes::mark(&route.call);
        route
    }

    async fn status(&self, job: &str, poll: Session) -> Result<CallToolResponse, ErrorData> {
        if !is_job_id(job) {
            // No `Jobs` ever made this id: the model's to fix.
            return answer(
                ToolError::invalid(
                    format_args!("{} is not a job id", quote(job)),
                    format_args!(
                        "Call {STATUS_TOOL} with job set to the id exactly as the long-running \
                     tool's answer gave it, 'j-' and 32 hex digits"
                    ),
                ),
                None,
            );
        }
        let found = match self.stored(self.store.get(job)).await {
            Ok(found) => found,
            Err(error) => return answer(error.into_fault(), None),
        };
        let found = found.filter(|found| {
            found
                .owner
                .admits(poll.params.as_ref(), self.session_id(&poll))
        });
        let Some(found) = found else {
            return self.unknown(job);
        };
        let answer = match found.state {
            JobState::Running { overdue: false } => {
                let text = format!(
                    "Job {} of {} is still running. Call {STATUS_TOOL} with job set to {} \
                     again in a few seconds.",
                    quote(job),
                    found.tool,
                    quote(job)
                );
                return Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into());
            }
            JobState::Running { overdue: true } => match self.overdue(job, &found.tool).await {
                Ok(answer) => answer,
                Err(error) => return answer(error.into_fault(), None),
            },
            JobState::Done(answer) => Some(*answer),
        };
        match answer {
            Some(answer) => {
                let mut answer = answer.map(CallToolResponse::from);
                report::attach(&mut answer, &Report::Replayed);
                answer
            }
            // Gone between two reads: expired.
            None => self.unknown(job),
        }
    }

    /// What a poll reads of a job the store does not hold, or holds for
    /// another session. Expired, lost and foreign jobs look alike, and the
    /// work may have taken effect, so the model is not sent to run it again:
    /// a fault that heals itself (WARNING), as nothing the model changes
    /// helps; `job_answer_lost` tells an operator of a lost answer.
    fn unknown(&self, job: &str) -> Result<CallToolResponse, ErrorData> {
        let lost = ToolError::retry_later(format_args!(
            "No result is kept for job {}: a result is kept for {} after its work ends, \
             and the server may have lost this one. The work may have taken effect, so tell \
             the user before you call the tool that started it again.",
            quote(job),
            match self.keep.as_secs() {
                0 => "under a second".to_owned(),
                1 => "a second".to_owned(),
                seconds => format!("{seconds} seconds"),
            }
        ));
        answer(lost, None)
    }

    /// Settles a job found running past its deadline as a fault: whatever
    /// should have answered it (its bookkeeping, or the replica that ran
    /// it) is gone. Only the one settling that wins logs the job's lines;
    /// the others read its answer.
    async fn overdue(&self, job: &str, tool: &str) -> Result<Option<StoredAnswer>, StoreError> {
        let now = Instant::now();
        let failed = || {
            Err::<String, _>(ToolError::fault(format!(
                "job {job} of {tool} reached its limit of {:?} with no answer",
                self.max_run
            )))
        };
        let telemetry = Telemetry::job(tool, &Span::current(), None);
        // The answer first, unlogged: the log gets it only if it is the one
        // recorded.
        let answer =
            tracing::subscriber::with_default(tracing::subscriber::NoSubscriber::new(), || {
                end_job(&Telemetry::none(), tool, now, failed())
            });
        if self
            .stored(self.store.finish(job, answer.clone(), self.keep))
            .await?
        {
            let _inside = telemetry.enter();
            let _logged = end_job(&telemetry, tool, now, failed());
            return Ok(Some(answer));
        }
        let found = self.stored(self.store.get(job)).await?;
        Ok(found.and_then(|found| match found.state {
            JobState::Done(answer) => Some(*answer),
            JobState::Running { .. } => None,
        }))
    }

    /// Records a finished job's answer; if the store fails, logs the loss
    /// and forgets the job.
    async fn keep_answer(&self, id: &str, tool: &str, answer: StoredAnswer) {
        if let Err(error) = self.stored(self.store.finish(id, answer, self.keep)).await {
            answer_lost(tool, id, &crate::answer::classify::chain_text(&error));
            self.forget(id).await;
        }
    }

    /// Drops the record of a job whose answer was lost, so its polls read
    /// an unknown job, not "still running" until its deadline. If this
    /// fails too, they read the store's fault, then "still running" until
    /// the deadline settles the job as a fault.
    async fn forget(&self, id: &str) {
        let _ = self.stored(self.store.forget(id)).await;
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
struct JobFinisher {
    jobs: Jobs,
    id: String,
    tool: Arc<str>,
    started: Instant,
    /// The work's span, until the job is settled: the span ends then, not
    /// when its answer is swept.
    telemetry: Option<Telemetry>,
}

/// What became of a finished job's answer in the store.
enum Recorded {
    /// Recorded: polls read it.
    Kept,
    /// Lost, for the reason given: polls read what an unknown job reads.
    Lost(String),
    /// The job was settled already, by a poll that found it past its
    /// deadline: polls read that fault, whose line was written then.
    SettledBefore,
}

impl JobFinisher {
    /// Ends the job as `ended` says, once: records its answer, then writes
    /// the call's final line by what the store did with it. Kept: the inline
    /// call's lines. Lost: `job_answer_lost` and a WARNING fault (the
    /// server's, never the model's). Settled first by a poll:
    /// `job_answer_lost` only, as that poll wrote the final line.
    ///
    /// The span stays in `self` until the store answers, so bookkeeping
    /// dropped while waiting (a runtime shutting down) still writes a final
    /// line, from the drop.
    async fn settle<T: IntoCallToolResult>(&mut self, ended: Result<T, ToolError>) {
        let Some(telemetry) = &self.telemetry else {
            return;
        };
        let concluded = {
            let _inside = telemetry.enter();
            conclude(&self.tool, ended)
        };
        let duration_ms = records::millis(self.started.elapsed());
        let jobs = &self.jobs;
        let kept = match jobs
            .stored(jobs.store.finish(&self.id, concluded.answer(), jobs.keep))
            .await
        {
            Ok(true) => Recorded::Kept,
            Ok(false) => match jobs.stored(jobs.store.get(&self.id)).await {
                Ok(Some(StoredJob {
                    state: JobState::Done(_),
                    ..
                })) => Recorded::SettledBefore,
                Ok(_) => Recorded::Lost(
                    "the job store no longer holds the job's record (evicted, flushed, or \
                     lost in a restart)"
                        .to_owned(),
                ),
                Err(error) => Recorded::Lost(crate::answer::classify::chain_text(&error)),
            },
            Err(error) => Recorded::Lost(crate::answer::classify::chain_text(&error)),
        };
        if let Recorded::Lost(_) = kept {
            jobs.forget(&self.id).await;
        }
        let Some(telemetry) = self.telemetry.take() else {
            return;
        };
        let _inside = telemetry.enter();
        match kept {
            Recorded::Kept => concluded.log(&telemetry, &self.tool, duration_ms),
            Recorded::Lost(reason) => {
                answer_lost(&self.tool, &self.id, &reason);
                request_log::call_failed(
                    &telemetry,
                    Level::WARN,
                    &self.tool,
                    crate::base::outcome::Outcome::Fault,
                    duration_ms,
                    Some(ANSWER_LOST),
                    None,
                );
            }
            Recorded::SettledBefore => answer_lost(
                &self.tool,
                &self.id,
                "a poll settled the job as a fault before its work ended",
            ),
        }
    }

    /// Ends the job as `ended` says, once: its call's log lines written in
    /// the work's span, and its answer to record; `None` when it was ended
    /// already.
    fn conclude_now<T: IntoCallToolResult>(
        &mut self,
        ended: Result<T, ToolError>,
    ) -> Option<StoredAnswer> {
        let telemetry = self.telemetry.take()?;
        let _inside = telemetry.enter();
        Some(end_job(&telemetry, &self.tool, self.started, ended))
    }
}

impl Drop for JobFinisher {
    fn drop(&mut self) {
        let failed = Err::<String, _>(ToolError::fault(format!(
            "the bookkeeping of job {} of {} ended before the job did",
            self.id, self.tool
        )));
        let Some(answer) = self.conclude_now(failed) else {
            return;
        };
        // No waiting in a drop: a store that answers at once (memory) is
        // written now, any other from a task of its own, if the runtime
        // still runs one. If neither can, the job's polls settle it when
        // its deadline passes.
        let jobs = self.jobs.clone();
        let (id, tool) = (std::mem::take(&mut self.id), Arc::clone(&self.tool));
        let mut record = Box::pin(async move { jobs.keep_answer(&id, &tool, answer).await });
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        if record.as_mut().poll(&mut context).is_pending()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            runtime.spawn(record);
        }
    }
}

/// A fresh [`JobId`], from the operating system's random source.
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

/// [`conclude`], logged: the job's answer, and its call's lines, once.
fn end_job<T: IntoCallToolResult>(
    telemetry: &Telemetry,
    tool: &str,
    started: Instant,
    ended: Result<T, ToolError>,
) -> StoredAnswer {
    let concluded = conclude(tool, ended);
    concluded.log(telemetry, tool, records::millis(started.elapsed()));
    concluded.into_answer()
}

/// The `error.type` of a job whose answer was lost.
const ANSWER_LOST: &str = "job_answer_lost";

/// `job_answer_lost`, at WARNING: a job's answer that no poll can read.
fn answer_lost(tool: &str, job: &str, reason: &str) {
    records::event_at!(
        Level::WARN,
        tool = &*crate::base::bounds::bounded(tool),
        job,
        error = &*crate::base::bounds::bounded_text(reason),
        "job_answer_lost"
    );
}

/// How a job's call ended, before anything but the boundary's own record
/// is logged.
struct JobEnding {
    response: Result<CallToolResponse, ErrorData>,
    report: Option<Report>,
}

impl JobEnding {
    /// The call's final line.
    fn log(&self, telemetry: &Telemetry, tool: &str, duration_ms: f64) {
        crate::call::ending::log_answer(
            telemetry,
            tool,
            &self.response,
            self.report.as_ref(),
            duration_ms,
        );
    }

    /// The answer a poll reads, cloned: this is logged once the store says
    /// what became of it.
    fn answer(&self) -> StoredAnswer {
        Self::poll_answer(self.response.clone())
    }

    /// The answer a poll reads.
    fn into_answer(self) -> StoredAnswer {
        Self::poll_answer(self.response)
    }

    fn poll_answer(response: Result<CallToolResponse, ErrorData>) -> StoredAnswer {
        response.map(|response| match response {
            CallToolResponse::Complete(result) => result,
            // Made a fault by `conclude`, which is a result.
            _ => CallToolResult::error(vec![ContentBlock::text(
                crate::base::message::FAULT_MESSAGE,
            )]),
        })
    }
}

/// Turns how a job's work ended into the answer the inline call would have
/// given. Whatever the value or the error do while they turn into an answer
/// (fail to serialize, panic), the job ends.
fn conclude<T: IntoCallToolResult>(tool: &str, ended: Result<T, ToolError>) -> JobEnding {
    let scope = CallScope {
        tool: tool.to_owned().into(),
        ..CallScope::default()
    };
    CALL.sync_scope(scope, || {
        let converted = catch(|| match ended {
            Ok(value) => value.into_call_tool_result(),
            Err(error) => answer(error, Some(tool)),
        });
        let mut response = match converted {
            Ok(answer) => answer,
            Err(payload) => answer(caught_panic(tool, payload), Some(tool)),
        };
        let mut report = report::take(&mut response);
        // The value did not become an answer: a fault of this call.
        let protocol = report.as_ref().is_some_and(Report::is_protocol);
        response = match response {
            Err(error) if !protocol => {
                let mut fault = answer(ToolError::from(error), Some(tool));
                report = report::take(&mut fault);
                fault
            }
            kept => kept,
        };
        // A job hands over a result or an error; an answer that asks the
        // client for input or makes a task has no one to go to, and the
        // job ends as a fault.
        if !matches!(response, Ok(CallToolResponse::Complete(_)) | Err(_)) {
            response = answer(
                ToolError::fault(format!(
                    "job of {tool} answered with a request for input or a task, which a job \
                     cannot hand over"
                )),
                Some(tool),
            );
            report = report::take(&mut response);
        }
        JobEnding { response, report }
    })
}

/// Whether `id` has the shape of the ids [`new_id`] makes.
fn is_job_id(id: &str) -> bool {
    id.strip_prefix("j-").is_some_and(|hex| {
        hex.len() == 32
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}
