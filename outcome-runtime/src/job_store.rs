//! Where [`Jobs`](crate::Jobs) keep their jobs: in this process's memory
//! (the default), in Redis (feature `redis`), or in a store of your own.
//!
//! A store holds, for each job id, the job's record: the tool that runs
//! it, the session it is bound to, when it must have ended, and its answer
//! once it has one. [`Jobs`](crate::Jobs) decide everything else: the store
//! only keeps records, and says whether a running job is past its deadline
//! by its own clock.
//!
//! | store | a job outlives | what binds a job to a session |
//! |---|---|---|
//! | [`MemoryStore`] | nothing: it lives in this process | over streamable HTTP, the call's `Mcp-Session-Id`; on stdio, the connection (its client's `initialize` parameters, by allocation). Another session reads what an unknown id reads. Without a session id (rmcp's stateless mode, the stateless lifecycle) the 128-bit id is the capability |
//! | `RedisStore` (feature `redis`) | a replica that dies or restarts: every replica that shares the store answers every poll | the call's `Mcp-Session-Id` over streamable HTTP ([`Owner::session`]), which a poll's must match: another session reads what an unknown id reads. Without one (stdio, stateless HTTP, the stateless lifecycle) the 128-bit id is the capability, whoever polls it |

//!
//! # When a store loses a job
//!
//! | what happened | the log | what a poll reads |
//! |---|---|---|
//! | the record was evicted, flushed or lost in a restart while the work ran | when the work ends: WARNING `job_answer_lost`, then the call's one final line, WARNING `tool_call_failed` fault | that no result is kept for the job and its work may have taken effect (WARNING fault) |
//! | the store refused the answer (too large) or failed when the work ended | the same; the record is dropped, so polls do not read "still running" | the same, at once |
//! | the store is down when the work ends, and stays down past the drop | the same | the store's fault while it is down (WARNING, retry); once back, "still running" until the job's deadline, then the fault of a job past it |
//! | a poll for an id the store does not hold (expired, lost, another session's, made up) | WARNING `tool_failed` and `tool_call_failed` fault | that no result is kept and the work may have taken effect: the server cannot tell these apart, so the model is never sent to run the tool again |
//! | a poll for an id no job could have (not `j-` and 32 hex digits) | INFO `tool_call_failed` invalid | that it is not a job id, and to pass the id as the tool gave it |

use std::error::Error;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, InitializeRequestParams};
// tokio's clock, not the system's: a test that pauses time (tokio's
// `start_paused`) sees jobs end and expire as its timers do.
use tokio::time::Instant;

use crate::error::ToolError;

#[cfg(feature = "redis")]
mod redis;
#[cfg(feature = "redis")]
pub use self::redis::RedisStore;
#[cfg(feature = "redis")]
pub(crate) use self::redis::{connect, once_more};

/// A finished job's answer: what the inline call would have answered.
pub type Answer = Result<CallToolResult, ErrorData>;

/// What a store's operation returns: a boxed future, so that the trait is
/// object-safe.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// A store of jobs' records, shared by every clone of the
/// [`Jobs`](crate::Jobs) that use it, and, for a store outside the process,
/// by every replica of the server.
///
/// [`Jobs`](crate::Jobs) bound every operation by their store timeout
/// ([`with_store_timeout`](crate::Jobs::with_store_timeout)): an operation
/// that fails or does not end in time makes the call or the poll a fault
/// that heals itself.
pub trait JobStore: Send + Sync + 'static {
    /// Records the new, running job `id`: it must have ended within
    /// `job.runs_for`, and its record is kept for `job.keep` past that, so
    /// that a poll then still finds it and settles it as a fault.
    fn start<'a>(&'a self, id: &'a str, job: NewJob) -> StoreFuture<'a, ()>;

    /// Records `answer` as job `id`'s, kept for `keep` from now, only if
    /// the job is still running: true if it was, false if it had an answer
    /// already or is gone. Atomic: of two replicas that settle one job at
    /// once, one answer wins.
    fn finish<'a>(&'a self, id: &'a str, answer: Answer, keep: Duration) -> StoreFuture<'a, bool>;

    /// The record of job `id`, if the store still keeps it.
    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredJob>>;

    /// Drops the record of job `id`, whatever its state: its answer was
    /// lost (the store refused it, or lost the record while the work ran),
    /// and a poll must read what an unknown job reads, not "still running"
    /// until the job's deadline. The default keeps the record: a store
    /// that cannot drop one leaves such polls to that deadline.
    fn forget<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()> {
        let _ = id;
        Box::pin(std::future::ready(Ok(())))
    }

    /// How many jobs the store holds, running or finished, when it can
    /// tell without a round trip; `None` otherwise.
    fn held(&self) -> Option<usize> {
        None
    }
}

/// A job as [`Jobs`](crate::Jobs) hand it to [`JobStore::start`].
#[derive(Clone, Debug)]
pub struct NewJob {
    /// The tool that runs it.
    pub tool: String,
    /// The session it is bound to.
    pub owner: Owner,
    /// How long from now it may still run: past that, a poll settles it as
    /// a fault.
    pub runs_for: Duration,
    /// How long a record is kept after the job ended, or after `runs_for`
    /// passed with no answer.
    pub keep: Duration,
}

/// A job as a store keeps it.
#[derive(Clone, Debug)]
pub struct StoredJob {
    /// The tool that runs it.
    pub tool: String,
    /// The session it is bound to.
    pub owner: Owner,
    /// Running, or done with its answer.
    pub state: JobState,
}

/// Whether a job is running or done.
#[derive(Clone, Debug)]
pub enum JobState {
    /// No answer yet. `overdue`: its deadline has passed by the store's
    /// clock, so the work that should answer it is gone.
    Running {
        /// Whether the job is past its deadline.
        overdue: bool,
    },
    /// The job's answer.
    Done(Box<Answer>),
}

/// The session a job is bound to: a poll from any other reads what an
/// unknown id reads.
///
/// In memory, the session is the client's `initialize` parameters, by
/// allocation; in a store outside the process, its `Mcp-Session-Id`
/// ([`session_id`](Self::session_id)). A job bound to neither is read by
/// whoever holds its id.
#[derive(Clone, Debug, Default)]
pub struct Owner {
    /// The starting session's `initialize` parameters (a `Weak` keeps the
    /// address from being reused while the job lives).
    local: Option<Weak<InitializeRequestParams>>,
    /// The starting request's `Mcp-Session-Id` header.
    session_id: Option<String>,
}

impl Owner {
    /// A job bound to no session: whoever holds its id reads it.
    pub fn anyone() -> Owner {
        Owner::default()
    }

    /// A job bound to the HTTP session `id` (its `Mcp-Session-Id`
    /// header): what a store outside the process keeps.
    pub fn session(id: impl Into<String>) -> Owner {
        Owner {
            local: None,
            session_id: Some(id.into()),
        }
    }

    /// The HTTP session the job is bound to, if any: what a store outside
    /// the process keeps of the owner.
    pub fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    /// The owner of a job started in the call in flight.
    pub(crate) fn local(
        session: Option<&Arc<InitializeRequestParams>>,
        session_id: Option<String>,
    ) -> Owner {
        Owner {
            local: session.map(Arc::downgrade),
            session_id,
        }
    }

    /// Whether a poll from `session` (its `initialize` parameters and its
    /// `Mcp-Session-Id`) may read the job.
    pub(crate) fn admits(
        &self,
        session: Option<&Arc<InitializeRequestParams>>,
        session_id: Option<&str>,
    ) -> bool {
        if let Some(owner) = &self.local {
            return session
                .is_some_and(|session| std::ptr::eq(owner.as_ptr(), Arc::as_ptr(session)));
        }
        match &self.session_id {
            Some(owner) => session_id == Some(owner.as_str()),
            None => true,
        }
    }
}

/// A store that failed or did not answer in time.
///
/// As a [`ToolError`] it is a fault that heals itself: the model reads
/// that a service did not answer and to retry in a minute, and the log gets
/// a WARNING with this error's text. (It is a [`Transient`](crate::Transient)
/// error, registered when [`Jobs`](crate::Jobs) get a store, so that `?` on
/// one in a tool's body heals itself too.)
#[derive(Debug)]
pub struct StoreError {
    text: String,
    source: Option<Box<dyn Error + Send + Sync>>,
}

impl StoreError {
    /// A store error that says `text`, caused by `source` when there is one.
    pub fn new(text: impl Into<String>, source: Option<Box<dyn Error + Send + Sync>>) -> Self {
        StoreError {
            text: text.into(),
            source,
        }
    }

    /// An operation that did not end within `timeout`.
    pub(crate) fn timed_out(timeout: Duration) -> Self {
        StoreError::new(
            format!("the job store did not answer within {timeout:?}"),
            None,
        )
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Error for StoreError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source
            .as_deref()
            .map(|source| source as &(dyn Error + 'static))
    }
}

impl crate::Transient for StoreError {
    /// Always: a store that did not answer is one that comes back.
    fn is_transient(&self) -> bool {
        true
    }
}

impl StoreError {
    /// The fault the call or the poll answers: one that heals itself (an
    /// I/O timeout in its chain), with this error's text for the log.
    pub(crate) fn into_fault(self) -> ToolError {
        ToolError::fault(std::io::Error::new(std::io::ErrorKind::TimedOut, self))
    }
}

/// The jobs in this process's memory: the default store.
///
/// A job lives as long as the process, and is read only from the session
/// that started it (by its client's `initialize` parameters). Its record is
/// dropped [`keep`](crate::Jobs::with_keep) after the job ended, or after
/// its deadline passed with no answer; records past their bound are swept
/// on every access.
#[derive(Clone, Default)]
pub struct MemoryStore {
    jobs: Arc<Mutex<std::collections::HashMap<String, MemoryJob>>>,
}

struct MemoryJob {
    tool: String,
    owner: Owner,
    /// When the job must have ended.
    deadline: Instant,
    /// How long the record is kept past its deadline with no answer.
    keep: Duration,
    state: MemoryState,
}

enum MemoryState {
    Running,
    /// The answer, kept until the instant given.
    Done(Box<Answer>, Instant),
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        MemoryStore::default()
    }

    /// The jobs, without those past their bounds: an answer kept past
    /// `keep`, and a job whose bookkeeping ended without an answer and that
    /// nobody polled for `keep` after its deadline.
    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, MemoryJob>> {
        let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        jobs.retain(|_, job| match job.state {
            MemoryState::Running => now < job.deadline + job.keep,
            MemoryState::Done(_, until) => now < until,
        });
        jobs
    }
}

impl JobStore for MemoryStore {
    fn start<'a>(&'a self, id: &'a str, job: NewJob) -> StoreFuture<'a, ()> {
        self.lock().insert(
            id.to_owned(),
            MemoryJob {
                tool: job.tool,
                owner: job.owner,
                deadline: Instant::now() + job.runs_for,
                keep: job.keep,
                state: MemoryState::Running,
            },
        );
        Box::pin(std::future::ready(Ok(())))
    }

    fn finish<'a>(&'a self, id: &'a str, answer: Answer, keep: Duration) -> StoreFuture<'a, bool> {
        let until = Instant::now() + keep;
        let settled = match self.lock().get_mut(id) {
            Some(job) if matches!(job.state, MemoryState::Running) => {
                job.state = MemoryState::Done(Box::new(answer), until);
                true
            }
            _ => false,
        };
        if settled && let Ok(runtime) = tokio::runtime::Handle::try_current() {
            // The answer goes when its keep is over, polled or not: taking
            // the lock then sweeps it.
            let store = self.clone();
            runtime.spawn(async move {
                tokio::time::sleep_until(until).await;
                drop(store.lock());
            });
        }
        Box::pin(std::future::ready(Ok(settled)))
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredJob>> {
        let now = Instant::now();
        let found = self.lock().get(id).map(|job| StoredJob {
            tool: job.tool.clone(),
            owner: job.owner.clone(),
            state: match &job.state {
                MemoryState::Running => JobState::Running {
                    overdue: now >= job.deadline,
                },
                MemoryState::Done(answer, _) => JobState::Done(answer.clone()),
            },
        });
        Box::pin(std::future::ready(Ok(found)))
    }

    fn forget<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()> {
        self.lock().remove(id);
        Box::pin(std::future::ready(Ok(())))
    }

    fn held(&self) -> Option<usize> {
        Some(self.lock().len())
    }
}
