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

impl crate::Transient for StoreError {
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
mod tests {
    use std::task::{Context, Poll, Waker};

    use super::*;

    /// The memory store's futures are ready when made.
    fn ready<T>(mut future: StoreFuture<'_, T>) -> Result<T, StoreError> {
        match future
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()))
        {
            Poll::Ready(result) => result,
            Poll::Pending => panic!("the memory store answers at once"),
        }
    }

    fn job(runs_for: u64, keep: u64) -> NewJob {
        NewJob {
            tool: "work".to_owned(),
            owner: Owner::anyone(),
            runs_for: Duration::from_secs(runs_for),
            keep: Duration::from_secs(keep),
        }
    }

    fn answer() -> StoredAnswer {
        Ok(CallToolResult::success(Vec::new()))
    }

    /// What the store holds once the clock reads `secs` from `t0`, by id,
    /// sorted; and how many entries wait in the expiry queue.
    fn at(store: &MemoryStore, t0: Instant, secs: u64) -> (Vec<String>, usize) {
        let mut memory = store.memory.lock().unwrap();
        memory.sweep(t0 + Duration::from_secs(secs));
        let mut ids: Vec<String> = memory.jobs.keys().map(|id| id.to_string()).collect();
        ids.sort();
        (ids, memory.expiries.len())
    }

    #[test]
    fn the_session_key_is_siphash_2_4_as_its_reference_computes_it() {
        // The reference vectors of SipHash-2-4 (the paper's appendix):
        // replicas of any release agree only if these hold.
        let (k0, k1) = (0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908);
        assert_eq!(siphash24(k0, k1, &[]), 0x726f_db47_dd0e_0e31);
        let fifteen: Vec<u8> = (0..15).collect();
        assert_eq!(siphash24(k0, k1, &fifteen), 0xa129_ca61_49be_45e5);
    }

    #[test]
    fn an_owner_keeps_a_key_of_a_fixed_size_whatever_the_session_id() {
        let huge = "s".repeat(256 << 10);
        let owner = Owner::session(&huge);
        let key = owner.session_key().unwrap();
        assert_eq!(key.len(), 32);
        assert!(format!("{owner:?}").len() < 200, "{owner:?}");
        // The key reads back as the same owner, which admits that id only.
        let read = Owner::from_session_key(&key).unwrap();
        assert!(read.admits(None, Some(huge.as_bytes())));
        assert!(!read.admits(None, Some(b"another")));
        assert!(!read.admits(None, None));
        assert!(Owner::from_session_key("not a key").is_none());
        assert!(Owner::from_session_key(&"g".repeat(32)).is_none());
        assert!(Owner::from_session_key("+0000000000000000000000000000000").is_none());
        assert!(Owner::anyone().admits(None, Some(b"any")));
    }

    #[test]
    fn records_go_in_the_order_they_expire() {
        let store = MemoryStore::new();
        let t0 = Instant::now();
        // Expire at 30, 10 and 20 seconds (deadline plus keep).
        ready(store.start("a", job(20, 10))).unwrap();
        ready(store.start("b", job(5, 5))).unwrap();
        ready(store.start("c", job(10, 10))).unwrap();
        assert_eq!(
            at(&store, t0, 9),
            (vec!["a".into(), "b".into(), "c".into()], 3)
        );
        assert_eq!(at(&store, t0, 11), (vec!["a".into(), "c".into()], 2));
        assert_eq!(at(&store, t0, 21), (vec!["a".into()], 1));
        assert_eq!(at(&store, t0, 31), (vec![], 0));
    }

    #[test]
    fn a_finished_job_goes_when_its_answers_keep_is_over_not_its_deadlines() {
        let store = MemoryStore::new();
        let t0 = Instant::now();
        ready(store.start("early", job(100, 100))).unwrap();
        ready(store.start("late", job(1, 1))).unwrap();
        assert!(ready(store.finish("early", answer(), Duration::from_secs(5))).unwrap());
        assert!(ready(store.finish("late", answer(), Duration::from_secs(50))).unwrap());
        assert!(!ready(store.finish("late", answer(), Duration::from_secs(1))).unwrap());
        // One entry per record: the running job's entry left with its state.
        assert_eq!(at(&store, t0, 0).1, 2);
        // Past the late job's deadline plus keep, its answer stays.
        assert_eq!(at(&store, t0, 3), (vec!["early".into(), "late".into()], 2));
        assert_eq!(at(&store, t0, 6), (vec!["late".into()], 1));
        let Some(StoredJob {
            state: JobState::Done(_),
            ..
        }) = ready(store.get("late")).unwrap()
        else {
            panic!("the late job's answer is kept");
        };
        assert_eq!(at(&store, t0, 51), (vec![], 0));
    }

    #[test]
    fn a_forgotten_job_leaves_no_entry() {
        let store = MemoryStore::new();
        let t0 = Instant::now();
        ready(store.start("a", job(10, 10))).unwrap();
        ready(store.start("b", job(10, 10))).unwrap();
        ready(store.forget("a")).unwrap();
        ready(store.forget("unknown")).unwrap();
        assert_eq!(at(&store, t0, 0), (vec!["b".into()], 1));
        assert!(ready(store.get("a")).unwrap().is_none());
        assert!(!ready(store.finish("a", answer(), Duration::from_secs(1))).unwrap());
    }

    #[test]
    fn a_restarted_id_is_one_record_with_the_new_bounds() {
        let store = MemoryStore::with_capacity(1);
        let t0 = Instant::now();
        ready(store.start("a", job(10, 10))).unwrap();
        assert!(ready(store.finish("a", answer(), Duration::from_secs(100))).unwrap());
        // A full store starts the id it holds again: it replaces its record.
        ready(store.start("a", job(1, 1))).unwrap();
        let Some(StoredJob {
            state: JobState::Running { overdue: false },
            ..
        }) = ready(store.get("a")).unwrap()
        else {
            panic!("the id runs again");
        };
        assert_eq!(at(&store, t0, 0), (vec!["a".into()], 1));
        assert_eq!(at(&store, t0, 3), (vec![], 0));
    }

    #[test]
    fn past_its_capacity_the_store_refuses_a_job_until_a_record_goes() {
        let store = MemoryStore::with_capacity(2);
        let t0 = Instant::now();
        ready(store.start("a", job(1, 1))).unwrap();
        ready(store.start("b", job(10, 10))).unwrap();
        let refused = ready(store.start("c", job(10, 10))).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "the job store in memory holds 2 jobs, as many as it may"
        );
        assert!(ready(store.get("c")).unwrap().is_none());
        ready(store.forget("b")).unwrap();
        ready(store.start("c", job(10, 10))).unwrap();
        // Once "a" expires, there is room again.
        assert_eq!(at(&store, t0, 3), (vec!["c".into()], 1));
        ready(store.start("d", job(10, 10))).unwrap();
        assert_eq!(store.held(), Some(2));
    }

    #[tokio::test]
    async fn an_answer_nobody_polls_goes_when_its_keep_is_over() {
        let store = MemoryStore::new();
        ready(store.start("short", job(60, 60))).unwrap();
        ready(store.start("long", job(60, 60))).unwrap();
        let keep = Duration::from_millis(20);
        assert!(ready(store.finish("long", answer(), keep * 2)).unwrap());
        assert!(ready(store.finish("short", answer(), keep)).unwrap());
        tokio::time::sleep(keep * 5).await;
        // Untouched since: the store's own task dropped both answers, and
        // waits for the running jobs no more, there being none.
        let memory = store.memory.lock().unwrap();
        assert!(memory.jobs.is_empty());
        assert!(memory.expiries.is_empty());
        assert_eq!(memory.sweeper, None);
    }

    #[test]
    fn many_jobs_started_and_finished_leave_as_many_records_as_entries() {
        let store = MemoryStore::new();
        let t0 = Instant::now();
        for round in 0..10_000u64 {
            let id = format!("j-{round:032x}");
            ready(store.start(&id, job(60, 60))).unwrap();
            assert!(ready(store.finish(&id, answer(), Duration::from_secs(1))).unwrap());
            // The clock moves a second every 50 jobs, and an answer is
            // kept for one: the store holds those of the last few seconds.
            let (held, queued) = at(&store, t0, round / 50);
            assert!(held.len() <= 150, "{} held", held.len());
            assert_eq!(held.len(), queued);
        }
        assert_eq!(at(&store, t0, 10_000 / 50 + 2), (vec![], 0));
    }
}
