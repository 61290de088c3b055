//! The notes server (or any server) behind axum on a free loopback port,
//! reached by a real rmcp client over streamable HTTP.
//!
//! The server runs on a task of the test's current-thread runtime, so the
//! capture sees its records as it does in memory. Its sessions come from
//! `StreamableHttpService` with rmcp's `LocalSessionManager`, each served by
//! the same server value, as the notes example deploys it: one note store
//! for every session.
//!
//! - [`start`]: [`Session::start`](crate::Session::start) over HTTP.
//! - [`connect`]: [`Session::connect`](crate::Session::connect) over HTTP.
//! - [`HttpServer`]: one server for several sessions, all recorded by one
//!   capture.

use std::collections::HashMap;
use std::sync::Arc;

use outcome_runtime::testing::LogCapture;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, Implementation};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::common::client_side_sse::BoxedSseResponse;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpClientTransportConfig, StreamableHttpError,
    StreamableHttpPostResponse, StreamableHttpResponseLimits,
};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ClientHandler, ServerHandler, ServiceExt};
use tracing::subscriber::DefaultGuard;

use crate::{Session, SessionIds};

/// A server listening on a free loopback port, with the capture
/// that records it (and every session's client) kept as the
/// thread's default.
pub struct HttpServer {
    /// The endpoint: `http://127.0.0.1:<port>/mcp`.
    pub url: String,
    /// Every record of the server and of its sessions.
    pub capture: LogCapture,
    _guard: DefaultGuard,
}

impl HttpServer {
    /// Serves `server` to every session that connects.
    pub async fn start<S: ServerHandler>(server: S) -> HttpServer {
        let capture = LogCapture::new();
        let guard = capture.set_default();
        let url = serve(server).await;
        HttpServer {
            url,
            capture,
            _guard: guard,
        }
    }

    /// Serves `server` in rmcp's stateless mode
    /// (`legacy_session_mode = false`): no session, each request served
    /// on its own.
    pub async fn start_stateless<S: ServerHandler>(server: S) -> HttpServer {
        let capture = LogCapture::new();
        let guard = capture.set_default();
        let mut config = StreamableHttpServerConfig::default();
        config.legacy_session_mode = false;
        let url = serve_with(server, config).await;
        HttpServer {
            url,
            capture,
            _guard: guard,
        }
    }

    /// Connects a new client without capabilities: a session
    /// of its own.
    pub async fn session(&self) -> Session {
        self.connect(()).await
    }

    /// Connects `client` as a new session, recorded by the
    /// server's capture.
    pub async fn connect<C: ClientHandler>(&self, client: C) -> Session<C> {
        open(&self.url, client, self.capture.clone(), None).await
    }
}

/// A notes server (`export` as `--export`) over HTTP, with one
/// client session connected to it.
pub async fn start(export: bool) -> Session {
    connect(notes::Notes::new(export), ()).await
}

/// Serves `server` over HTTP, connects `client` to it, and
/// starts the capture empty.
pub async fn connect<S: ServerHandler, C: ClientHandler>(server: S, client: C) -> Session<C> {
    let capture = LogCapture::new();
    let guard = capture.set_default();
    let url = serve(server).await;
    open(&url, client, capture, Some(guard)).await
}

/// Serves `server` at `/mcp` on a free loopback port, on a task
/// of this runtime, until the runtime ends; returns the
/// endpoint's URL.
async fn serve<S: ServerHandler>(server: S) -> String {
    serve_with(server, StreamableHttpServerConfig::default()).await
}

async fn serve_with<S: ServerHandler>(server: S, config: StreamableHttpServerConfig) -> String {
    let server = Arc::new(server);
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free loopback port");
    let address = listener.local_addr().expect("the listener's address");
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{address}/mcp")
}

/// Connects `client` to the endpoint at `url`, noting the
/// session ids its transport sends.
async fn open<C: ClientHandler>(
    url: &str,
    client: C,
    capture: LogCapture,
    guard: Option<DefaultGuard>,
) -> Session<C> {
    let session_ids = SessionIds::default();
    let http = NotingClient {
        http: reqwest::Client::new(),
        session_ids: session_ids.clone(),
    };
    let transport = StreamableHttpClientTransport::with_client(
        http,
        StreamableHttpClientTransportConfig::with_uri(url),
    );
    let client = client
        .serve(transport)
        .await
        .expect("the client connects over HTTP");
    Session::ready(client, capture, guard, session_ids).await
}

/// rmcp's reqwest client, noting the session id (the
/// `Mcp-Session-Id` header) of every request it sends.
#[derive(Clone)]
struct NotingClient {
    http: reqwest::Client,
    session_ids: SessionIds,
}

type Sent<T> = Result<T, StreamableHttpError<reqwest::Error>>;

/// The client's `initialize`, under a name of its own, as every real
/// client sends it: rmcp's default name and version are what rmcp's
/// stateless mode makes up for a request, which the runtime reads as a
/// request of no session.
fn named(mut message: ClientJsonRpcMessage) -> ClientJsonRpcMessage {
    if let ClientJsonRpcMessage::Request(request) = &mut message
        && let ClientRequest::InitializeRequest(initialize) = &mut request.request
    {
        initialize.params.client_info = Implementation::new("outcome-tests", "0.1.0");
    }
    message
}

impl NotingClient {
    fn note(&self, session_id: &Option<Arc<str>>) {
        if let Some(id) = session_id {
            self.session_ids.note(id);
        }
    }
}

impl StreamableHttpClient for NotingClient {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<http::HeaderName, http::HeaderValue>,
    ) -> Sent<StreamableHttpPostResponse> {
        self.note(&session_id);
        self.http
            .post_message(uri, named(message), session_id, auth_header, custom_headers)
            .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<http::HeaderName, http::HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Sent<StreamableHttpPostResponse> {
        self.note(&session_id);
        self.http
            .post_message_with_response_limits(
                uri,
                named(message),
                session_id,
                auth_header,
                custom_headers,
                limits,
            )
            .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<http::HeaderName, http::HeaderValue>,
    ) -> Sent<()> {
        self.http
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<http::HeaderName, http::HeaderValue>,
    ) -> Sent<BoxedSseResponse> {
        self.note(&session_id);
        self.http
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<http::HeaderName, http::HeaderValue>,
        max_sse_event_size: usize,
    ) -> Sent<BoxedSseResponse> {
        self.note(&session_id);
        self.http
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await
    }
}
