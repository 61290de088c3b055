//! The job store in Redis: every replica of a server that shares it
//! answers every poll.

use std::future::Future;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::{JobState, JobStore, NewJob, Owner, StoreError, StoreFuture, StoredAnswer, StoredJob};

const PREFIX: &str = "outcome:job:";

/// Every job's id, scored by when its key expires (Redis's clock, in ms):
/// what counts the jobs held across replicas.
const INDEX: &str = "outcome:jobs";

/// The helpers every script of both stores starts with: Redis's clock in
/// ms, and `file`, which (re)scores an id in an index to go `after` ms from
/// now (only an id already there, unless `add`); the index expires with its
/// last entry.
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

/// Records a new job (`ARGV`: id, expiry in ms, capacity, tool, deadline,
/// owner's key or ''): -1, or how many the index holds when a new id finds
/// it full, expired entries dropped.
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

/// Records the answer (`ARGV`: id, answer, keep in ms) only if the job has
/// a record and no answer yet.
const FINISH: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 and redis.call('HEXISTS', KEYS[1], 'answer') == 0 then
  redis.call('HSET', KEYS[1], 'answer', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  file(KEYS[2], ARGV[1], ARGV[3], false)
  return 1
end
return 0
";

const FORGET: &str = r"
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 0
";

/// The jobs in Redis, shared by every replica that uses it: a job started
/// on one is polled on any other, and a replica that restarts forgets
/// nothing. See also the [replicas guide](crate::guide::replicas).
///
/// # Keys and expiries
///
/// Each job is one hash, `outcome:job:<id>`, and one entry in the sorted
/// set `outcome:jobs`, which counts the jobs across replicas:
///
/// | field | value |
/// |---|---|
/// | `tool` | the tool that runs the job |
/// | `deadline` | when the job must have ended: milliseconds since the Unix epoch, by the starting replica's clock |
/// | `owner` | the key of the `Mcp-Session-Id` of the call that started the job ([`Owner::session_key`], 32 hex digits whatever the header's length), which a poll's must match; absent for a job bound to no session (started without one: stdio, stateless HTTP) |
/// | `answer` | once the job ended: its answer as JSON, `{"Ok": <CallToolResult>}` or `{"Err": <JSON-RPC error>}` |
///
/// A running job's key expires `max_run + keep` after it started, so that
/// a poll past the deadline still finds it and settles it as a fault (its
/// replica died). Once answered, it expires `keep` after the answer. The
/// answer is written by a script only if there is none yet: of the work's
/// answer and a poll's fault, the first wins.
///
/// Replicas compare deadlines with their own clocks: keep them in sync
/// (NTP), or allow for their skew in `max_run`.
///
/// # Bounds
///
/// At most [`DEFAULT_CAPACITY`](Self::DEFAULT_CAPACITY) jobs, running or
/// finished, across replicas ([`with_capacity`](Self::with_capacity)): past
/// that, a call that would start a job is a fault that heals itself, as in
/// memory. An answer longer than
/// [`DEFAULT_VALUE_LIMIT`](Self::DEFAULT_VALUE_LIMIT) as JSON
/// ([`with_value_limit`](Self::with_value_limit)) is lost
/// (`job_answer_lost`), and its polls read that no result is kept. The
/// store holds at most about `capacity × (value limit + 300)` bytes.
///
/// # Failures
///
/// Every operation is cut off at the [`Jobs`](crate::Jobs)' store timeout
/// (2 s unless set); within it, a connection and a reply get a second each,
/// and a lost connection one retry. A failure or timeout makes the call or
/// poll a fault that heals itself.
#[derive(Clone)]
pub struct RedisStore {
    connection: ConnectionManager,
    capacity: usize,
    value_limit: usize,
}

impl RedisStore {
    /// How many jobs the store holds by default: 100,000, as in memory.
    pub const DEFAULT_CAPACITY: usize = super::DEFAULT_CAPACITY;

    /// The longest answer, as JSON, the store keeps by default: 1 MiB.
    pub const DEFAULT_VALUE_LIMIT: usize = 1 << 20;

    /// A store in the Redis at `url` (`redis://host:port/db`, or
    /// `rediss://` where the `redis` crate has TLS), connected on the first
    /// operation: while Redis is down, jobs are faults that heal themselves.
    /// Call it inside a tokio runtime, whose tasks carry the connection.
    pub fn open(url: &str) -> Result<RedisStore, StoreError> {
        connect(url, "job store").map(|connection| RedisStore {
            connection,
            capacity: Self::DEFAULT_CAPACITY,
            value_limit: Self::DEFAULT_VALUE_LIMIT,
        })
    }

    /// How many jobs the store holds at most, running or finished, across
    /// replicas: past that, starting a job is a fault that heals itself.
    pub fn with_capacity(mut self, capacity: usize) -> Self {
        self.capacity = capacity;
        self
    }

    /// The longest answer, in bytes of JSON, the store keeps: a longer one
    /// is lost.
    pub fn with_value_limit(mut self, bytes: usize) -> Self {
        self.value_limit = bytes;
        self
    }

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

/// A lazy client for the `store` its errors name ("job store").
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

/// At least one: an expiry of zero deletes the key at once.
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

/// Runs `operation`, and once more if the connection was lost: the manager
/// reconnects on that failure, so the first operation after Redis comes
/// back need not fail.
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
                // Older releases kept the session id itself, not its key.
                owner: owner.map_or_else(Owner::anyone, |owner| {
                    Owner::from_session_key(&owner).unwrap_or_else(|| Owner::session(&owner))
                }),
                state,
            }))
        })
    }
}
