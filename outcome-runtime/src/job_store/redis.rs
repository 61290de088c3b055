//! The job store in Redis: every replica of a server that shares it
//! answers every poll.

use std::future::Future;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::{Answer, JobState, JobStore, NewJob, Owner, StoreError, StoreFuture, StoredJob};

/// The prefix of every job's key.
const PREFIX: &str = "outcome:job:";

/// Records the answer only if the job is still running (it has a record,
/// and the record no answer), and from then on keeps it for `keep`.
const FINISH: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 and redis.call('HEXISTS', KEYS[1], 'answer') == 0 then
  redis.call('HSET', KEYS[1], 'answer', ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
";

/// The jobs in Redis, shared by every replica of a server that uses the
/// same Redis: a job started on one replica is polled on any other, and a
/// replica that restarts forgets nothing.
///
/// # Keys and expiries
///
/// Each job is one hash, `outcome:job:<id>`:
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
}

impl RedisStore {
    /// A store in the Redis at `url` (`redis://host:port/db`, or
    /// `rediss://` with TLS where the `redis` crate is built for it).
    ///
    /// Connects lazily, on the first operation, so that a Redis that is
    /// down when the server starts does not stop it: its jobs fail as
    /// faults that heal themselves until Redis is back. Must be called
    /// inside a tokio runtime, whose tasks then carry the connection.
    pub fn open(url: &str) -> Result<RedisStore, StoreError> {
        connect(url, "job store").map(|connection| RedisStore { connection })
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
            let key = key(id);
            let deadline = now_ms().saturating_add(millis(job.runs_for));
            let mut set = redis::cmd("HSET");
            set.arg(&key)
                .arg("tool")
                .arg(&job.tool)
                .arg("deadline")
                .arg(deadline);
            if let Some(owner) = job.owner.session_key() {
                set.arg("owner").arg(owner);
            }
            let expiry = millis(job.runs_for.saturating_add(job.keep));
            let mut pipe = redis::pipe();
            pipe.atomic()
                .add_command(set)
                .ignore()
                .cmd("PEXPIRE")
                .arg(&key)
                .arg(expiry)
                .ignore();
            once_more(&self.connection, |mut connection| {
                let pipe = pipe.clone();
                async move { pipe.query_async::<()>(&mut connection).await }
            })
            .await
            .map_err(failed("record a job"))
        })
    }

    fn finish<'a>(&'a self, id: &'a str, answer: Answer, keep: Duration) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let json = serde_json::to_string(&answer).map_err(|error| {
                StoreError::new("a job's answer did not serialize", Some(Box::new(error)))
            })?;
            let script = redis::Script::new(FINISH);
            let (key, keep) = (key(id), millis(keep));
            let settled: i64 = once_more(&self.connection, |mut connection| {
                let mut invocation = script.key(&key);
                invocation.arg(&json).arg(keep);
                async move { invocation.invoke_async(&mut connection).await }
            })
            .await
            .map_err(failed("record a job's answer"))?;
            Ok(settled == 1)
        })
    }

    fn forget<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut delete = redis::cmd("DEL");
            delete.arg(key(id));
            once_more(&self.connection, |mut connection| {
                let delete = delete.clone();
                async move { delete.query_async::<()>(&mut connection).await }
            })
            .await
            .map_err(failed("drop a job"))
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
                    let answer: Answer = serde_json::from_str(&json).map_err(|error| {
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
