//! Where [`Jobs`](crate::Jobs) keep their jobs: in this process's memory
//! (the default), in Redis (feature `redis`), or in a store of your own.
//!
//! A store only keeps each job's record (its tool, session, deadline, and
//! answer once it has one) and says by its own clock whether a running job
//! is overdue; [`Jobs`](crate::Jobs) decide everything else. A record is a
//! few hundred bytes plus its answer, whatever a client sends.
//!
//! | store | a job outlives | what binds a job to a session |
//! |---|---|---|
//! | [`MemoryStore`] | nothing: it lives in this process | over streamable HTTP, a 128-bit key of the call's `Mcp-Session-Id` ([`Owner::session_key`]); on stdio, the connection. Without a session id (rmcp's stateless mode, told to the jobs with [`with_http_sessions(false)`](crate::Jobs::with_http_sessions), or the stateless lifecycle) the 128-bit job id is the capability |
//! | `RedisStore` (feature `redis`) | a replica that dies or restarts: every replica sharing the store answers every poll | over streamable HTTP, the key of the call's `Mcp-Session-Id`. Without one (stdio, stateless HTTP, the stateless lifecycle) the 128-bit job id is the capability |
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

use std::collections::{BTreeMap, HashMap};
use std::error::Error;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, InitializeRequestParams};
// tokio's clock, not the system's: a test that pauses time (tokio's
// `start_paused`) sees jobs end and expire as its timers do.
use tokio::time::Instant;

use crate::answer::error::ToolError;

#[cfg(feature = "redis")]
mod redis;
#[cfg(feature = "redis")]
pub use self::redis::RedisStore;
#[cfg(feature = "redis")]
pub(crate) use self::redis::{INDEX_SCRIPT, connect, once_more};

/// A finished job's answer: what the inline call would have answered.
pub type StoredAnswer = Result<CallToolResult, ErrorData>;

/// What a store's operation returns: a boxed future, so that the trait is
/// object-safe.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// A store of jobs' records, shared by every clone of the
/// [`Jobs`](crate::Jobs) that use it (and by every replica, for a store
/// outside the process). Each operation is bounded by the
/// [store timeout](crate::Jobs::with_store_timeout): one that fails or runs
/// out makes the call or poll a fault that heals itself.
pub trait JobStore: Send + Sync + 'static {
    /// Records the new, running job `id`, kept for `job.runs_for + job.keep`
    /// so that a poll past its deadline still finds it and settles it.
    fn start<'a>(&'a self, id: &'a str, job: NewJob) -> StoreFuture<'a, ()>;

    /// If job `id` is still running, records `answer`, kept for `keep` from
    /// now, and returns true; false if it had an answer or is gone. Atomic:
    /// of two replicas settling one job, one answer wins.
    fn finish<'a>(
        &'a self,
        id: &'a str,
        answer: StoredAnswer,
        keep: Duration,
    ) -> StoreFuture<'a, bool>;

    /// The record of job `id`, if the store still keeps it.
    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredJob>>;

    /// Drops job `id`'s record, whatever its state, once its answer was
    /// lost, so that polls read what an unknown job reads, not "still
    /// running". The default keeps it: polls then wait for the deadline.
    fn forget<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()> {
        let _ = id;
        Box::pin(std::future::ready(Ok(())))
    }

    /// How many jobs the store holds, if it can tell without a round trip.
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
    /// How long it may run: past that, a poll settles it as a fault.
    pub runs_for: Duration,
    /// How long the record outlives the job's end, or `runs_for` with no
    /// answer.
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
    /// No answer yet.
    Running {
        /// Past its deadline by the store's clock: no work will answer it.
        overdue: bool,
    },
    /// The job's answer.
    Done(Box<StoredAnswer>),
}

/// The session a job is bound to: a poll from any other reads what an
/// unknown id reads. On stdio, the client's `initialize` parameters (by
/// allocation); over streamable HTTP, a 128-bit key of its `Mcp-Session-Id`
/// ([`session_key`](Self::session_key)), whatever the header's length. A
/// job bound to neither is read by whoever holds its id.
#[derive(Clone, Debug, Default)]
pub struct Owner {
    /// A `Weak`, so that the address is not reused while the job lives.
    local: Option<Weak<InitializeRequestParams>>,
    session: Option<u128>,
}

impl Owner {
    /// A job bound to no session: whoever holds its id reads it.
    pub fn anyone() -> Owner {
        Owner::default()
    }

    /// A job bound to the HTTP session `id` (its `Mcp-Session-Id`).
    pub fn session(id: &str) -> Owner {
        Owner {
            local: None,
            session: Some(session_key(id.as_bytes())),
        }
    }

    /// The key of the job's HTTP session, if any: 32 hex digits, what a
    /// store outside the process keeps, the same in every replica.
    pub fn session_key(&self) -> Option<String> {
        self.session.map(|key| format!("{key:032x}"))
    }

    /// The owner whose [`session_key`](Self::session_key) is `key`; `None`
    /// for a text that is not 32 hex digits.
    pub fn from_session_key(key: &str) -> Option<Owner> {
        let hex = key.len() == 32 && key.bytes().all(|b| b.is_ascii_hexdigit());
        Some(Owner {
            local: None,
            session: Some(u128::from_str_radix(key, 16).ok().filter(|_| hex)?),
        })
    }

    pub(crate) fn local(
        session: Option<&Arc<InitializeRequestParams>>,
        session_id: Option<&[u8]>,
    ) -> Owner {
        Owner {
            local: session.map(Arc::downgrade),
            session: session_id.map(session_key),
        }
    }

    pub(crate) fn admits(
        &self,
        session: Option<&Arc<InitializeRequestParams>>,
        session_id: Option<&[u8]>,
    ) -> bool {
        if let Some(owner) = &self.local {
            return session
                .is_some_and(|session| std::ptr::eq(owner.as_ptr(), Arc::as_ptr(session)));
        }
        match self.session {
            Some(owner) => session_id.map(session_key) == Some(owner),
            None => true,
        }
    }
}

/// Two SipHash-2-4 runs under fixed keys. Not a secret (whoever knows an id
/// need not forge its key), but the same in every process and release, so
/// that replicas agree.
fn session_key(id: &[u8]) -> u128 {
    let high = siphash24(0x6f75_7463_6f6d_652d, 0x7365_7373_696f_6e31, id);
    let low = siphash24(0x6f75_7463_6f6d_652d, 0x7365_7373_696f_6e32, id);
    (u128::from(high) << 64) | u128::from(low)
}

/// std's `SipHasher`, whose named algorithm never changes: it is deprecated
/// only in favour of hashers that may, which a key kept outside the process
/// cannot use.
#[allow(deprecated)]
fn siphash24(k0: u64, k1: u64, bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut hasher = std::hash::SipHasher::new_with_keys(k0, k1);
    hasher.write(bytes);
    hasher.finish()
}

/// A store that failed or did not answer in time: a fault that heals itself
/// (the model is told to retry; the log gets a WARNING with this text). It
/// is [`Transient`](crate::Transient), registered when [`Jobs`](crate::Jobs)
/// get a store, so `?` on one in a tool heals too.
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

impl crate::answer::classify::Transient for StoreError {
    /// Always: a store that did not answer is one that comes back.
    fn is_transient(&self) -> bool {
        true
    }
}

impl StoreError {
    /// A self-healing fault (an I/O timeout in its chain) with this text.
    pub(crate) fn into_fault(self) -> ToolError {
        ToolError::fault(std::io::Error::new(std::io::ErrorKind::TimedOut, self))
    }
}

/// How many jobs a [`MemoryStore`] holds by default: tens of megabytes for
/// small answers, far more than a process runs at once, and met by a client
/// starting jobs in a loop long before memory runs out.
pub const DEFAULT_CAPACITY: usize = 100_000;

/// The jobs in this process's memory: the default store. A record goes
/// [`keep`](crate::Jobs::with_keep) after its job ended, or after its
/// deadline passed with no answer, polled or not.
///
/// It holds at most [`DEFAULT_CAPACITY`] jobs, running or finished (or
/// [`with_capacity`](Self::with_capacity)'s number): past that,
/// [`start`](JobStore::start) fails with a [`StoreError`], a fault that
/// heals itself once a record goes.
#[derive(Clone)]
pub struct MemoryStore {
    memory: Arc<Mutex<Memory>>,
}

impl Default for MemoryStore {
    fn default() -> Self {
        MemoryStore::with_capacity(DEFAULT_CAPACITY)
    }
}

struct Memory {
    jobs: HashMap<Arc<str>, MemoryJob>,
    /// One entry per record, by when it goes (a sequence number breaks
    /// ties), so that an access drops the expired ones alone.
    expiries: BTreeMap<(Instant, u64), Arc<str>>,
    next: u64,
    capacity: usize,
    /// When the store's sweeping task wakes, if one waits.
    sweeper: Option<Instant>,
}

struct MemoryJob {
    tool: String,
    owner: Owner,
    deadline: Instant,
    /// Its key in `expiries`: deadline plus `keep` while it runs, the end
    /// of its answer's keep once done.
    expires: (Instant, u64),
    state: MemoryState,
}

enum MemoryState {
    Running,
    Done(Box<StoredAnswer>),
}

impl Memory {
    fn sweep(&mut self, now: Instant) {
        while let Some(entry) = self.expiries.first_entry() {
            if entry.key().0 > now {
                break;
            }
            let id = entry.remove();
            self.jobs.remove(&id);
        }
    }

    /// Files job `id` to go at `at`: the key of its entry.
    fn expire(&mut self, id: Arc<str>, at: Instant) -> (Instant, u64) {
        let key = (at, self.next);
        self.next += 1;
        self.expiries.insert(key, id);
        key
    }

    fn remove(&mut self, id: &str) -> Option<MemoryJob> {
        let job = self.jobs.remove(id)?;
        self.expiries.remove(&job.expires);
        Some(job)
    }
}

impl MemoryStore {
    /// An empty store that holds at most [`DEFAULT_CAPACITY`] jobs.
    pub fn new() -> Self {
        MemoryStore::default()
    }

    /// An empty store that holds at most `capacity` jobs.
    pub fn with_capacity(capacity: usize) -> Self {
        MemoryStore {
            memory: Arc::new(Mutex::new(Memory {
                jobs: HashMap::new(),
                expiries: BTreeMap::new(),
                next: 0,
                capacity,
                sweeper: None,
            })),
        }
    }

    /// Sweeps first.
    fn lock(&self) -> MutexGuard<'_, Memory> {
        lock_and_sweep(&self.memory)
    }

    /// Has the store's own task drop expired records from `at` on, with
    /// nobody polling; one task, waking at each earliest expiry.
    fn sweep_at(&self, memory: &mut Memory, at: Instant) {
        // A task due by then will do, unless its time passed: it died with
        // its runtime.
        if memory
            .sweeper
            .is_some_and(|due| due <= at && Instant::now() <= due)
        {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        memory.sweeper = Some(at);
        // A store that is dropped ends its task.
        let store = Arc::downgrade(&self.memory);
        runtime.spawn(async move {
            let mut due = at;
            loop {
                tokio::time::sleep_until(due).await;
                let Some(held) = store.upgrade() else {
                    return;
                };
                let mut memory = lock_and_sweep(&held);
                // Another task took over, for an earlier instant.
                if memory.sweeper != Some(due) {
                    return;
                }
                memory.sweeper = memory.expiries.first_key_value().map(|(key, _)| key.0);
                match memory.sweeper {
                    Some(next) => due = next,
                    None => return,
                }
            }
        });
    }
}

fn lock_and_sweep(memory: &Mutex<Memory>) -> MutexGuard<'_, Memory> {
    let mut memory = memory.lock().unwrap_or_else(|e| e.into_inner());
    memory.sweep(Instant::now());
    memory
}

impl JobStore for MemoryStore {
    fn start<'a>(&'a self, id: &'a str, job: NewJob) -> StoreFuture<'a, ()> {
        let mut memory = self.lock();
        let restarted = memory.remove(id).is_some();
        if !restarted && memory.jobs.len() >= memory.capacity {
            let error = StoreError::new(
                format!(
                    "the job store in memory holds {} jobs, as many as it may",
                    memory.jobs.len()
                ),
                None,
            );
            return Box::pin(std::future::ready(Err(error)));
        }
        let deadline = Instant::now() + job.runs_for;
        let id: Arc<str> = Arc::from(id);
        let expires = memory.expire(id.clone(), deadline + job.keep);
        memory.jobs.insert(
            id,
            MemoryJob {
                tool: job.tool,
                owner: job.owner,
                deadline,
                expires,
                state: MemoryState::Running,
            },
        );
        Box::pin(std::future::ready(Ok(())))
    }

    fn finish<'a>(
        &'a self,
        id: &'a str,
        answer: StoredAnswer,
        keep: Duration,
    ) -> StoreFuture<'a, bool> {
        let until = Instant::now() + keep;
        let mut guard = self.lock();
        let memory = &mut *guard;
        let settled = match memory.jobs.get_mut(id) {
            Some(job) if matches!(job.state, MemoryState::Running) => {
                job.state = MemoryState::Done(Box::new(answer));
                let id = memory
                    .expiries
                    .remove(&job.expires)
                    .expect("every record has its entry");
                let key = (until, memory.next);
                memory.next += 1;
                memory.expiries.insert(key, id);
                job.expires = key;
                true
            }
            _ => false,
        };
        if settled {
            // The answer goes when its keep is over, polled or not.
            self.sweep_at(memory, until);
        }
        Box::pin(std::future::ready(Ok(settled)))
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredJob>> {
        let now = Instant::now();
        let found = self.lock().jobs.get(id).map(|job| StoredJob {
            tool: job.tool.clone(),
            owner: job.owner.clone(),
            state: match &job.state {
                MemoryState::Running => JobState::Running {
                    overdue: now >= job.deadline,
                },
                MemoryState::Done(answer) => JobState::Done(answer.clone()),
            },
        });
        Box::pin(std::future::ready(Ok(found)))
    }

    fn forget<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()> {
        self.lock().remove(id);
        Box::pin(std::future::ready(Ok(())))
    }

    fn held(&self) -> Option<usize> {
        Some(self.lock().jobs.len())
    }
}

#[cfg(test)]
mod tests;
