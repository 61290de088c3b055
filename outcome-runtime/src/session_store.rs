//! The sessions of rmcp's streamable HTTP server in Redis: a session that
//! began on one replica goes on on any other.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use futures_core::Stream;
use redis::aio::ConnectionManager;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore, SessionStoreError,
};
use rmcp::transport::streamable_http_server::session::{
    RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use tracing::Level;

use crate::job_store::{StoreError, connect, once_more};
use crate::records::event_at;

/// The prefix of every session's key.
const PREFIX: &str = "outcome:session:";

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
///     Arc::new(outcome_runtime::RedisSessionStore::open(url)?);
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
}

impl RedisSessionStore {
    /// The TTL of a session's key unless [`with_ttl`](Self::with_ttl) sets
    /// another: 24 hours.
    pub const DEFAULT_TTL: Duration = Duration::from_secs(24 * 60 * 60);

    /// The store timeout unless [`with_timeout`](Self::with_timeout) sets
    /// another: 2 seconds, as the job store's.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

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
        })
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

    /// The session's key, its expiry set to the TTL again: `None` when
    /// there is none.
    async fn touch(&self, session_id: &str) -> Result<Option<String>, SessionStoreError> {
        let mut read = redis::cmd("GETEX");
        read.arg(key(session_id)).arg("PX").arg(self.ttl_ms());
        self.run(read, "read a session").await
    }

    fn ttl_ms(&self) -> u64 {
        u64::try_from(self.ttl.as_millis())
            .unwrap_or(u64::MAX)
            .max(1)
    }

    /// Runs `command` on the connection, within the store timeout.
    async fn run<T: redis::FromRedisValue>(
        &self,
        command: redis::Cmd,
        doing: &str,
    ) -> Result<T, SessionStoreError> {
        let operation = once_more(&self.connection, |mut connection| {
            let command = command.clone();
            async move { command.query_async::<T>(&mut connection).await }
        });
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
            let Some(json) = self.touch(session_id).await? else {
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
            let json = serde_json::to_string(state).map_err(|error| {
                Box::new(StoreError::new(
                    "a session did not serialize",
                    Some(Box::new(error)),
                ))
            })?;
            let mut write = redis::cmd("SET");
            write
                .arg(key(session_id))
                .arg(json)
                .arg("PX")
                .arg(self.ttl_ms());
            self.run(write, "record a session").await
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
            let mut close = redis::cmd("SET");
            close
                .arg(key(session_id))
                .arg(CLOSED)
                .arg("XX")
                .arg("PX")
                .arg(self.ttl_ms());
            self.run(close, "close a session").await
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
/// ```no_run
/// # async fn serve() -> Result<(), outcome_runtime::job_store::StoreError> {
/// use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
/// use outcome_runtime::{RedisSessionStore, SessionsInRedis};
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

impl<M: SessionManager> SessionManager for SessionsInRedis<M> {
    type Error = M::Error;
    type Transport = M::Transport;

    fn create_session(
        &self,
    ) -> impl Future<Output = Result<(SessionId, Self::Transport), Self::Error>> + Send {
        self.inner.create_session()
    }

    fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<ServerJsonRpcMessage, Self::Error>> + Send {
        self.inner.initialize_session(id, message)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        if !self.inner.has_session(id).await? {
            return Ok(false);
        }
        match self.store.touch(id).await {
            Ok(Some(value)) if value == CLOSED => {
                self.inner.close_session(id).await?;
                event_at!(Level::INFO, session = %id, "session_closed_elsewhere");
                Ok(false)
            }
            Ok(_) => Ok(true),
            Err(error) => {
                event_at!(
                    Level::WARN,
                    session = %id,
                    error = %error,
                    "session_store_failed"
                );
                Ok(true)
            }
        }
    }

    fn close_session(
        &self,
        id: &SessionId,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close_session(id)
    }

    fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> impl Future<
        Output = Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error>,
    > + Send {
        self.inner.create_stream(id, message)
    }

    fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.accept_message(id, message)
    }

    fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> impl Future<
        Output = Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error>,
    > + Send {
        self.inner.create_standalone_stream(id)
    }

    fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> impl Future<
        Output = Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error>,
    > + Send {
        self.inner.resume(id, last_event_id)
    }

    fn restore_session(
        &self,
        id: SessionId,
    ) -> impl Future<Output = Result<RestoreOutcome<Self::Transport>, Self::Error>> + Send {
        self.inner.restore_session(id)
    }

    fn event_store(
        &self,
    ) -> Option<std::sync::Arc<dyn rmcp::transport::streamable_http_server::session::EventStore>>
    {
        self.inner.event_store()
    }
}
