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
//! and have each tool return `Result<T, ToolError>` (a tool that returns
//! rmcp's `Result<T, McpError>` keeps it: its errors keep the meaning their
//! codes give them):
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
//! #[tool_router(other_tools(search_notes))]
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
//! The four ways a tool ends, as code:
//!
//! | outcome | build it with |
//! |---|---|
//! | 1 | `Ok(value)` |
//! | 2 | `ToolError::invalid(problem, next_step)` |
//! | 3 | `ToolError::stale(problem, refresh)`: adds "so resending this call fails again" |
//! | 4, heals itself | `?` on a timeout, a `Transient` error, or `ToolError::retry_later(message)` |
//! | 4, an operator acts | `?` on any other error, `ToolError::fault(source)`, or a panic |
//!
//! A missing client capability (`ErrorData` with code -32021) passes through as
//! that JSON-RPC error. A call the client cancels drops its body and is logged
//! as `tool_call_cancelled`, not as a failure.
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
//! - [`handler::wrap_router`]: the boundary for tools that are not `#[tool]` methods
//!   (rmcp's trait-based tools, routes added by hand).
//! - [`handler::unchecked_input`]: a route whose published input schema is not
//!   checked before its handler (see
//!   [the input schema](#the-input-schema-is-the-contract)).
//! - [`Jobs`]: long-running tools; past a deadline the model gets a job to
//!   poll with the `job_status` tool, and reads the same answer later.
//! - `handler::spawn_tool_task`: a call run as a task of rmcp's tasks extension, by
//!   the same rules (not under the `local` feature).
//! - `testing` (feature `testing`, for dev-dependencies): the log records
//!   of a call, an in-memory client, a check
//!   that every tool of a router is inside the boundary, the writing rules
//!   for messages built at run time, and an audit of a server's answers to
//!   the calls a model gets wrong.
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
//! Tools that are not `#[tool]` methods (rmcp's trait-based `SyncTool` and
//! `AsyncTool`, routes added with `with_route`) go inside the boundary through
//! `outcome_runtime::handler::wrap_router(router)`, and may use `ToolError` as their
//! error type. In a test, `outcome_runtime::testing::assert_wrapped(&router)`
//! (feature `testing`, for dev-dependencies) fails, naming them, for any tool
//! left outside.
//!
//! A tool left outside still ends in an outcome under `#[tool_handler]`: a
//! panic or an rmcp `ErrorData` as the table of [`ToolError`] says. A
//! `ToolError` that an rmcp `#[tool]` method left outside returns ends the
//! call as it says, since its answer carries its outcome to the request
//! log; what is lost is a fault's record: no boundary writes `tool_failed`
//! with its cause, so a fault left outside is logged as `tool_call_failed`
//! alone, and that line without its `tool_failed` is the sign of a tool to
//! wrap. (A trait-based tool's `ToolError` becomes an rmcp `ErrorData` that
//! carries its message and its outcome, so it keeps both even unwrapped;
//! the source chain of its fault does not survive the conversion.)
//!
//! # The input schema is the contract
//!
//! The schema a tool publishes in `tools/list` is what the model reads as
//! its contract, and it is checked before the body runs, as pydantic and
//! zod check theirs: `minimum`, `maximum` and their exclusive forms,
//! `multipleOf`, `minLength`, `maxLength`, `pattern`, the formats schemars
//! writes (`date`, `date-time`, `time`, `uuid`, `uri`, `email`, `hostname`,
//! IP addresses), `minItems`, `maxItems`, `uniqueItems`, `minProperties`,
//! `maxProperties`, `enum`, `const` and `additionalProperties: false`, in
//! nested objects and lists too. A call outside it is outcome 2 at INFO, in
//! the words of an argument that does not deserialize, and the body never
//! runs:
//!
//! ```text
//! The argument days of forecast was '0', but it must be a whole number
//! from 1 to 7. Call forecast again with days as a whole number from 1 to 7.
//! ```
//!
//! Every route inside the boundary is checked: `#[tool]` methods,
//! [`handler::wrap_router`]'s trait tools and routes, and so the calls of [`Jobs`]
//! and of tasks. Each schema is read once per process (its patterns
//! compiled); a schema that narrows nothing serde does not already enforce
//! (types, required properties, an integer's own range) adds nothing to a
//! call. One that does costs a few thousand instructions a call:
//! `benches/input_check.sh` counts 3,500 for a text with a length and a
//! pattern and a number with a range, beside some 155,000 for the round
//! trip. A pattern runs on an engine whose time is linear in the text
//! (no look-around or back-references: a pattern that needs them is not
//! checked), on texts of up to 10,000 bytes.
//!
//! Turn the check off for a tool that checks its arguments itself, with
//! better words than the schema's (a date field that also takes
//! "tomorrow"): `#[tool(unchecked_input = "why")]`, or [`handler::unchecked_input`]
//! for a route.
//!
//! # Expansion
//!
//! A `#[tool]` method keeps its signature; its body moves inside the
//! boundary. [`tool`'s Expansion section](tool#expansion) shows what the
//! macro generates for a sync and an async method, token for token.
//!
//! # Guide
//!
//! The long parts, one page each; the pages hold no items, and their
//! examples are compiled and run as doctests:
//!
//! - [`guide::migration`]: migrating an rmcp server, step by step, and what
//!   each of rmcp's errors becomes.
//! - [`guide::logs`]: the log records, the call's span, and OpenTelemetry.
//! - [`guide::jobs`]: long-running tools, tasks, and the job store in Redis.
//! - [`guide::replicas`]: several replicas behind a load balancer, sessions
//!   and jobs in Redis, and what each failure costs.
//! - [`guide::bounds`]: what hostile input cannot do, and what no boundary
//!   can catch.
//! - [`guide::examples`]: the example servers (stdio, streamable HTTP) and
//!   the benchmarks.
//! - [`guide::conformance`]: the official MCP conformance suite against a
//!   server built with this crate, and its results.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod answer;
mod base;
mod boundary;
mod call;
mod lasting;
mod logs;
#[cfg(feature = "testing")]
pub mod testing;

pub use answer::classify::{Transient, recognize_transient};
pub use answer::error::{Outcome, ToolError};
pub use base::message;
pub use base::message::quote;
pub use lasting::jobs::{Deferred, Jobs};
#[cfg(feature = "redis")]
pub use lasting::session_store;
pub use lasting::{job_store, jobs};
/// The writing rules a message to the model is checked against: at compile
/// time for literal texts, by `testing::check` and by the audit at run
/// time. [`ToolError::waive`] opts one call out of one rule.
pub use outcome_rules::Rule;

/// For a `ServerHandler` written without [`tool_handler`], and for tools
/// that are not `#[tool]` methods: the same boundary and request log, by
/// hand.
pub mod handler {
    pub use crate::call::malformed::malformed_call;
    pub use crate::call::request::call_tool;
    pub use crate::call::routes::{unchecked_input, wrap_route, wrap_router};
    #[cfg(not(feature = "local"))]
    pub use crate::call::tasks::spawn_tool_task;
}

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

/// The layers of `ARCHITECTURE.md`, checked against the code.
#[cfg(test)]
mod architecture;

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

// The guide: documentation only, no items. Each page is a Markdown file
// under `docs/guide/`, whose examples run as doctests.
pub mod guide {
    //! The long parts of this crate's documentation, one page each.

    pub mod bounds {
        #![doc = include_str!("docs/guide/bounds.md")]
    }
    pub mod conformance {
        #![doc = include_str!("docs/guide/conformance.md")]
    }
    pub mod examples {
        #![doc = include_str!("docs/guide/examples.md")]
    }
    pub mod jobs {
        #![doc = include_str!("docs/guide/jobs.md")]
    }
    pub mod logs {
        #![doc = include_str!("docs/guide/logs.md")]
    }
    pub mod migration {
        #![doc = include_str!("docs/guide/migration.md")]
    }
    pub mod replicas {
        // The page links to the Redis stores, which only the `redis`
        // feature compiles.
        #![cfg_attr(feature = "redis", doc = include_str!("docs/guide/replicas.md"))]
        #![cfg_attr(
            not(feature = "redis"),
            doc = "Replicas: one server run as several processes behind a load balancer, \
                   its sessions and jobs in Redis. This page is built with the `redis` \
                   feature, which the stores it describes need."
        )]
    }
}
