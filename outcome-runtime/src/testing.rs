//! Test helpers: capture the log records of a call, connect a client in
//! memory, check that every route is inside the boundary, check a message
//! against the writing rules, and audit a whole server. Behind the
//! `testing` feature: depend on this crate with it in `[dev-dependencies]`.
//!
//! # The writing rules at run time
//!
//! `#[tool]` checks the literal texts of a `ToolError` at compile time. A
//! message built at run time (from a table, a template, another crate's
//! error) is checked in a test with [`check`], [`check_with`] (against the
//! server's tools and their parameters) or [`check_error`] (a
//! `ToolError`, with the rules it waives left out): the same rules, from
//! the same code (`outcome-rules`), so a text the compiler accepts is one
//! these accept. Each rule a text breaks is a [`Broken`]: the rule, where,
//! the words, and what to write instead.
//!
//! ```
//! use outcome_runtime::testing::{Tools, check_with};
//! use outcome_runtime::{Outcome, Rule};
//!
//! let tools = Tools::new().tool_with_parameters("read_note", ["path"]);
//! let text = "No note at 'plan'. Check /srv/notes, then call read_note again.";
//! let broken = check_with(Outcome::Invalid, text, &tools);
//! assert_eq!(broken[0].rule, Rule::NoPath);
//! assert_eq!(broken[0].words, "/srv/notes");
//! ```
//!
//! # The audit
//!
//! [`audit`] calls every tool of a server the way a model gets it wrong:
//! with arguments its input schema refuses, and with arguments it accepts
//! whose strings name nothing the server holds. It checks that each
//! answer tells the model what to change (the table is on [`audit`]). A
//! test asserts `audit(server).await.is_clean()` and prints the report
//! when it is not. The report reads:
//!
//! ```text
//! outcome audit: NOT clean: 2 tools, 8 calls, 1 defects (3 findings in 3 calls)
//!
//! by rule, defects (findings): no-lookup 1 (3)
//! by tool, findings: read_note 3
//!
//! [1] no-lookup: "See the description" sends the model to read something ...
//!   in:     3 calls of read_note
//!   e.g.:   read_note: the required argument path left out
//!   sent:   {"arguments":{},"name":"read_note"}
//!   read:   Invalid input. See the description for valid paths.
//! ```
//!
//! The header counts the tools, the calls made, the defects and the
//! findings they group. A defect is one expectation or writing rule broken
//! by texts of one template: the same first words, but for the names and
//! values of each call (a validator's words after them vary). Each block is one defect: what
//! is wrong, the calls and tools that show it, and one of them as an
//! example: the tool and the mistake the call made on purpose, the call as
//! JSON (send it again to see the answer) and the text the model read.
//! What the audit did not probe, did not run or did not judge is listed,
//! with why, before the blocks. The `outcome-audit` command runs the same
//! audit against a server in any language, over stdio or streamable HTTP.
//!
//! # Log records
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

use crate::{Outcome, ToolError};

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
/// methods, or when [`wrap_router`](crate::handler::wrap_router) or
/// [`wrap_route`](crate::handler::wrap_route) put them there.
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
         `outcome_runtime::handler::wrap_router`",
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

pub use outcome_audit::{
    Audit, AuditReport, Defect, Expectation, Finding, NotJudged, NotProbed, ValidCalls, shown_line,
};
pub use outcome_rules::{Broken, Tools};

/// Checks a message the model reads against the writing rules (the
/// compile-time check's, from the same code), with the server's tools
/// unknown: a step must still name something that reads as a tool, but
/// any name will do. An empty list is a message that keeps to them.
///
/// `outcome` says what the message must do: outcomes 2 and 3 name a tool
/// as the next step; a fault only keeps to the rules about words and
/// length; a result (the tool's value) and a protocol error (the client's)
/// are not the model's recovery text, and nothing is checked.
///
/// ```
/// use outcome_runtime::Outcome;
/// use outcome_runtime::testing::check;
///
/// let good = "No note at 'inbox/todo.md'. Find the path with search_notes.";
/// assert!(check(Outcome::Invalid, good).is_empty());
///
/// let bad = "No note at 'inbox/todo.md'. See the description for valid paths.";
/// let broken = check(Outcome::Invalid, bad);
/// let rules: Vec<&str> = broken.iter().map(|b| b.rule.name()).collect();
/// assert!(rules.contains(&"no-lookup"), "{rules:?}");
/// ```
pub fn check(outcome: Outcome, text: &str) -> Vec<Broken> {
    check_with(outcome, text, &Tools::unknown())
}

/// [`check`], against the tools a message may name: a tool that is not
/// among them, or a parameter that is not that tool's, breaks a rule.
///
/// ```
/// use outcome_runtime::testing::{Tools, check_with};
/// use outcome_runtime::{Outcome, Rule};
///
/// let tools = Tools::new()
///     .tool_with_parameters("search_notes", ["query"])
///     .tool("read_note");
/// let text = "No note at 'plan'. Find the path with find_notes.";
/// let broken = check_with(Outcome::Invalid, text, &tools);
/// assert_eq!(broken[0].rule, Rule::KnownTool);
/// ```
pub fn check_with(outcome: Outcome, text: &str, tools: &Tools) -> Vec<Broken> {
    outcome_rules::check_message(outcome, text, tools)
}

/// [`check`]s a [`ToolError`]'s message for its outcome, leaving out the
/// rules it [`waives`](ToolError::waives).
///
/// ```
/// use outcome_runtime::testing::check_error;
/// use outcome_runtime::{Rule, ToolError, quote};
///
/// let path = "inbox/todo.md";
/// let error = ToolError::invalid(
///     format_args!("No note at {}", quote(path)),
///     "Find the path with search_notes",
/// );
/// assert!(check_error(&error).is_empty());
///
/// // The server's users run this command themselves, by design.
/// let waived = ToolError::invalid(
///     "The notes CLI is older than this server",
///     "Ask the user to run pip install notes-cli, then call sync_notes again",
/// )
/// .waive(Rule::NoCommand);
/// assert!(check_error(&waived).is_empty());
/// ```
pub fn check_error(error: &ToolError) -> Vec<Broken> {
    let mut broken = check(error.outcome(), error.message());
    broken.retain(|b| !error.waives(b.rule));
    broken
}

/// Audits how a server answers the calls a model gets wrong.
///
/// It lists the tools and, from each input schema, derives calls that
/// break it in one way each: a required argument left out or sent as
/// `null`, an argument of the wrong JSON type, a value outside its `enum`,
/// its `minimum`/`maximum` or its `minLength`/`maxLength`, and a key the
/// schema does not declare when `additionalProperties` is `false` (serde
/// ignores unknown keys unless the type denies them, and JSON Schema allows
/// them when the keyword is absent). It calls each, and expects every
/// answer to be:
///
/// | expectation | the answer |
/// |---|---|
/// | `is-error` | a result with `isError` true: not a JSON-RPC error, not a success |
/// | `not-fault` | outcome 2: not the fault or retry message |
/// | `logged-invalid` | logged at INFO as `tool_call_failed`, outcome `invalid` |
/// | `names-argument` | names the argument that is wrong |
/// | `quotes-value` | quotes the value sent, when one was |
/// | a rule's name (`names-tool`, `no-lookup`, ..) | keeps to the writing rules, as `outcome_rules::check_message` reads it with the tools and parameters `tools/list` gives and the tool called (naming the tool that failed is no step) |
///
/// Each tool's description in `tools/list` is checked too, as the
/// compiler checks a `#[tool]`'s (`outcome_rules::check_description`):
/// `description-missing`, `description-too-long` (past 2,048 UTF-16 code
/// units, which clients drop) and `description-lists-failures` (the error
/// text says what went wrong; the description states the contract).
///
/// Each tool is also called once with arguments its schema accepts, each
/// string that any string meets sent as `no-such-audit-value`: a path, an
/// id, a name the server does not hold. That call reaches the tool's own
/// code, and the words its author wrote. A result is a fine answer (an
/// empty search is one); a failure must be a result with `isError` true,
/// not a fault, logged as outcome 2, keeping to the writing rules.
///
/// An answer is not judged, and is listed in [`AuditReport::not_judged`]
/// with why, when it is about something else than the call's mistake: an
/// argument the call did not get wrong (the server refused the audit's
/// baseline value for it), a client capability the audit does not offer
/// (-32021), or, to the call that keeps to the schema, a fault that heals
/// itself. A tool that answers -32601 (a tool that must run as a task) is
/// not probed further. A report in which no answer was judged is not
/// clean.
///
/// The [`AuditReport`] prints a header with the counts, a summary by rule
/// and by tool, a line for each thing not probed, not run or not judged,
/// then one block per [`Defect`] with an example call and the text the
/// model read.
///
/// # Not probed, and the bounds
///
/// The audit bounds what it does with any schema and answer, and reports a
/// tool or argument it makes no call for as a [`NotProbed`], with why. A
/// report with any is not [clean](AuditReport::is_clean). The bounds:
///
/// | bound | default | past it |
/// |---|---|---|
/// | tools probed | 1,000 | the rest not probed |
/// | pages of `tools/list` read | 100 | the rest not read |
/// | a tool's or an argument's name | 128 characters | not probed |
/// | steps of one tool's schema walk (schemas visited, `$ref`s followed, `enum` choices read) | 100,000 | the tool not probed |
/// | nesting of `$ref`s, alternatives, objects, lists | 32 levels | the argument not probed |
/// | a string built, to meet or break a length | 100,000 characters | the mistake (or the required argument) not probed |
/// | a list built, to meet `minItems` | 1,000 items | the argument not probed |
/// | the arguments of one call | 256 KiB | the argument not probed |
/// | the text of an answer checked and kept | 16 KiB | the first 16 KiB checked, and a `short` finding |
/// | findings | 1,000 | the calls stop, the rest not probed |
///
/// A schema it cannot read is not probed either: an entry of the tool
/// list that is not a tool, `properties` that is not an object, a `$ref`
/// outside the schema or in a loop with no way out, a required string
/// with a `pattern` and no `default`, `const`, `enum` or `examples`, a
/// minimum above the maximum, a bound past which JSON carries no number. A
/// `$ref` back to a schema the walk is inside (a recursive type) is
/// followed once per way round, so a recursive argument is probed.
///
/// The server runs in this process, on a thread of its own with a
/// [`LogCapture`], so its log records are checked too. The calls are real:
/// a server that accepts one runs the tool with it, and every tool gets a
/// call its schema accepts, so audit a server built for the test. To audit a server in another process (over stdio or HTTP,
/// with no log records), use [`audit_client`] or the `outcome-audit` CLI.
///
/// ```
/// # use outcome_runtime::{ToolError, quote, tool, tool_handler, tool_router};
/// # use rmcp::handler::server::wrapper::Parameters;
/// # use rmcp::{ServerHandler, schemars};
/// # #[derive(serde::Deserialize, schemars::JsonSchema)]
/// # struct ReadNote { path: String }
/// # #[derive(Clone)] struct Notes;
/// # #[tool_router]
/// # impl Notes {
/// #     /// Return a note's text; look paths up with search_notes first.
/// #     #[tool]
/// #     fn read_note(&self, Parameters(ReadNote { path }): Parameters<ReadNote>) -> Result<String, ToolError> {
/// #         Err(ToolError::invalid(format_args!("No note at {}", quote(&path)), "Find the path with search_notes"))
/// #     }
/// #     /// List the notes whose text contains the query.
/// #     #[tool]
/// #     fn search_notes(&self, Parameters(ReadNote { path }): Parameters<ReadNote>) -> Result<String, ToolError> {
/// #         Ok(path)
/// #     }
/// # }
/// # #[tool_handler]
/// # impl ServerHandler for Notes {}
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let report = outcome_runtime::testing::audit(Notes).await;
/// assert!(report.is_clean(), "{report}");
/// // Six calls that break the schemas, and one that keeps to each.
/// assert_eq!(report.calls, 8);
/// # }
/// ```
///
/// # Panics
///
/// When the in-memory client cannot connect, or the server breaks off a
/// call: that is the test failing.
#[cfg(not(feature = "local"))]
pub async fn audit<S: rmcp::ServerHandler>(server: S) -> AuditReport {
    let thread = tokio::task::spawn_blocking(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime for the audited server");
        let capture = LogCapture::new();
        let _guard = capture.set_default();
        runtime.block_on(async move {
            let client = connect(server, ())
                .await
                .expect("the in-memory client connects");
            let mut logs = || {
                capture
                    .take()
                    .into_iter()
                    .map(|record| outcome_audit::LogRecord {
                        tool: record.field("tool").map(str::to_owned),
                        outcome: record.field("outcome").map(str::to_owned),
                        level: audit_level(record.level),
                        name: record.message,
                    })
                    .collect()
            };
            let report = Audit::new()
                .logs(&mut logs)
                .valid_calls(ValidCalls::Every)
                .run(client.peer())
                .await
                .expect("the server answers every call");
            let _ = client.cancel().await;
            report
        })
    });
    match thread.await {
        Ok(report) => report,
        Err(error) => std::panic::resume_unwind(error.into_panic()),
    }
}

/// The [`audit`] of the server behind any connected rmcp client: one run
/// in another process, over stdio or HTTP. The log records are not
/// checked (`logged-invalid` is left out). Since the server may be live,
/// only the tools annotated read-only get a call their schema accepts
/// ([`ValidCalls::ReadOnly`]). The bounds are [`audit`]'s;
/// [`audit_client_within`] bounds the time as well, and [`Audit`] chooses
/// every setting.
///
/// # Errors
///
/// When listing the tools fails, or a call ends without an answer (the
/// connection closed, a timeout): a JSON-RPC error answer is a finding,
/// not an error.
pub async fn audit_client(
    peer: &rmcp::service::Peer<rmcp::RoleClient>,
) -> Result<AuditReport, rmcp::service::ServiceError> {
    Audit::new().run(peer).await
}

/// [`audit_client`], within `timeout`: when it runs out, the audit stops
/// (even while it reads a schema) and returns the report so far, with a
/// [`NotProbed`] for the tool list that says how many tools it did not
/// reach.
///
/// # Errors
///
/// As [`audit_client`].
pub async fn audit_client_within(
    peer: &rmcp::service::Peer<rmcp::RoleClient>,
    timeout: std::time::Duration,
) -> Result<AuditReport, rmcp::service::ServiceError> {
    Audit::new().within(timeout).run(peer).await
}

/// A record's level as the audit reads it.
#[cfg(not(feature = "local"))]
fn audit_level(level: Level) -> outcome_audit::Level {
    match level {
        Level::ERROR => outcome_audit::Level::Error,
        Level::WARN => outcome_audit::Level::Warn,
        Level::INFO => outcome_audit::Level::Info,
        Level::DEBUG => outcome_audit::Level::Debug,
        _ => outcome_audit::Level::Trace,
    }
}
