//! Every rmcp tool call ends in one of four outcomes, automatically.
//!
//! | # | outcome | who acts | the model reads | log level |
//! |---|---|---|---|---|
//! | 1 | a result | nobody | the value | INFO `tool_call_completed` |
//! | 2 | change the request | the model | what was wrong and the next step | INFO |
//! | 3 | refresh, then retry | the model | as 2, plus: resending fails, and where the fresh value comes from | INFO |
//! | 4 | the server failed | nobody (it heals itself) / an operator | the request was fine; retry later, or tell the user | WARNING / ERROR |
//!
//! Swap rmcp's `tool`, `tool_router` and `tool_handler` for this crate's,
//! and have each tool return `Result<T, ToolError>`:
//!
//! ```
//! use outcome_runtime::{ToolError, quote, tool, tool_handler, tool_router};
//! use rmcp::handler::server::wrapper::{Json, Parameters};
//! use rmcp::{ServerHandler, schemars};
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct ReadNote {
//!     /// The note's path, as search_notes lists it.
//!     path: String,
//! }
//!
//! #[derive(serde::Serialize, schemars::JsonSchema)]
//! struct Note {
//!     text: String,
//! }
//!
//! struct Notes;
//!
//! #[tool_router]
//! impl Notes {
//!     /// Return a note's text; look paths up with search_notes first.
//!     ///
//!     /// # Errors
//!     ///
//!     /// This section stays in rustdoc: the model never reads it.
//!     #[tool]
//!     fn read_note(
//!         &self,
//!         Parameters(ReadNote { path }): Parameters<ReadNote>,
//!     ) -> Result<Json<Note>, ToolError> {
//!         if path != "plan.md" {
//!             return Err(ToolError::invalid(
//!                 format_args!("No note at {}", quote(&path)),
//!                 "Find the path with search_notes",
//!             ));
//!         }
//!         Ok(Json(Note { text: "# Plan".into() }))
//!     }
//! }
//!
//! #[tool_handler]
//! impl ServerHandler for Notes {}
//! ```
//!
//! What each piece does:
//!
//! - [`tool`]: rmcp's `#[tool]`, with the body inside the [boundary](#the-boundary)
//!   and the description cut at the doc comment's first heading.
//! - [`tool_router`]: rmcp's `#[tool_router]`, which also refuses to compile a
//!   tool that rmcp's own `#[tool]` made (outside the boundary).
//! - [`tool_handler`]: rmcp's `#[tool_handler]`, plus a request log line for
//!   every `tools/call`, and a router that is built once, not per call.
//! - [`ToolError`]: outcomes 2, 3 and 4, with message builders that keep the
//!   text the model reads to the rules.
//! - [`wrap_router`]: the boundary for tools that are not `#[tool]` methods
//!   (rmcp's trait-based tools, routes added by hand).
//! - [`Jobs`]: long-running tools; past a deadline the model gets a job to
//!   poll with the `job_status` tool, and reads the same answer later.
//! - `spawn_tool_task`: a call run as a task of rmcp's tasks extension, by
//!   the same rules (not under the `local` feature).
//! - `testing` (feature `testing`, for dev-dependencies): the log records
//!   of a call, an in-memory client, and a check
//!   that every tool of a router is inside the boundary.
//!
//! The three macros are this crate's own, built without rmcp's macros:
//! rmcp's `macros` feature (its macro crate, and darling with it) is
//! needed only for rmcp's prompt macros.
//!
//! # The boundary
//!
//! Every `#[tool]` body runs inside it. A `ToolError` passes with its own
//! level. An rmcp `ErrorData` keeps the meaning of its code (invalid params
//! is outcome 2, a missing client capability passes through; see
//! [`ToolError`]). Any other error (through `?`) and any panic become
//! outcome 4: the model reads one fixed message that never names the cause,
//! and the operator reads one `tool_failed` record with the error chain, or
//! the panic's message and location. A timeout (`std::io::ErrorKind::TimedOut`,
//! tokio's `Elapsed`), with the `reqwest` feature a reqwest timeout or HTTP
//! 429, or a [`Transient`] error anywhere in the source chain makes the fault
//! heal itself: WARNING, and a message that says to retry.
//! The server keeps serving after a panic, as long as the binary unwinds
//! (`panic = "abort"` ends the process, boundary or not).
//!
//! A caught panic stays off stderr when a subscriber records the runtime's
//! `tool_failed`; when nothing would (no subscriber at all, or a filter that
//! leaves the `outcome_runtime` target out, as `RUST_LOG=my_server=info`
//! does), it goes to the panic hook that was installed before, once, so it
//! is never silent. A subscriber that panics while it records one of the
//! runtime's events loses that record, not the call: its panic goes to that
//! hook too.
//!
//! # Bounds
//!
//! Everything the model and the log read is bounded, whatever a tool, an
//! error type or a client passes:
//!
//! | what | bound |
//! |---|---|
//! | a message built by [`ToolError::invalid`], [`ToolError::stale`] or [`ToolError::retry_later`] | one line, at most [`MESSAGE_LIMIT`] characters (1,000); line breaks become spaces, invisible characters are escaped, an empty part is left out or replaced by a fallback step that names the tool |
//! | a value quoted with [`quote`] | [`QUOTE_LIMIT`] characters (80) after escaping; every control and invisible character (bidi controls, zero-width characters, tag characters, variation selectors, Hangul fillers) written as an escape |
//! | an error chain in `tool_failed` | the first 32 errors of the chain, 64 KiB of text, saying what was cut; a chain that cycles is cut there |
//! | an error whose `Display` fails or panics | described as such in the record; its `error.type` and level are kept, since classification goes by type |
//! | a panic message in `tool_failed` | 64 KiB |
//! | a tool name in a record | 128 characters, invisible characters escaped |
//! | a request id, session id or protocol version in a record or span | 128 characters, invisible characters escaped, recorded as text (quoted by `tracing-subscriber`'s formatters), never written bare |
//! | the span's name (`otel.name`) | `tools/call ` and a bounded tool name, recorded as text |
//! | a metric attribute | only values the server defines: an unknown tool, or a protocol version MCP does not define, is `_OTHER` |
//! | what the model reads of arguments that do not deserialize | this crate's words, the argument named and its value through [`quote`]; never serde's text |
//!
//! # What no boundary can catch
//!
//! - A binary built with `panic = "abort"`: the first panic ends the
//!   process. The operator sees Rust's panic message on stderr (through the
//!   hook that was installed before this crate's); the client sees its
//!   connection close, and no log record is written.
//! - A panic while another panic unwinds (a `Drop` that panics during
//!   unwinding): Rust aborts the process. Before it dies, the panics that
//!   were still unwinding on that thread are written to stderr, root cause
//!   first, then the abort itself.
//! - A stack overflow, and other signals that kill the process: Rust prints
//!   `thread '..' has overflowed its stack` and aborts; nothing runs after
//!   it.
//! - Code that blocks the thread for ever (an endless loop in a tool body):
//!   the call is never answered. [`Jobs`] bound a long-running tool's
//!   answer, but cannot stop a thread that never yields.
//!
//! # Log records
//!
//! All under the target `outcome_runtime`:
//!
//! | event | level | fields |
//! |---|---|---|
//! | `tool_call_completed` | INFO | `tool`, `outcome` (`result`), `duration_ms` |
//! | `tool_call_failed` | the outcome's | `tool`, `outcome` (`invalid`, `stale`, `fault`, `protocol`), `duration_ms`, `error.type`, `error.code` |
//! | `tool_call_cancelled` | INFO | `tool`, `outcome` (`cancelled`), `duration_ms` |
//! | `tool_call_deferred` | INFO | `tool`, `outcome`, `duration_ms`: the call answered without its result. `deferred`: a long-running tool answered with a job, and the job writes the call's own line when it ends; `input_required`: the tool asked the client for input (protocol 2026-07-28), and the call that brings it is logged as its own; `task`: the call became a task |
//! | `job_answer_lost` | WARNING | `tool`, `job`, `error`: a job's work ended but its store failed to keep the answer; its polls read the store's fault while the store fails, then the fault of a job past its deadline (or an unknown job, if the store lost the record too) |
//! | `tool_failed` | WARNING or ERROR | `tool`, `outcome` (`fault`), `error.type`, `error` (the chain or the panic message), `panic.location`, `panic.backtrace` (when `RUST_BACKTRACE` asks for one) |
//!
//! `protocol` is a JSON-RPC error that reaches the client as itself (an
//! unknown tool, a missing client capability): INFO, with `error.code`.
//!
//! # Spans and OpenTelemetry
//!
//! Every `tools/call`, including one that fails before its body runs, runs
//! in one INFO span of the target `outcome_runtime`, named `tools/call`; the
//! call's log records and everything its body logs are inside it. Its
//! fields follow OpenTelemetry's semantic conventions for MCP
//! (`docs/gen-ai/mcp.md` of `semantic-conventions-genai` v0.1.0, status
//! Development), so that [tracing-opentelemetry] exports it as they
//! describe:
//!
//! | field | value |
//! |---|---|
//! | `otel.name` | `tools/call {tool}`: the span's name in OpenTelemetry |
//! | `otel.kind` | `server` |
//! | `mcp.method.name`, `gen_ai.operation.name` | `tools/call`, `execute_tool` |
//! | `gen_ai.tool.name`, `jsonrpc.request.id` | the tool and the request's id |
//! | `mcp.session.id` | the `Mcp-Session-Id` header, over streamable HTTP with sessions |
//! | `mcp.protocol.version` | the version the request or its session carries |
//! | `network.transport` | `tcp` over HTTP (with `network.protocol.name` `http` and its version), else `pipe` |
//! | `error.type` | `tool_error` for an `isError` result (outcomes 2, 3 and 4), the JSON-RPC code for a protocol error (also in `rpc.response.status_code`) |
//! | `outcome_runtime.outcome` | `result`, `invalid`, `stale`, `fault`, `protocol`, `cancelled`, `deferred`, `input_required` or `task`, as in the log records |
//! | `otel.status_code` | `error` for outcome 4 only: outcomes 2 and 3 are the model's to fix, and a trace view does not paint them red |
//!
//! The span is a root: rmcp runs a session's requests inside its service
//! loop's span, which would make a whole session one trace. A job's work
//! runs in a `job {tool}` span that follows from the call's, so that the
//! call's span ends with its answer. A subscriber that leaves the span out
//! (by level or target) pays for a disabled span's check and nothing more.
//!
//! With the `opentelemetry` feature:
//!
//! - The W3C trace context a client sends in the request's `_meta`
//!   (`traceparent` and `tracestate`, SEP-414) becomes the parent of the
//!   call's span, through tracing-opentelemetry's layer; a malformed one is
//!   ignored and the call starts a trace of its own. A job's span is a
//!   child of its call's.
//! - Every call is recorded in the `mcp.server.operation.duration`
//!   histogram (seconds, the conventions' bucket boundaries) of the global
//!   meter provider, with the span's attributes but the request and session
//!   ids. The histogram is made at the first call: set the global meter
//!   provider before serving.
//!
//! ```
//! # #[cfg(feature = "opentelemetry")]
//! # fn main() {
//! use tracing_subscriber::layer::SubscriberExt;
//!
//! // Any tracer: an OTLP exporter's in a deployment.
//! let tracer = opentelemetry::trace::noop::NoopTracer::new();
//! let subscriber = tracing_subscriber::registry()
//!     .with(tracing_opentelemetry::layer().with_tracer(tracer))
//!     .with(tracing_subscriber::fmt::layer());
//! tracing::subscriber::set_global_default(subscriber).unwrap();
//! # }
//! # #[cfg(not(feature = "opentelemetry"))]
//! # fn main() {}
//! ```
//!
//! [tracing-opentelemetry]: https://docs.rs/tracing-opentelemetry

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod arguments;
mod boundary;
mod call;
mod classify;
mod ending;
mod error;
mod handler;
pub mod job_store;
mod jobs;
mod listing;
mod logging;
mod message;
mod outcome;
mod panics;
mod records;
mod routes;
mod sentences;
// rmcp's task manager runs a task as a `Send` future, which a tool under
// `local` need not give.
#[cfg(not(feature = "local"))]
mod tasks;
mod telemetry;
#[cfg(feature = "testing")]
pub mod testing;

pub use classify::{Transient, recognize_transient};
pub use error::{Outcome, ToolError};
pub use handler::{call_tool, malformed_call};
pub use jobs::{Deferred, JobId, Jobs, STATUS_TOOL};
pub use message::{
    FAULT_MESSAGE, MESSAGE_LIMIT, QUOTE_LIMIT, Quoted, RETRY_MESSAGE, is_invisible, quote,
};
pub use routes::{wrap_route, wrap_router};
#[cfg(not(feature = "local"))]
pub use tasks::spawn_tool_task;

#[doc(inline)]
#[doc = include_str!("docs/tool.md")]
pub use outcome_macros::tool;

#[doc(inline)]
#[doc = include_str!("docs/tool_router.md")]
pub use outcome_macros::tool_router;

#[doc(inline)]
#[doc = include_str!("docs/tool_handler.md")]
pub use outcome_macros::tool_handler;

/// What the macros' expansions call. Not public API: it changes without
/// notice. Named for the version of this crate and of `outcome-macros`,
/// which it pins exactly (rename it with every release): expansions of a
/// macro crate of another version name a module that is not here, and
/// fail to compile instead of misbehaving.
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private_0_1_0;

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
