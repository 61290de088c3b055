//! The sessions of rmcp's streamable HTTP server in Redis: a session that
//! began on one replica goes on on any other.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use redis::aio::ConnectionManager;
use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore, SessionStoreError,
};

use crate::job_store::{StoreError, connect, once_more};

/// The prefix of every session's key.
const PREFIX: &str = "outcome:session:";

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
/// writes it once, after the handshake, and deletes it when the client
/// ends the session (HTTP DELETE); a replica that restores the session
/// reads it. Both the write and the read set its expiry to the TTL
/// ([`with_ttl`](Self::with_ttl), 24 hours unless set): a session is kept
/// that long after it began or was last restored, however busy it was on
/// the replica that held it, since rmcp does not write it again.
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
            let mut read = redis::cmd("GETEX");
            read.arg(key(session_id)).arg("PX").arg(self.ttl_ms());
            let json: Option<String> = self.run(read, "read a session").await?;
            let Some(json) = json else {
                return Ok(None);
            };
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
            let mut delete = redis::cmd("DEL");
            delete.arg(key(session_id));
            self.run(delete, "drop a session").await
        })
    }
}
