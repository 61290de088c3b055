//! The job store in Redis: every replica of a server that shares it
//! answers every poll.

use std::future::Future;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::{JobState, JobStore, NewJob, Owner, StoreError, StoreFuture, StoredAnswer, StoredJob};

/// The prefix of every job's key.
const PREFIX: &str = "outcome:job:";

/// The sorted set of every job's id, scored by when its key expires
/// (milliseconds, by Redis's clock): what counts the jobs held, across
/// replicas.
const INDEX: &str = "outcome:jobs";

/// Redis's clock in milliseconds, and how to file an id (a job's, or a
/// session's in the session store) in an index to go `after` milliseconds from now
/// (only if it is filed there already, unless `add`); the index itself goes
/// with its last entry. The scripts of both stores start with it.
pub(crate) const INDEX_SCRIPT: &str = r"
local function now()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local function file(index, id, after, add)
  local at = now() + tonumber(after)
  if add then
    redis.call('ZADD', index, at, id)
  else
    redis.call('ZADD', index, 'XX', at, id)
  end
  local last = redis.call('ZRANGE', index, -1, -1, 'WITHSCORES')
  if last[2] then
    redis.call('PEXPIREAT', index, last[2])
  end
end
";

/// Records a new job: `KEYS[1]` its key, `KEYS[2]` the index; `ARGV`: its
/// id, its record's expiry in milliseconds, the capacity, its tool, its
/// deadline, its owner's key or nothing. Drops the index's expired entries
/// first; refuses a new id when the index holds the capacity, answering how
/// many it holds; -1 once recorded.
const START: &str = r"
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now())
local held = redis.call('ZCARD', KEYS[2])
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) and held >= tonumber(ARGV[3]) then
  return held
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'tool', ARGV[4], 'deadline', ARGV[5])
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[1], 'owner', ARGV[6])
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
file(KEYS[2], ARGV[1], ARGV[2], true)
return -1
";

/// Records the answer only if the job is still running (it has a record,
/// and the record no answer), and from then on keeps it for `keep`:
/// `KEYS[1]` its key, `KEYS[2]` the index; `ARGV`: its id, the answer,
/// `keep` in milliseconds.
const FINISH: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 and redis.call('HEXISTS', KEYS[1], 'answer') == 0 then
  redis.call('HSET', KEYS[1], 'answer', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  file(KEYS[2], ARGV[1], ARGV[3], false)
  return 1
end
return 0
";

/// Drops a job's key and its entry in the index.
const FORGET: &str = r"
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 0
";

/// The jobs in Redis, shared by every replica of a server that uses the
/// same Redis: a job started on one replica is polled on any other, and a
/// replica that restarts forgets nothing.
///
/// # Keys and expiries
///
/// Each job is one hash, `outcome:job:<id>`, and one entry in the sorted
/// set `outcome:jobs`, its id scored by when its key expires, which counts
/// the jobs every replica holds:
///
/// | field | value |
/// |---|---|
/// | `tool` | the tool that runs the job |
/// | `deadline` | when the job must have ended: milliseconds since the Unix epoch, by the starting replica's clock |
/// | `owner` | the key of the `Mcp-Session-Id` of the call that started the job ([`Owner::session_key`], 32 hex digits whatever the header's length), which a poll's must match; absent for a job bound to no session (started without one: stdio, stateless HTTP) |
/// | `answer` | once the job ended: its answer as JSON, `{"Ok": <CallToolResult>}` or `{"Err": <JSON-RPC error>}` |
///
/// A running job's key expires `max_run + keep` after the job started:
/// past its deadline a poll still finds it, and settles it as the fault it
/// is (its replica died, or lost its bookkeeping). Once the job has an
/// answer, the key expires `keep` after the answer was written. Recording
/// an answer is one Lua script, which writes only if the key has no answer
/// yet: of the work's answer and a poll's fault, the first wins.
///
/// Replicas compare deadlines with their own clocks: keep them in sync
/// (NTP), or allow for their skew in `max_run`.
///
/// # Bounds
///
/// The store holds at most [`DEFAULT_CAPACITY`](Self::DEFAULT_CAPACITY) jobs (100,000), running or
/// finished, across every replica that shares it, or the number given to
/// [`with_capacity`](Self::with_capacity): past that,
/// [`start`](JobStore::start) fails, and the call is a fault that heals
/// itself (the model reads the retry message; the log gets `tool_failed`
/// and `tool_call_failed` at WARNING, with the store's error) until a job's
/// key expires or is dropped, as in memory. An answer longer than
/// [`DEFAULT_VALUE_LIMIT`](Self::DEFAULT_VALUE_LIMIT) as JSON (1 MiB), or the number given to
/// [`with_value_limit`](Self::with_value_limit), is not kept: the job's
/// answer is lost (`job_answer_lost`), and its polls read that no result is
/// kept. A job's record is a few hundred bytes plus its answer, so the
/// store holds at most about `capacity × (value limit + 300)` bytes.
///
/// # Failures
///
/// Every operation is bounded by the store timeout of the
/// [`Jobs`](crate::Jobs) (2 s unless set), which cuts it off wherever it
/// is. Under that bound the client gives up sooner on its own: a connection
/// must be made within a second and a reply come within a second, and a
/// lost connection is tried again once. A store that fails or does not
/// answer in time makes the call or the poll a fault that heals itself.
#[derive(Clone)]
pub struct RedisStore {
    connection: ConnectionManager,
    capacity: usize,
    value_limit: usize,
}

impl RedisStore {
    /// How many jobs the store holds unless
    /// [`with_capacity`](Self::with_capacity) says otherwise: 100,000, as
    /// the store in memory.
    pub const DEFAULT_CAPACITY: usize = super::DEFAULT_CAPACITY;

    /// The longest answer, as JSON, the store keeps unless
    /// [`with_value_limit`](Self::with_value_limit) says otherwise: 1 MiB.
    pub const DEFAULT_VALUE_LIMIT: usize = 1 << 20;

    /// A store in the Redis at `url` (`redis://host:port/db`, or
    /// `rediss://` with TLS where the `redis` crate is built for it).
    ///
    /// Connects lazily, on the first operation, so that a Redis that is
    /// down when the server starts does not stop it: its jobs fail as
    /// faults that heal themselves until Redis is back. Must be called
    /// inside a tokio runtime, whose tasks then carry the connection.
    pub fn open(url: &str) -> Result<RedisStore, StoreError> {
        connect(url, "job store").map(|connection| RedisStore {
            connection,
            capacity: Self::DEFAULT_CAPACITY,
            value_limit: Self::DEFAULT_VALUE_LIMIT,
        })
    }

    /// How many jobs the store holds at most, running or finished, across
    /// every replica ([`DEFAULT_CAPACITY`](Self::DEFAULT_CAPACITY) unless set): past that, a call
    /// that would start a job is a fault that heals itself.
    pub fn with_capacity(mut self, capacity: usize) -> Self {
        self.capacity = capacity;
        self
    }

    /// The longest answer, in bytes of JSON, the store keeps
    /// ([`DEFAULT_VALUE_LIMIT`](Self::DEFAULT_VALUE_LIMIT) unless set): a longer one is lost, as an
    /// answer Redis refuses is.
    pub fn with_value_limit(mut self, bytes: usize) -> Self {
        self.value_limit = bytes;
        self
    }

    /// Runs one of the scripts above, with the helpers it needs, on
    /// `keys` and `args`.
    async fn script<T: redis::FromRedisValue>(
        &self,
        body: &str,
        keys: [&str; 2],
        args: &[&str],
        doing: &str,
    ) -> Result<T, StoreError> {
        let script = redis::Script::new(&format!("{INDEX_SCRIPT}{body}"));
        once_more(&self.connection, |mut connection| {
            let mut invocation = script.key(keys[0]);
            invocation.key(keys[1]);
            for arg in args {
                invocation.arg(arg);
            }
            async move { invocation.invoke_async(&mut connection).await }
        })
        .await
        .map_err(failed(doing))
    }
}

/// A client of the Redis at `url` that connects lazily, on its first
/// operation, for the `store` its errors name ("job store"): a connection
/// must be made within a second and a reply come within a second, and a
/// lost connection is tried again once, a fifth of a second later at most.
pub(crate) fn connect(url: &str, store: &str) -> Result<ConnectionManager, StoreError> {
    let client = redis::Client::open(url).map_err(|error| {
        StoreError::new(
            format!("the {store}'s Redis URL is not valid"),
            Some(Box::new(error)),
        )
    })?;
    let config = ConnectionManagerConfig::new()
        .set_connection_timeout(Some(Duration::from_secs(1)))
        .set_response_timeout(Some(Duration::from_secs(1)))
        .set_number_of_retries(1)
        .set_max_delay(Duration::from_millis(200));
    ConnectionManager::new_lazy_with_config(client, config).map_err(|error| {
        StoreError::new(
            format!("the {store}'s Redis client failed"),
            Some(Box::new(error)),
        )
    })
}

fn key(id: &str) -> String {
    format!("{PREFIX}{id}")
}

/// Milliseconds, for Redis's expiries: at least one, since an expiry of
/// zero deletes the key at once.
fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
        })
}

/// Runs `operation` on the connection and, when the connection was lost,
/// once more: the manager reconnects on the failure, so that the first
/// operation after Redis came back does not fail for the connection it had
/// before.
pub(crate) async fn once_more<T, F>(
    connection: &ConnectionManager,
    operation: impl Fn(ConnectionManager) -> F,
) -> redis::RedisResult<T>
where
    F: Future<Output = redis::RedisResult<T>>,
{
    match operation(connection.clone()).await {
        Err(error)
            if error.is_connection_dropped()
                || error.is_connection_refusal()
                || error.is_io_error() =>
        {
            operation(connection.clone()).await
        }
        done => done,
    }
}

fn failed(doing: &str) -> impl FnOnce(redis::RedisError) -> StoreError + '_ {
    move |error| StoreError::new(format!("Redis failed to {doing}"), Some(Box::new(error)))
}

impl JobStore for RedisStore {
    fn start<'a>(&'a self, id: &'a str, job: NewJob) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let deadline = now_ms().saturating_add(millis(job.runs_for));
            let owner = job.owner.session_key().unwrap_or_default();
            let expiry = millis(job.runs_for.saturating_add(job.keep));
            let (expiry, capacity) = (expiry.to_string(), self.capacity.to_string());
            let deadline = deadline.to_string();
            let held: i64 = self
                .script(
                    START,
                    [&key(id), INDEX],
                    &[id, &expiry, &capacity, &job.tool, &deadline, &owner],
                    "record a job",
                )
                .await?;
            match held {
                -1 => Ok(()),
                held => Err(StoreError::new(
                    format!("the job store in Redis holds {held} jobs, as many as it may"),
                    None,
                )),
            }
        })
    }

    fn finish<'a>(
        &'a self,
        id: &'a str,
        answer: StoredAnswer,
        keep: Duration,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let json = serde_json::to_string(&answer).map_err(|error| {
                StoreError::new("a job's answer did not serialize", Some(Box::new(error)))
            })?;
            if json.len() > self.value_limit {
                return Err(StoreError::new(
                    format!(
                        "the job's answer takes {} bytes as JSON, more than the {} the job \
                         store in Redis keeps",
                        json.len(),
                        self.value_limit
                    ),
                    None,
                ));
            }
            let settled: i64 = self
                .script(
                    FINISH,
                    [&key(id), INDEX],
                    &[id, &json, &millis(keep).to_string()],
                    "record a job's answer",
                )
                .await?;
            Ok(settled == 1)
        })
    }

    fn forget<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.script::<i64>(FORGET, [&key(id), INDEX], &[id], "drop a job")
                .await
                .map(drop)
        })
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredJob>> {
        Box::pin(async move {
            let mut read = redis::cmd("HMGET");
            read.arg(key(id))
                .arg(&["tool", "owner", "deadline", "answer"]);
            type Fields = (Option<String>, Option<String>, Option<u64>, Option<String>);
            let fields: Fields = once_more(&self.connection, |mut connection| {
                let read = read.clone();
                async move { read.query_async(&mut connection).await }
            })
            .await
            .map_err(failed("read a job"))?;
            let (Some(tool), owner, deadline, answer) = fields else {
                return Ok(None);
            };
            let state = match answer {
                Some(json) => {
                    let answer: StoredAnswer = serde_json::from_str(&json).map_err(|error| {
                        StoreError::new(
                            format!("job {id}'s answer in Redis is not an answer"),
                            Some(Box::new(error)),
                        )
                    })?;
                    JobState::Done(Box::new(answer))
                }
                None => JobState::Running {
                    overdue: deadline.is_none_or(|deadline| now_ms() >= deadline),
                },
            };
            Ok(Some(StoredJob {
                tool,
                // A record whose owner is not a key (written by an older
                // release, which kept the id itself) is bound to that id.
                owner: owner.map_or_else(Owner::anyone, |owner| {
                    Owner::from_session_key(&owner).unwrap_or_else(|| Owner::session(&owner))
                }),
                state,
            }))
        })
    }
}
