//! Test helpers: capture the log records of a call, connect a client in
//! memory, check that every route is inside the boundary. Behind the
//! `testing` feature: depend on this crate with it in `[dev-dependencies]`.
//!
//! ```
//! use outcome_runtime::testing::LogCapture;
//!
//! let capture = LogCapture::new();
//! {
//!     let _guard = capture.set_default();
//!     tracing::warn!(tool = "reindex", "tool_failed");
//! }
//! let records = capture.take();
//! assert_eq!(records[0].name(), "tool_failed");
//! assert_eq!(records[0].field("tool"), Some("reindex"));
//! ```
//!
//! The capture is the thread's default subscriber while the guard lives, so
//! run the server and the client on a current-thread runtime in that thread.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::ThreadId;

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record as SpanRecord};
use tracing::subscriber::DefaultGuard;
use tracing::{Event, Level, Metadata, Subscriber};

/// One captured event.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The event's level.
    pub level: Level,
    /// The event's target (`outcome_runtime` for the runtime's records).
    pub target: String,
    /// The event's message: for the runtime's records, the event name
    /// (`tool_call_completed`, `tool_call_failed`, `tool_failed`).
    pub message: String,
    /// Every other field, formatted, in the order they were recorded.
    pub fields: Vec<(String, String)>,
    /// The fields of the spans the event was recorded in, innermost span
    /// first, as they were when the event was recorded: the runtime's
    /// `tools/call` span among them.
    pub spans: Vec<(String, String)>,
}

impl Record {
    /// The event name: its message.
    pub fn name(&self) -> &str {
        &self.message
    }

    /// A field's value as text, if the event recorded it.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, value)| value.as_str())
    }

    /// A field of the innermost span, of those the event was recorded in,
    /// that has it: `record.span_field("gen_ai.tool.name")` reads the tool
    /// of the runtime's `tools/call` span.
    pub fn span_field(&self, name: &str) -> Option<&str> {
        self.spans
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, value)| value.as_str())
    }
}

impl fmt::Display for Record {
    /// One line: level, event name, then `field=value` pairs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:<5} {}", self.level, self.message)?;
        for (name, value) in &self.fields {
            write!(f, " {name}={value}")?;
        }
        Ok(())
    }
}

/// Captures every event at INFO and above, from any target, with the
/// fields of the spans it was recorded in.
#[derive(Clone, Debug, Default)]
pub struct LogCapture {
    records: Arc<Mutex<Vec<Record>>>,
    spans: Arc<Mutex<Spans>>,
    next_span: Arc<AtomicU64>,
}

/// The open spans and, for each thread, the spans it has entered.
#[derive(Debug, Default)]
struct Spans {
    open: HashMap<u64, OpenSpan>,
    entered: HashMap<ThreadId, Vec<u64>>,
}

#[derive(Debug)]
struct OpenSpan {
    parent: Option<u64>,
    fields: Vec<(String, String)>,
    handles: usize,
}

impl Spans {
    /// The fields of the span `id` and of its parents, innermost first.
    fn fields(&self, mut id: Option<u64>) -> Vec<(String, String)> {
        let mut fields = Vec::new();
        while let Some(span) = id.and_then(|id| self.open.get(&id)) {
            fields.extend(span.fields.iter().cloned());
            id = span.parent;
        }
        fields
    }

    fn current(&self) -> Option<u64> {
        self.entered
            .get(&std::thread::current().id())
            .and_then(|stack| stack.last().copied())
    }
}

impl LogCapture {
    /// An empty capture.
    pub fn new() -> Self {
        Self::default()
    }

    /// Makes this capture the thread's default subscriber until the guard is
    /// dropped.
    pub fn set_default(&self) -> DefaultGuard {
        tracing::subscriber::set_default(self.clone())
    }

    /// A copy of the records so far.
    pub fn records(&self) -> Vec<Record> {
        self.lock().clone()
    }

    /// The records so far, leaving the capture empty.
    pub fn take(&self) -> Vec<Record> {
        std::mem::take(&mut *self.lock())
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Record>> {
        self.records.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn spans(&self) -> MutexGuard<'_, Spans> {
        self.spans.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Subscriber for LogCapture {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        *metadata.level() <= Level::INFO
    }

    fn max_level_hint(&self) -> Option<tracing::level_filters::LevelFilter> {
        Some(tracing::level_filters::LevelFilter::INFO)
    }

    fn new_span(&self, attributes: &Attributes<'_>) -> Id {
        let id = self.next_span.fetch_add(1, Ordering::Relaxed) + 1;
        let mut visitor = Fields::default();
        attributes.record(&mut visitor);
        let mut spans = self.spans();
        let parent = if attributes.is_root() {
            None
        } else if let Some(parent) = attributes.parent() {
            Some(parent.into_u64())
        } else {
            spans.current()
        };
        spans.open.insert(
            id,
            OpenSpan {
                parent,
                fields: visitor.fields,
                handles: 1,
            },
        );
        Id::from_u64(id)
    }

    fn record(&self, id: &Id, values: &SpanRecord<'_>) {
        let mut visitor = Fields::default();
        values.record(&mut visitor);
        if let Some(span) = self.spans().open.get_mut(&id.into_u64()) {
            for (name, value) in visitor.fields {
                match span.fields.iter_mut().find(|(field, _)| *field == name) {
                    Some(field) => field.1 = value,
                    None => span.fields.push((name, value)),
                }
            }
        }
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let metadata = event.metadata();
        let mut visitor = Fields::default();
        event.record(&mut visitor);
        let spans = {
            let spans = self.spans();
            let parent = if event.is_root() {
                None
            } else if let Some(parent) = event.parent() {
                Some(parent.into_u64())
            } else {
                spans.current()
            };
            spans.fields(parent)
        };
        self.lock().push(Record {
            level: *metadata.level(),
            target: metadata.target().to_owned(),
            message: visitor.message,
            fields: visitor.fields,
            spans,
        });
    }

    fn enter(&self, id: &Id) {
        let mut spans = self.spans();
        spans
            .entered
            .entry(std::thread::current().id())
            .or_default()
            .push(id.into_u64());
    }

    fn exit(&self, id: &Id) {
        let mut spans = self.spans();
        let thread = std::thread::current().id();
        if let Some(stack) = spans.entered.get_mut(&thread) {
            if let Some(at) = stack.iter().rposition(|entered| *entered == id.into_u64()) {
                stack.remove(at);
            }
            if stack.is_empty() {
                spans.entered.remove(&thread);
            }
        }
    }

    fn clone_span(&self, id: &Id) -> Id {
        if let Some(span) = self.spans().open.get_mut(&id.into_u64()) {
            span.handles += 1;
        }
        id.clone()
    }

    fn try_close(&self, id: Id) -> bool {
        let mut spans = self.spans();
        let Some(span) = spans.open.get_mut(&id.into_u64()) else {
            return false;
        };
        span.handles -= 1;
        if span.handles > 0 {
            return false;
        }
        spans.open.remove(&id.into_u64());
        true
    }
}

#[derive(Default)]
struct Fields {
    message: String,
    fields: Vec<(String, String)>,
}

impl Visit for Fields {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.message = value.to_owned();
        } else {
            self.fields
                .push((field.name().to_owned(), value.to_owned()));
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if field.name() == "message" {
            self.message = format!("{value:?}");
        } else {
            self.fields
                .push((field.name().to_owned(), format!("{value:?}")));
        }
    }
}

/// Serves `server` and connects `client` to it over an in-memory pipe: a
/// real rmcp client and server, with no process and no socket. The server
/// runs on a spawned task until the client goes away.
///
/// `client` is any rmcp client handler; `()` is a client with no
/// capabilities (no sampling, no elicitation).
///
/// ```
/// # use outcome_runtime::{ToolError, tool, tool_handler, tool_router};
/// # use rmcp::ServerHandler;
/// # #[derive(Clone)] struct Clock;
/// # #[tool_router]
/// # impl Clock {
/// #     /// Return the time of day.
/// #     #[tool]
/// #     fn now(&self) -> Result<String, ToolError> { Ok("12:00".into()) }
/// # }
/// # #[tool_handler]
/// # impl ServerHandler for Clock {}
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// use outcome_runtime::testing::{LogCapture, connect};
/// use rmcp::model::CallToolRequestParams;
///
/// let capture = LogCapture::new();
/// let _guard = capture.set_default();
/// let client = connect(Clock, ()).await?;
/// let result = client.call_tool(CallToolRequestParams::new("now")).await?;
/// assert_eq!(result.is_error, Some(false));
/// assert!(capture.records().iter().any(|r| r.name() == "tool_call_completed"));
/// # Ok(())
/// # }
/// ```
#[cfg(not(feature = "local"))]
pub async fn connect<S, C>(
    server: S,
    client: C,
) -> Result<rmcp::service::RunningService<rmcp::RoleClient, C>, rmcp::service::ClientInitializeError>
where
    S: rmcp::ServerHandler,
    C: rmcp::ClientHandler,
{
    use rmcp::ServiceExt;

    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    client.serve(client_io).await
}

/// Fails, naming them, if any route of `router` is outside the boundary:
/// disabled routes, routes added by hand and trait-based tools included.
///
/// Routes are inside when `#[tool_router]` built them from `#[tool]`
/// methods, or when [`wrap_router`](crate::wrap_router) or
/// [`wrap_route`](crate::wrap_route) put them there.
///
/// # Panics
///
/// When a route is not inside the boundary: that is the test failing.
pub fn assert_wrapped<S: 'static>(router: &rmcp::handler::server::tool::ToolRouter<S>) {
    let mut outside: Vec<&str> = router
        .map
        .values()
        .filter(|route| !crate::routes::is_wrapped(&route.call))
        .map(|route| &*route.attr.name)
        .collect();
    outside.sort_unstable();
    assert!(
        outside.is_empty(),
        "tools outside the outcome boundary: {}; build them with `#[outcome_runtime::tool]` \
         under `#[outcome_runtime::tool_router]`, or pass the router through \
         `outcome_runtime::wrap_router`",
        outside.join(", ")
    );
}

/// Fails unless the current subscriber records this crate's INFO records:
/// `tool_call_completed`, and `tool_call_failed` for the model's mistakes.
///
/// A filter written before the migration often keeps ERROR from every
/// target and INFO from the server's own crate only (`error,my_server=info`),
/// which drops them; adding `outcome_runtime=info` to its directives keeps
/// them. Call this where the server installs its subscriber, in a test that
/// builds the same filter.
///
/// ```
/// use tracing_subscriber::filter::{LevelFilter, Targets};
/// use tracing_subscriber::layer::SubscriberExt;
///
/// let filter = Targets::new()
///     .with_default(LevelFilter::ERROR)
///     .with_target("my_server", LevelFilter::INFO)
///     .with_target("outcome_runtime", LevelFilter::INFO);
/// let subscriber = tracing_subscriber::registry().with(filter);
/// tracing::subscriber::with_default(subscriber, || {
///     outcome_runtime::testing::assert_records_kept();
/// });
/// ```
#[track_caller]
pub fn assert_records_kept() {
    assert!(
        crate::logging::info_recorded(),
        "the current subscriber drops outcome_runtime's INFO records (tool_call_completed, \
         tool_call_failed for the model's mistakes): add outcome_runtime=info to its filter's \
         directives"
    );
}
