//! The sessions of rmcp's streamable HTTP server in Redis: a session that
//! began on one replica goes on on any other.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures_core::Stream;
use redis::aio::ConnectionManager;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore, SessionStoreError,
};
use rmcp::transport::streamable_http_server::session::{
    RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use tracing::Level;

use crate::job_store::{StoreError, connect, once_more};
use crate::records::{bounded, event_at};

/// The prefix of every session's key.
const PREFIX: &str = "outcome:session:";

/// The sorted set of every session's id, scored by when its key expires
/// (milliseconds, by Redis's clock): what counts the sessions held, across
/// replicas.
const INDEX: &str = "outcome:sessions";

/// The longest session id the store keeps, in bytes: rmcp's are UUIDs (36
/// characters), and a longer id names no session the store holds.
const ID_LIMIT: usize = 256;

/// Writes a session: `KEYS[1]` its key, `KEYS[2]` the index; `ARGV`: its
/// id, its value, the TTL in milliseconds, the capacity. Drops the index's
/// expired entries first; refuses a new id when the index holds the
/// capacity, answering how many it holds; -1 once written.
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

/// Whether a session is `closed` or `open` (nil when the store does not
/// hold it), its expiry set to the TTL (`ARGV[2]`) again, without reading
/// its value out.
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

/// What a session's key holds once the client ended the session: a
/// replica that still holds the session in memory ends it too.
const CLOSED: &str = "closed";

/// What each of the trait's methods returns, as `#[async_trait]` would
/// have written it.
type Stored<'a, T> = Pin<Box<dyn Future<Output = Result<T, SessionStoreError>> + Send + 'a>>;

/// The sessions of rmcp's streamable HTTP server in Redis, for
/// `StreamableHttpServerConfig::session_store`: a replica that does not
/// hold a session a request names loads it from here and replays the
/// client's handshake, so the client goes on without noticing that its
/// replica died or that the load balancer sent it elsewhere.
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
/// Each session is one string, `outcome:session:<id>`, holding the JSON of
/// rmcp's `SessionState` (the client's `initialize` parameters). rmcp
/// writes it once, after the handshake; a replica that restores the
/// session reads it. When the client ends the session (HTTP DELETE), its
/// key, if it has one, is not deleted but holds `closed` until it expires,
/// so that the other replicas that hold the session in memory learn it:
/// rmcp closes the session only on the replica the DELETE reached, and
/// only [`SessionsInRedis`] makes the others look. A DELETE of an id with
/// no key makes none. Every write and read sets
/// the key's expiry to the TTL ([`with_ttl`](Self::with_ttl), 24 hours
/// unless set); under [`SessionsInRedis`] every request reads it, so a
/// session expires a TTL after its last request, and otherwise a TTL
/// after it began or was last restored on another replica. Needs Redis 6.2
/// or later (`GETEX`).
///
/// # Bounds
///
/// The sorted set `outcome:sessions` holds every session's id, scored by
/// when its key expires; it counts the sessions across replicas. The store
/// holds at most [`DEFAULT_CAPACITY`](Self::DEFAULT_CAPACITY) sessions
/// (100,000, [`with_capacity`](Self::with_capacity)), each at most
/// [`DEFAULT_VALUE_LIMIT`](Self::DEFAULT_VALUE_LIMIT) bytes of JSON (16
/// KiB, [`with_value_limit`](Self::with_value_limit)), under an id of at
/// most 256 bytes: past any of them it refuses to write a session (rmcp
/// logs that as a WARNING and serves the session on its replica alone,
/// unless [`SessionsInRedis`] refused it first), and logs
/// `session_store_full` at WARNING once each time it finds itself full
/// after it last had room. An id longer than that names no session: it is
/// not looked up.
///
/// # Failures
///
/// Every operation is bounded by the store timeout
/// ([`with_timeout`](Self::with_timeout), 2 s unless set), with the same
/// connection rules as [`RedisStore`](crate::job_store::RedisStore)'s. A
/// failed read makes rmcp answer the request HTTP 500, which the client
/// may retry; a failed write or delete is logged by rmcp as a WARNING and
/// the request goes on (the session then lives only on its replica).
#[derive(Clone)]
pub struct RedisSessionStore {
    connection: ConnectionManager,
    ttl: Duration,
    timeout: Duration,
    capacity: usize,
    value_limit: usize,
    /// Whether the last session this store tried to write found it full:
    /// the operator is told once per crossing, not per session.
    full: Arc<AtomicBool>,
}

impl RedisSessionStore {
    /// The TTL of a session's key unless [`with_ttl`](Self::with_ttl) sets
    /// another: 24 hours.
    pub const DEFAULT_TTL: Duration = Duration::from_secs(24 * 60 * 60);

    /// The store timeout unless [`with_timeout`](Self::with_timeout) sets
    /// another: 2 seconds, as the job store's.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

    /// How many sessions the store holds unless
    /// [`with_capacity`](Self::with_capacity) says otherwise: 100,000.
    pub const DEFAULT_CAPACITY: usize = 100_000;

    /// The longest session, in bytes of JSON, the store keeps unless
    /// [`with_value_limit`](Self::with_value_limit) says otherwise: 16 KiB,
    /// far more than a client's `initialize` parameters take.
    pub const DEFAULT_VALUE_LIMIT: usize = 16 << 10;

    /// Sessions in the Redis at `url` (`redis://host:port/db`).
    ///
    /// Connects lazily, on the first operation, so that a Redis that is
    /// down when the server starts does not stop it. Must be called inside
    /// a tokio runtime, whose tasks then carry the connection.
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

    /// How many sessions the store holds at most, across every replica
    /// ([`DEFAULT_CAPACITY`](Self::DEFAULT_CAPACITY) unless set): past
    /// that, a new session is refused.
    pub fn with_capacity(mut self, capacity: usize) -> Self {
        self.capacity = capacity;
        self
    }

    /// The longest session the store keeps, in bytes of JSON
    /// ([`DEFAULT_VALUE_LIMIT`](Self::DEFAULT_VALUE_LIMIT) unless set): a
    /// longer one is refused.
    pub fn with_value_limit(mut self, bytes: usize) -> Self {
        self.value_limit = bytes;
        self
    }

    /// How long a session's key lives after it was written or read; at
    /// least a millisecond.
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// How long one operation may take before it fails.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Runs one of the scripts above on session `session_id` and the
    /// index, with `args` after the id.
    async fn script<T: redis::FromRedisValue>(
        &self,
        body: &str,
        session_id: &str,
        args: &[&str],
        doing: &str,
    ) -> Result<T, SessionStoreError> {
        let script = redis::Script::new(&format!("{}{body}", crate::job_store::INDEX_SCRIPT));
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

    /// Whether the store holds session `session_id`, and whether it is
    /// closed, its expiry set to the TTL again: `None` when it holds none.
    async fn status(&self, session_id: &str) -> Result<Option<String>, SessionStoreError> {
        if session_id.len() > ID_LIMIT {
            return Ok(None);
        }
        let ttl = self.ttl_ms().to_string();
        self.script(STATUS, session_id, &[&ttl], "read a session")
            .await
    }

    /// Why the store would refuse a new session whose value takes `bytes`:
    /// too long, or the store full. `None` when it has room (or cannot
    /// tell: the write that follows decides).
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

    /// The store's error when it holds `held` sessions, as many as it may;
    /// `session_store_full` at WARNING the first time since it last had
    /// room.
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

    /// Waits for `operation`, at most the store timeout.
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

/// A session manager (rmcp's `LocalSessionManager`, say) whose sessions
/// also end when the [`RedisSessionStore`] says the client ended them on
/// another replica.
///
/// rmcp asks a replica's session manager whether it holds the session a
/// request names, and serves it if so: on its own, a replica that holds a
/// session in memory goes on serving it after the client ended it with a
/// DELETE that reached another replica. Under this manager, each request
/// to a session held in memory reads the session's key first (one round
/// trip to Redis, which also sets the key's expiry to the TTL again): a
/// closed session is closed here too, and the request answers HTTP 404 as
/// for any unknown session. A session the store does not hold (written
/// while Redis was down, or expired) stays served where it is held.
/// While Redis fails or does not answer within the store timeout, the
/// replica serves the sessions it holds, and logs `session_store_failed`
/// at WARNING for each such request.
///
/// A new session whose `initialize` parameters the store would not keep
/// (longer than its value limit, or the store full) is refused before its
/// handshake: rmcp answers the `initialize` with HTTP 500 and the reason,
/// and no session is made, rather than one that lives on one replica only.
/// Finding whether the store is full takes one round trip per new session;
/// when Redis fails there, the session goes ahead.
///
/// ```no_run
/// # async fn serve() -> Result<(), outcome_runtime::job_store::StoreError> {
/// use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
/// use outcome_runtime::{session_store::RedisSessionStore, session_store::SessionsInRedis};
///
/// let store = RedisSessionStore::open("redis://127.0.0.1:6379")?;
/// // `StreamableHttpService::new(factory, Arc::new(sessions), config)`,
/// // with `config.session_store` set to the same store.
/// let sessions = SessionsInRedis::new(LocalSessionManager::default(), store.clone());
/// # Ok(()) }
/// ```
pub struct SessionsInRedis<M> {
    inner: M,
    store: RedisSessionStore,
}

impl<M: SessionManager> SessionsInRedis<M> {
    /// `inner`'s sessions, each also ended once `store` says it is closed.
    pub fn new(inner: M, store: RedisSessionStore) -> Self {
        SessionsInRedis { inner, store }
    }
}

/// The error of a [`SessionsInRedis`] session manager: its inner
/// manager's, or the store's refusal of a new session (its `initialize`
/// parameters too long, or the store full), which rmcp answers with HTTP
/// 500 and this error's text.
#[derive(Debug)]
pub struct SessionsError(Box<dyn std::error::Error + Send>);

impl SessionsError {
    fn of<E: std::error::Error + Send + 'static>(error: E) -> Self {
        SessionsError(Box::new(error))
    }
}

impl std::fmt::Display for SessionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for SessionsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// How many bytes the JSON of the client's `initialize` parameters takes,
/// when `message` is an `initialize` request: counted, not written out.
fn initialize_bytes(message: &ClientJsonRpcMessage) -> Option<usize> {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let ClientJsonRpcMessage::Request(request) = message else {
        return None;
    };
    let ClientRequest::InitializeRequest(initialize) = &request.request else {
        return None;
    };
    let mut count = Count(0);
    serde_json::to_writer(&mut count, &initialize.params).ok()?;
    Some(count.0)
}

impl<M: SessionManager> SessionManager for SessionsInRedis<M> {
    type Error = SessionsError;
    type Transport = M::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        self.inner.create_session().await.map_err(SessionsError::of)
    }

    /// Refuses a new session the store would not keep (its `initialize`
    /// parameters too long, or the store full), before the handshake: the
    /// client reads why, and no session lives on one replica alone.
    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        if let Some(bytes) = initialize_bytes(&message)
            && let Some(refused) = self.store.refusal(bytes).await
        {
            let _ = self.inner.close_session(id).await;
            return Err(SessionsError::of(refused));
        }
        self.inner
            .initialize_session(id, message)
            .await
            .map_err(SessionsError::of)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        if !self
            .inner
            .has_session(id)
            .await
            .map_err(SessionsError::of)?
        {
            return Ok(false);
        }
        match self.store.status(id).await {
            Ok(Some(status)) if status == CLOSED => {
                self.inner
                    .close_session(id)
                    .await
                    .map_err(SessionsError::of)?;
                event_at!(
                    Level::INFO,
                    session = &*bounded(id),
                    "session_closed_elsewhere"
                );
                Ok(false)
            }
            Ok(_) => Ok(true),
            Err(error) => {
                event_at!(
                    Level::WARN,
                    session = &*bounded(id),
                    error = %error,
                    "session_store_failed"
                );
                Ok(true)
            }
        }
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.inner
            .close_session(id)
            .await
            .map_err(SessionsError::of)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner
            .create_stream(id, message)
            .await
            .map_err(SessionsError::of)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.inner
            .accept_message(id, message)
            .await
            .map_err(SessionsError::of)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner
            .create_standalone_stream(id)
            .await
            .map_err(SessionsError::of)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner
            .resume(id, last_event_id)
            .await
            .map_err(SessionsError::of)
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        self.inner
            .restore_session(id)
            .await
            .map_err(SessionsError::of)
    }

    fn event_store(
        &self,
    ) -> Option<std::sync::Arc<dyn rmcp::transport::streamable_http_server::session::EventStore>>
    {
        self.inner.event_store()
    }
}
