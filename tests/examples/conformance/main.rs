//! The conformance server: everything the server scenarios of the official
//! MCP conformance suite (`@modelcontextprotocol/conformance`) ask for,
//! served over rmcp's streamable HTTP transport.
//!
//! Every tool is a `#[tool]` of this crate, so each call runs inside the
//! boundary and gets its request log line; prompts, resources, completion
//! and logging are rmcp's own `ServerHandler` methods.
//!
//! ```text
//! cargo run -p outcome-tests --example conformance -- --port 3001
//! npx @modelcontextprotocol/conformance@0.1.16 server --url http://127.0.0.1:3001/mcp --suite all
//! ```
//!
//! It listens on `http://127.0.0.1:<port>/mcp` until it gets Ctrl-C or
//! SIGTERM (`--port 0` picks a free port, and the first log line names
//! it), and logs to stderr: this crate's request log and everything else
//! at INFO and above, rmcp's own lines from WARN.

// The suite exercises features that later protocol revisions deprecate:
// logging, sampling and `resources/subscribe`.
#![allow(deprecated)]

use std::collections::hash_map::RandomState;
use std::collections::{BTreeMap, BTreeSet};
use std::error::Error;
use std::hash::{BuildHasher, Hasher};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use outcome_runtime::{ToolError, quote, tool, tool_handler, tool_router};
use rmcp::handler::server::tool::{InputResponses, RequestState};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResponse, CallToolResult, ClientCapabilities, CompleteRequestParams, CompleteResult,
    CompletionInfo, ContentBlock, CreateMessageRequest, CreateMessageRequestParams, ElicitRequest,
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema,
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, Implementation, InputRequest,
    InputRequests, InputRequiredResult, JsonObject, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListRootsRequest, LoggingLevel, LoggingMessageNotificationParam,
    PaginatedRequestParams, ProgressNotificationParam, Prompt, PromptArgument, PromptMessage,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    Reference, RequestMetaObject, RequestStateCodec, Resource, ResourceContents, ResourceTemplate,
    Role, SamplingMessage, ServerCapabilities, ServerInfo, SetLevelRequestParams,
    SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext, SubscriptionSink};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler, ServiceError, schemars};
use serde::Deserialize;
use serde_json::{Value, json};
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// A 2x2 teal PNG, base64.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAD0lEQVR42mNgaGgAIQgFABoOBAFCl+Z5AAAAAElFTkSuQmCC";

/// Two milliseconds of silence: 8 kHz, mono, 8-bit PCM WAV, base64.
const WAV: &str =
    "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YRAAAACAgICAgICAgICAgICAgICA";

/// The resource template the suite reads through.
const TEMPLATE: &str = "test://template/{id}/data";

/// The pause between the notifications a tool sends during a call, so that
/// a client sees them arrive one by one.
const PAUSE: Duration = Duration::from_millis(50);

/// What all sessions share: the open `subscriptions/listen` streams and the
/// key that seals `requestState`.
struct Shared {
    /// The open listen streams, by a number of this server's.
    listeners: Mutex<BTreeMap<u64, SubscriptionSink>>,
    /// The number the last listen stream got.
    last_listener: AtomicU64,
    /// Seals the `requestState` of multi-round calls, and opens only what
    /// it sealed.
    codec: RequestStateCodec,
}

/// A list whose change the listen streams hear about.
#[derive(Clone, Copy)]
enum List {
    Tools,
    Prompts,
}

impl Shared {
    /// No listen streams yet, and a fresh sealing key.
    fn new() -> Self {
        Self {
            listeners: Mutex::new(BTreeMap::new()),
            last_listener: AtomicU64::new(0),
            codec: RequestStateCodec::new(process_key()),
        }
    }

    /// Tells every listen stream that asked for it that `list` changed;
    /// returns how many were told.
    async fn changed(&self, list: List) -> usize {
        let listeners: Vec<SubscriptionSink> = lock(&self.listeners).values().cloned().collect();
        let mut told = 0;
        for listener in listeners {
            // A stream that did not ask for this list, or that just
            // closed, refuses it; that is no failure of the caller's.
            let sent = match list {
                List::Tools => listener.notify_tool_list_changed().await,
                List::Prompts => listener.notify_prompt_list_changed().await,
            };
            told += usize::from(sent.is_ok());
        }
        told
    }
}

/// A 32-byte key drawn at start-up from the standard library's randomly
/// seeded hasher: sealed states only have to open in this process.
fn process_key() -> Vec<u8> {
    let random = RandomState::new();
    (0..4u64)
        .flat_map(|round| {
            let mut hasher = random.build_hasher();
            hasher.write_u64(round);
            hasher.finish().to_le_bytes()
        })
        .collect()
}

/// Locks `mutex`, whether or not a holder panicked: every value behind one
/// here is valid at every point.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The state of one session: the service factory makes one per client
/// session (per request, for clients of the stateless 2026-07-28
/// protocol).
struct Conformance {
    shared: Arc<Shared>,
    /// The lowest level of log notification the client asked for with
    /// `logging/setLevel`; every level until it asks.
    log_level: Mutex<Option<LoggingLevel>>,
    /// The resource URIs the client subscribed to.
    subscriptions: Mutex<BTreeSet<String>>,
}

impl Conformance {
    /// A new session: no log level asked for, no subscriptions.
    fn new(shared: Arc<Shared>) -> Self {
        Self {
            shared,
            log_level: Mutex::new(None),
            subscriptions: Mutex::new(BTreeSet::new()),
        }
    }

    /// Sends `message` to the client as a log notification at `level`, if
    /// the client asked for it: at 2026-07-28 and later through the
    /// request's `_meta` log level, before through `logging/setLevel`
    /// (every level until it was called).
    async fn log(
        &self,
        context: &RequestContext<RoleServer>,
        level: LoggingLevel,
        message: &str,
    ) -> Result<(), ServiceError> {
        let wanted = match context.meta.log_level() {
            Some(wanted) => wanted,
            None if !legacy(context) => return Ok(()),
            None => match *lock(&self.log_level) {
                Some(wanted) => wanted,
                None => LoggingLevel::Debug,
            },
        };
        if severity(level) < severity(wanted) {
            return Ok(());
        }
        let notification = LoggingMessageNotificationParam::new(level, json!(message))
            .with_logger("outcome-conformance");
        context.peer.notify_logging_message(notification).await
    }
}

/// Whether the request uses a protocol before 2026-07-28, with sessions,
/// server-to-client requests and `logging/setLevel`.
fn legacy(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_none_or(|version| version.as_str() < ProtocolVersion::V_2026_07_28.as_str())
}

/// A log level's rank: higher is more severe.
fn severity(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// The arguments of `test_sampling`.
#[derive(Deserialize, schemars::JsonSchema)]
struct SamplingArgs {
    /// The prompt to send to the client's model.
    prompt: String,
}

/// The arguments of `test_elicitation`.
#[derive(Deserialize, schemars::JsonSchema)]
struct ElicitationArgs {
    /// The message the client shows its user.
    message: String,
}

/// The arguments of `json_schema_2020_12_tool`, as its hand-written schema
/// describes them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Contact {
    name: Option<String>,
    address: Option<Address>,
    contact_method: Option<String>,
    phone: Option<String>,
    email: Option<String>,
}

/// The arguments of `test_custom_header`.
#[derive(Deserialize)]
struct RegionArgs {
    region: String,
}

/// A contact's address.
#[derive(Deserialize)]
struct Address {
    city: Option<String>,
}

mod handler;
mod requests;
mod tools;

use requests::*;

/// The port given as `--port N`; 0 lets the system pick a free one.
fn port() -> Result<u16, String> {
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next(), args.next()) {
        (Some("--port"), Some(port), None) => port
            .parse()
            .map_err(|_| format!("--port takes a TCP port number, not {}", quote(&port))),
        _ => Err("usage: conformance --port <port>".to_owned()),
    }
}

/// Completes at Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = interrupt => {}
                    _ = terminate.recv() => {}
                }
            }
            Err(_) => drop(interrupt.await),
        }
    }
    #[cfg(not(unix))]
    drop(interrupt.await);
}

/// Serves until Ctrl-C or SIGTERM.
#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let port = match port() {
        Ok(port) => port,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    // INFO and above, but rmcp's own lines from WARN: it logs every session
    // it starts and ends at INFO.
    let filter = Targets::new()
        .with_default(LevelFilter::INFO)
        .with_target("rmcp", LevelFilter::WARN);
    let colour = std::io::stderr().is_terminal();
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(colour),
        )
        .with(filter)
        .init();

    // rmcp's defaults accept only loopback `Host` headers, which is what
    // keeps DNS rebinding out; the origins are checked too.
    let config = StreamableHttpServerConfig::default().with_allowed_origins([
        "http://localhost:*",
        "http://127.0.0.1:*",
        "http://[::1]:*",
    ]);
    let stop = config.cancellation_token.clone();
    let shared = Arc::new(Shared::new());
    let service = StreamableHttpService::new(
        move || Ok(Conformance::new(shared.clone())),
        LocalSessionManager::default().into(),
        config,
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    // With `--port 0` the system picks a free port; this line names it.
    tracing::info!("serving MCP at http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown_signal().await;
            // Ends the open SSE streams, so the server can stop.
            stop.cancel();
        })
        .await?;
    Ok(())
}
