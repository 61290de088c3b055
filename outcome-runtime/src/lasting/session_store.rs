//! The sessions of rmcp's streamable HTTP server in Redis: a session that
//! began on one replica goes on on any other.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use redis::aio::ConnectionManager;
use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore, SessionStoreError,
};
use tracing::Level;

use crate::lasting::job_store::{StoreError, connect, once_more};
use crate::logs::records::event_at;

mod manager;

pub use manager::{SessionsError, SessionsInRedis};

const PREFIX: &str = "outcome:session:";

/// Every session's id, scored as the job store's index is.
const INDEX: &str = "outcome:sessions";

/// The longest session id the store keeps, in bytes: rmcp's are UUIDs (36
/// characters), and a longer id names no session the store holds.
const ID_LIMIT: usize = 256;

/// Writes a session (`ARGV`: id, value, TTL in ms, capacity), answering as
/// the job store's `START` does.
const STORE: &str = r"
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now())
local held = redis.call('ZCARD', KEYS[2])
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) and held >= tonumber(ARGV[4]) then
  return held
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
file(KEYS[2], ARGV[1], ARGV[3], true)
return -1
";

/// How many sessions the index holds, once its expired entries are gone.
const HELD: &str = r"
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now())
return redis.call('ZCARD', KEYS[2])
";

/// Reads a session, its expiry set to the TTL (`ARGV[2]`) again.
const LOAD: &str = r"
local value = redis.call('GETEX', KEYS[1], 'PX', ARGV[2])
if value then
  file(KEYS[2], ARGV[1], ARGV[2], false)
end
return value
";

/// `closed`, `open`, or nil when absent, resetting the TTL (`ARGV[2]`)
/// without reading the value out.
const STATUS: &str = r"
if redis.call('PEXPIRE', KEYS[1], ARGV[2]) == 0 then
  return false
end
file(KEYS[2], ARGV[1], ARGV[2], false)
if redis.call('GETRANGE', KEYS[1], 0, 6) == 'closed' then
  return 'closed'
end
return 'open'
";

/// Marks a session the store holds as closed, for the TTL (`ARGV[2]`).
const CLOSE: &str = r"
if redis.call('SET', KEYS[1], 'closed', 'XX', 'PX', ARGV[2]) then
  file(KEYS[2], ARGV[1], ARGV[2], false)
end
return 0
";

/// A session's key once the client ended it, so that replicas holding it
/// in memory end it too.
const CLOSED: &str = "closed";

/// What the trait's methods return, as `#[async_trait]` writes it.
type Stored<'a, T> = Pin<Box<dyn Future<Output = Result<T, SessionStoreError>> + Send + 'a>>;

/// The sessions of rmcp's streamable HTTP server in Redis, for
/// `StreamableHttpServerConfig::session_store`: a replica that lacks a
/// session loads it from here and replays the client's handshake, unseen by
/// the client. See the [replicas guide](crate::guide::replicas).
///
/// ```no_run
/// # async fn serve() -> Result<(), outcome_runtime::job_store::StoreError> {
/// use std::sync::Arc;
/// use rmcp::transport::streamable_http_server::session::store::SessionStore;
///
/// let url = "redis://127.0.0.1:6379";
/// // `StreamableHttpServerConfig { session_store: Some(sessions), .. }`
/// let sessions: Arc<dyn SessionStore> =
///     Arc::new(outcome_runtime::session_store::RedisSessionStore::open(url)?);
/// // The jobs of the same server, in the same Redis.
/// let jobs = outcome_runtime::Jobs::redis(url)?;
/// # Ok(()) }
/// ```
///
/// # Keys and expiries
///
/// Each session is a string, `outcome:session:<id>`: the JSON of rmcp's
/// `SessionState` (the client's `initialize` parameters), written after the
/// handshake. A DELETE turns an existing key into `closed` until it
/// expires, since rmcp closes the session only on the replica the DELETE
/// reached; [`SessionsInRedis`] makes the others look. Every read and write
/// resets the expiry to the TTL ([`with_ttl`](Self::with_ttl), 24 hours by
/// default): a session expires a TTL after its last request under
/// [`SessionsInRedis`], else after it began or was last restored
/// elsewhere. Needs Redis 6.2 or later (`GETEX`).
///
/// # Bounds
///
/// At most [`DEFAULT_CAPACITY`](Self::DEFAULT_CAPACITY) sessions across
/// replicas ([`with_capacity`](Self::with_capacity)), counted in the sorted
/// set `outcome:sessions`, each at most
/// [`DEFAULT_VALUE_LIMIT`](Self::DEFAULT_VALUE_LIMIT) bytes of JSON
/// ([`with_value_limit`](Self::with_value_limit)) under an id of at most
/// 256 bytes. Past any, the write is refused: rmcp logs a WARNING and
/// serves the session on its replica alone (unless [`SessionsInRedis`]
/// refused it first), and the store logs `session_store_full` at WARNING
/// once each time it fills. A longer id is never looked up.
///
/// # Failures
///
/// Each operation is bounded by [`with_timeout`](Self::with_timeout) (2 s
/// by default), with [`RedisStore`](crate::job_store::RedisStore)'s
/// connection rules. A failed read makes rmcp answer HTTP 500, for the
/// client to retry; rmcp logs a failed write or delete at WARNING and goes
/// on, the session living on its replica alone.
#[derive(Clone)]
pub struct RedisSessionStore {
    connection: ConnectionManager,
    ttl: Duration,
    timeout: Duration,
    capacity: usize,
    value_limit: usize,
    /// Whether the last write found the store full: the operator is told
    /// once per crossing, not per session.
    full: Arc<AtomicBool>,
}

impl RedisSessionStore {
    /// A session key's TTL by default: 24 hours.
    pub const DEFAULT_TTL: Duration = Duration::from_secs(24 * 60 * 60);

    /// The store timeout by default: 2 seconds, as the job store's.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

    /// How many sessions the store holds by default: 100,000.
    pub const DEFAULT_CAPACITY: usize = 100_000;

    /// The longest session, in bytes of JSON, kept by default: 16 KiB, far
    /// more than a client's `initialize` parameters take.
    pub const DEFAULT_VALUE_LIMIT: usize = 16 << 10;

    /// Sessions in the Redis at `url` (`redis://host:port/db`), connected
    /// on the first operation, so a Redis that is down does not stop the
    /// server. Call it inside a tokio runtime, whose tasks carry the
    /// connection.
    pub fn open(url: &str) -> Result<RedisSessionStore, StoreError> {
        Ok(RedisSessionStore {
            connection: connect(url, "session store")?,
            ttl: Self::DEFAULT_TTL,
            timeout: Self::DEFAULT_TIMEOUT,
            capacity: Self::DEFAULT_CAPACITY,
            value_limit: Self::DEFAULT_VALUE_LIMIT,
            full: Arc::new(AtomicBool::new(false)),
        })
    }

    /// How many sessions the store holds at most, across replicas: past
    /// that, a new session is refused.
    pub fn with_capacity(mut self, capacity: usize) -> Self {
        self.capacity = capacity;
        self
    }

    /// The longest session the store keeps, in bytes of JSON: a longer one
    /// is refused.
    pub fn with_value_limit(mut self, bytes: usize) -> Self {
        self.value_limit = bytes;
        self
    }

    /// How long a session's key lives after a write or read; at least 1 ms.
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// How long one operation may take before it fails.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    async fn script<T: redis::FromRedisValue>(
        &self,
        body: &str,
        session_id: &str,
        args: &[&str],
        doing: &str,
    ) -> Result<T, SessionStoreError> {
        let script = redis::Script::new(&format!(
            "{}{body}",
            crate::lasting::job_store::INDEX_SCRIPT
        ));
        let key = key(session_id);
        let operation = once_more(&self.connection, |mut connection| {
            let mut invocation = script.key(&key);
            invocation.key(INDEX).arg(session_id);
            for arg in args {
                invocation.arg(arg);
            }
            async move { invocation.invoke_async::<T>(&mut connection).await }
        });
        self.bounded(operation, doing).await
    }

    /// The session's `STATUS`; `None` when the store lacks it.
    async fn status(&self, session_id: &str) -> Result<Option<String>, SessionStoreError> {
        if session_id.len() > ID_LIMIT {
            return Ok(None);
        }
        let ttl = self.ttl_ms().to_string();
        self.script(STATUS, session_id, &[&ttl], "read a session")
            .await
    }

    /// Why the store would refuse a new session of `bytes`: `None` when it
    /// has room, or cannot tell (the write then decides).
    async fn refusal(&self, bytes: usize) -> Option<StoreError> {
        if bytes > self.value_limit {
            return Some(self.too_long(bytes));
        }
        let held: i64 = self
            .script(HELD, "", &[], "count the sessions")
            .await
            .ok()?;
        let held = usize::try_from(held).unwrap_or(usize::MAX);
        (held >= self.capacity).then(|| self.is_full(held))
    }

    fn too_long(&self, bytes: usize) -> StoreError {
        StoreError::new(
            format!(
                "the client's initialize parameters take {bytes} bytes as JSON, more than \
                 the {} the session store keeps",
                self.value_limit
            ),
            None,
        )
    }

    /// Logs `session_store_full` only the first time since it had room.
    fn is_full(&self, held: usize) -> StoreError {
        if !self.full.swap(true, Ordering::Relaxed) {
            event_at!(
                Level::WARN,
                held,
                capacity = self.capacity,
                "session_store_full"
            );
        }
        StoreError::new(
            format!("the session store holds {held} sessions, as many as it may"),
            None,
        )
    }

    fn ttl_ms(&self) -> u64 {
        u64::try_from(self.ttl.as_millis())
            .unwrap_or(u64::MAX)
            .max(1)
    }

    async fn bounded<T>(
        &self,
        operation: impl Future<Output = redis::RedisResult<T>>,
        doing: &str,
    ) -> Result<T, SessionStoreError> {
        match tokio::time::timeout(self.timeout, operation).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(error)) => Err(Box::new(StoreError::new(
                format!("Redis failed to {doing}"),
                Some(Box::new(error)),
            ))),
            Err(_elapsed) => Err(Box::new(StoreError::new(
                format!("the session store did not answer within {:?}", self.timeout),
                None,
            ))),
        }
    }
}

fn key(id: &str) -> String {
    format!("{PREFIX}{id}")
}

impl SessionStore for RedisSessionStore {
    fn load<'life0, 'life1, 'async_trait>(
        &'life0 self,
        session_id: &'life1 str,
    ) -> Stored<'async_trait, Option<SessionState>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        Box::pin(async move {
            if session_id.len() > ID_LIMIT {
                return Ok(None);
            }
            let ttl = self.ttl_ms().to_string();
            let read: Option<String> = self
                .script(LOAD, session_id, &[&ttl], "read a session")
                .await?;
            let Some(json) = read else {
                return Ok(None);
            };
            if json == CLOSED {
                return Ok(None);
            }
            let state = serde_json::from_str(&json).map_err(|error| {
                Box::new(StoreError::new(
                    "a session in Redis is not a session",
                    Some(Box::new(error)),
                ))
            })?;
            Ok(Some(state))
        })
    }

    fn store<'life0, 'life1, 'life2, 'async_trait>(
        &'life0 self,
        session_id: &'life1 str,
        state: &'life2 SessionState,
    ) -> Stored<'async_trait, ()>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        'life2: 'async_trait,
        Self: 'async_trait,
    {
        Box::pin(async move {
            let refused = |error: StoreError| -> SessionStoreError { Box::new(error) };
            let json = serde_json::to_string(state).map_err(|error| {
                refused(StoreError::new(
                    "a session did not serialize",
                    Some(Box::new(error)),
                ))
            })?;
            if json.len() > self.value_limit {
                return Err(refused(self.too_long(json.len())));
            }
            if session_id.len() > ID_LIMIT {
                return Err(refused(StoreError::new(
                    format!("a session id of more than {ID_LIMIT} bytes is not kept"),
                    None,
                )));
            }
            let (ttl, capacity) = (self.ttl_ms().to_string(), self.capacity.to_string());
            let held: i64 = self
                .script(
                    STORE,
                    session_id,
                    &[&json, &ttl, &capacity],
                    "record a session",
                )
                .await?;
            match usize::try_from(held) {
                Ok(held) => Err(refused(self.is_full(held))),
                Err(_) => {
                    self.full.store(false, Ordering::Relaxed);
                    Ok(())
                }
            }
        })
    }

    fn delete<'life0, 'life1, 'async_trait>(
        &'life0 self,
        session_id: &'life1 str,
    ) -> Stored<'async_trait, ()>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        Box::pin(async move {
            // Only a key that exists: rmcp passes on the id of any DELETE,
            // and a client must not make keys by sending made-up ones.
            if session_id.len() > ID_LIMIT {
                return Ok(());
            }
            let ttl = self.ttl_ms().to_string();
            self.script::<i64>(CLOSE, session_id, &[&ttl], "close a session")
                .await
                .map(drop)
        })
    }
}
