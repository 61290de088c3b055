//! Long-running tools: past a deadline, the call answers with a job the
//! model polls, and the work goes on.

use std::borrow::Cow;
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
use tracing::Span;

use crate::answer::error::ToolError;
use crate::base::bounds::ToolName;
use crate::base::message::quote;
use crate::base::panics::CatchPanic;
use crate::base::report::{self, Report};
use crate::base::scope::{CALL, Session};
use crate::call::fault::{answer, caught_panic};
use crate::lasting::job_store::{
    JobState, JobStore, MemoryStore, NewJob, Owner, StoreError, StoredAnswer,
};
use crate::logs::telemetry::Telemetry;

mod finish;

use finish::{JobFinisher, answer_lost, end_job};

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
        crate::answer::classify::recognize_transient::<StoreError>();
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
    /// The job is the tool's that runs it: its name comes from the call,
    /// which must be `async`: a body that is not (one that blocks on this
    /// future) may be called with no session read (under
    /// [`tool_handler`](macro@crate::tool_handler)'s own router, which
    /// knows it runs whole), and a job it would leave past the deadline
    /// then ends the call as a fault that says so.
    pub async fn run<T, F>(&self, deadline: Duration, work: F) -> Result<Deferred<T>, ToolError>
    where
        T: IntoCallToolResult + Send + 'static,
        F: Future<Output = Result<T, ToolError>> + Send + 'static,
    {
        // Outside a call (a body called directly, as in a unit test) the
        // job still runs, under a name that says so.
        let tool = Arc::new(CALL.try_with(|call| call.tool.clone()).unwrap_or_else(|_| {
            ToolName::new(Cow::Borrowed("a tool called outside a tools/call"))
        }));
        let started = Instant::now();
        // The work runs on a task of its own, in a span that outlives the
        // call's when the call answers with the job.
        let ids = CALL.try_with(|call| call.ids.clone()).ok().flatten();
        let telemetry = Telemetry::job(&tool.logged(), &Span::current(), ids.as_deref());
        let work_tool = Arc::clone(&tool);
        let handle = tokio::spawn(telemetry.share().instrument(async move {
            match CatchPanic::new(work).await {
                Ok(ended) => ended,
                Err(payload) => Err(caught_panic(&work_tool.logged(), payload)),
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
        // Outside a call there is no session to bind the job to; a body
        // that runs whole (a sync tool blocking on the job) never read its
        // call's, and a job bound to none would be anyone's to read.
        let owner = match CALL.try_with(|call| {
            let session = call.session.as_ref()?;
            Some(Owner::local(
                session.params.as_ref(),
                self.session_id(session),
            ))
        }) {
            Ok(Some(owner)) => owner,
            Ok(None) => {
                return Err(ToolError::fault(
                    "a job outlived its deadline in a tool whose body is not async: such a \
                     body cannot wait on a job, and its job would be bound to no session; \
                     make the tool async",
                ));
            }
            Err(_outside) => Owner::default(),
        };
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
        let tool = &ToolName::new(Cow::Owned(tool.to_owned()));
        let failed = || {
            Err::<String, _>(ToolError::fault(format!(
                "job {job} of {tool} reached its limit of {:?} with no answer",
                self.max_run
            )))
        };
        let telemetry = Telemetry::job(&tool.logged(), &Span::current(), None);
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
    async fn keep_answer(&self, id: &str, tool: &ToolName, answer: StoredAnswer) {
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

/// Whether `id` has the shape of the ids [`new_id`] makes.
fn is_job_id(id: &str) -> bool {
    id.strip_prefix("j-").is_some_and(|hex| {
        hex.len() == 32
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}
