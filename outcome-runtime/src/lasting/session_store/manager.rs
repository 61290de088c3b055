//! rmcp's session manager, with each session also ended once the store
//! says it is closed, and a new session refused before its handshake when
//! the store would not keep it.

use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::{
    RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use tracing::Level;

use super::{CLOSED, RedisSessionStore};
use crate::base::bounds::bounded;
use crate::logs::records::event_at;

/// A session manager (rmcp's `LocalSessionManager`, say) whose sessions
/// also end when the [`RedisSessionStore`] says the client ended them on
/// another replica.
///
/// Alone, a replica serves a session it holds even after a DELETE reached
/// another. Here, each request to a session held in memory first reads its
/// key (one round trip, which also resets the TTL): a closed session is
/// closed here too, and the request answers HTTP 404. A session the store
/// lacks (written while Redis was down, or expired) is still served. While
/// Redis fails or times out, held sessions are served and each request
/// logs `session_store_failed` at WARNING.
///
/// A new session the store would not keep (its `initialize` parameters too
/// long, or the store full) is refused before its handshake, rather than
/// live on one replica: rmcp answers HTTP 500 with the reason. That costs
/// one round trip per new session; if Redis fails there, it goes ahead.
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

/// The error of [`SessionsInRedis`]: its inner manager's, or the store's
/// refusal of a new session.
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

/// The JSON size of an `initialize` request's parameters, not written out.
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

    /// Refuses a new session the store would not keep: see the type.
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
