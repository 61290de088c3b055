//! Test helpers (feature `testing`, for `[dev-dependencies]`): capture a
//! call's log records, connect a client in memory, check that every route
//! is inside the boundary, check a message against the writing rules, and
//! audit a whole server.
//!
//! # The writing rules at run time
//!
//! `#[tool]` checks literal texts at compile time; [`check`], [`check_with`]
//! and [`check_error`] apply the same rules to a message built at run time.
//! Each broken rule is a [`Broken`]: the rule, where, and what to write.
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
//! [`audit`] calls every tool the way a model gets it wrong and checks that
//! each answer tells the model what to change. A test asserts
//! `audit(server).await.is_clean()` and prints the report otherwise:
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
//! A defect is one expectation or rule broken by the texts of one template;
//! its example shows the deliberate mistake, the call as JSON to resend, and
//! what the model read. The `outcome-audit` command runs the same audit on
//! a server in any language.
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
//! The capture is the thread's default subscriber while the guard lives:
//! run server and client on a current-thread runtime in that thread.

#[cfg(not(feature = "local"))]
use tracing::Level;

use crate::{Outcome, ToolError};

mod capture;

pub use capture::{LogCapture, Record};

/// Serves `server` and connects `client` (any rmcp client handler; `()` has
/// no capabilities) over an in-memory pipe: no process, no socket. The
/// server runs on a spawned task until the client goes away.
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

/// Fails, naming them, if any route of `router` (disabled, hand-added and
/// trait-based ones included) is outside the boundary: not built by
/// `#[tool_router]` from `#[tool]` methods, nor put there by
/// [`wrap_router`](crate::handler::wrap_router) or
/// [`wrap_route`](crate::handler::wrap_route).
///
/// # Panics
///
/// When a route is outside the boundary: the test failing.
pub fn assert_wrapped<S: 'static>(router: &rmcp::handler::server::tool::ToolRouter<S>) {
    let mut outside: Vec<&str> = router
        .map
        .values()
        .filter(|route| !crate::call::routes::is_wrapped(&route.call))
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

/// Fails unless the current subscriber keeps this crate's INFO records
/// (`tool_call_completed`, and `tool_call_failed` for the model's mistakes).
/// A filter such as `error,my_server=info` drops them; add
/// `outcome_runtime=info`. Call it in a test that builds the server's filter.
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
        crate::logs::request_log::info_recorded(),
        "the current subscriber drops outcome_runtime's INFO records (tool_call_completed, \
         tool_call_failed for the model's mistakes): add outcome_runtime=info to its filter's \
         directives"
    );
}

pub use outcome_audit::{
    Audit, AuditReport, Defect, Expectation, Finding, Heading, NotJudged, NotProbed, ToolSummary,
    ValidCalls, shown_line,
};
pub use outcome_rules::{Broken, Tools};

/// Checks a message the model reads against the writing rules, with the
/// server's tools unknown (a step must name something that reads as a tool).
/// An empty list means the message keeps to them.
///
/// `outcome` says what the message must do: outcomes 2 and 3 name a tool as
/// the next step; a fault keeps only the rules on words and length; a result
/// or protocol error is not recovery text, and nothing is checked.
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

/// [`check`] against the tools a message may name: naming another tool, or a
/// parameter not that tool's, breaks a rule.
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
/// From each tool's input schema it derives calls that break it one way
/// each: a required argument left out or `null`, a wrong JSON type, a value
/// outside its `enum`, `minimum`/`maximum`, `exclusiveMinimum`/
/// `exclusiveMaximum` or `minLength`/`maxLength`, a string outside its
/// `pattern` or `format`, and an undeclared key when `additionalProperties`
/// is `false` (JSON Schema allows one when the keyword is absent). Every
/// answer must be:
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
/// Descriptions are checked as the compiler checks a `#[tool]`'s:
/// `description-missing`, `description-too-long` (past 2,048 UTF-16 code
/// units, which clients drop) and `description-lists-failures` (failures
/// belong in the error text).
///
/// Each tool is also called once with arguments its schema accepts, free
/// strings sent as `no-such-audit-value` (nothing the server holds), to
/// reach the tool's own words. A result is fine; a failure must be an
/// `isError` result logged as outcome 2, keeping to the writing rules.
///
/// An answer about something other than the call's mistake is listed in
/// [`AuditReport::not_judged`], with why: an argument the call did not get
/// wrong, a client capability the audit lacks (-32021), or, to the valid
/// call, a fault that heals itself. A tool that answers -32601 (task only)
/// is not probed further. A report that judged no answer is not clean.
///
/// The [`AuditReport`] prints the counts, a summary by rule and tool, what
/// was not probed, run or judged, then one block per [`Defect`].
///
/// # Not probed, and the bounds
///
/// A tool or argument the audit makes no call for is a [`NotProbed`], with
/// why, and the report is not [clean](AuditReport::is_clean). The bounds:
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
/// Nor is a schema it cannot read: a tool-list entry that is not a tool,
/// `properties` not an object, a `$ref` outside the schema or in an endless
/// loop, a required string whose `pattern` the audit builds no string for
/// and with no `default`, `const`, `enum` or `examples` that keeps to it,
/// a minimum above the maximum, a bound JSON cannot carry. A recursive
/// `$ref` is followed once per way round.
///
/// Each tool the server lists ends under one [`Heading`] of
/// [`AuditReport::by_tool`] (run, not run, not probed, not judged), with
/// why; a report that is not clean says why in
/// [`AuditReport::why_not_clean`] and in its text. A tool that takes no
/// arguments cannot be called wrong: it gets only the call that keeps to
/// its schema, and a result is a fine answer.
///
/// The server runs in this process on a thread of its own, with 8 MiB of
/// stack and a [`LogCapture`], so its log records are checked too. A stack
/// overflow cannot be caught: it aborts the whole test binary. So an
/// argument whose type holds itself with no object or list between (an
/// untagged enum with a variant of itself, which serde reads by trying
/// that variant on the same value without end) is sent no value, and is
/// reported not probed with why. The calls are real, valid ones included:
/// audit a server built for the test. For one in another process, use
/// [`audit_client`] or the `outcome-audit` CLI.
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
/// call: the test failing.
#[cfg(not(feature = "local"))]
pub async fn audit<S: rmcp::ServerHandler>(server: S) -> AuditReport {
    let thread = std::thread::Builder::new()
        .name("outcome-audit-server".into())
        .stack_size(SERVER_STACK)
        .spawn(move || {
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
        })
        .expect("a thread for the audited server");
    // Joined on a blocking thread, so that the caller's runtime goes on.
    match tokio::task::spawn_blocking(move || thread.join()).await {
        Ok(Ok(report)) => report,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(error) => std::panic::resume_unwind(error.into_panic()),
    }
}

/// The stack of the thread [`audit`] runs the server on: a main thread's,
/// four times what tokio gives its threads, since a test runs an
/// unoptimised build whose frames are several times larger than a
/// release build's, and a server's reading of deep (but bounded)
/// arguments must not overflow in a test when it does not in production.
#[cfg(not(feature = "local"))]
const SERVER_STACK: usize = 8 * 1024 * 1024;

/// The [`audit`] of the server behind any connected rmcp client, such as
/// one in another process. Log records are not checked (no
/// `logged-invalid`), and since the server may be live, only read-only
/// tools get a valid call ([`ValidCalls::ReadOnly`]). The bounds are
/// [`audit`]'s; [`audit_client_within`] bounds the time too, and [`Audit`]
/// chooses every setting.
///
/// # Errors
///
/// When listing the tools fails, or a call gets no answer (connection
/// closed, timeout); a JSON-RPC error answer is a finding, not an error.
pub async fn audit_client(
    peer: &rmcp::service::Peer<rmcp::RoleClient>,
) -> Result<AuditReport, rmcp::service::ServiceError> {
    Audit::new().run(peer).await
}

/// [`audit_client`] within `timeout`: then it stops, even mid-schema, and
/// returns the report so far, with a [`NotProbed`] counting the tools left.
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
