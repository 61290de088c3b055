//! The audit of an MCP server's answers to the calls a model gets wrong,
//! over any connected rmcp client.
//!
//! It lists the server's tools and, from each input schema, makes the calls
//! that break it in one way each: a required argument left out or sent as
//! `null`, an argument of the wrong JSON type, a value outside its `enum`,
//! its `minimum`/`maximum`, its `exclusiveMinimum`/`exclusiveMaximum` or its
//! `minLength`/`maxLength`, a string outside its `pattern` or its `format`,
//! and a key the schema does not declare when `additionalProperties` is
//! `false`; a tool that takes no arguments cannot be called wrong, and gets
//! none of these. Every answer must be a result with `isError` true, not
//! the message of a server failure, name the argument, quote the value
//! sent, end with a next step that names a tool of the server, and keep to
//! the writing rules of `outcome-rules`. Each answer that does not is a
//! [`Finding`]; what the audit could not call is [`NotProbed`]; each tool
//! of the tool list is under one [`Heading`] of [`AuditReport::by_tool`];
//! the [`AuditReport`] holds them all, says
//! [why it is not clean](AuditReport::why_not_clean), and prints as the
//! `outcome-audit` command prints it.
//!
//! This crate is the audit's core, with no server side: `outcome-runtime`'s
//! `testing::audit` runs it against a server in the same process (and
//! checks its log records too), and the `outcome-audit` command against a
//! server in any language. The command's transports (a child process,
//! streamable HTTP) come with the default `cli` feature; depend on the
//! library alone with `default-features = false`.
//!
//! The calls are real: a server that accepts one runs the tool with it, so
//! audit a server whose data may change.
//!
//! ```no_run
//! use outcome_audit::Audit;
//! use rmcp::ServiceExt;
//! use rmcp::transport::TokioChildProcess;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Any connected rmcp client: here, a server started as a child process.
//! let server = tokio::process::Command::new("notes-server");
//! let client = ().serve(TokioChildProcess::new(server)?).await?;
//! let report = Audit::new()
//!     .within(std::time::Duration::from_secs(120))
//!     .run(client.peer())
//!     .await?;
//! client.cancel().await?;
//! assert!(report.is_clean(), "{report}");
//! # Ok(())
//! # }
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;
use std::time::{Duration, Instant};

use rmcp::service::{Peer, RoleClient, ServiceError};

mod audit;

pub use audit::{
    AuditReport, Defect, Expectation, Finding, Heading, NotJudged, NotProbed, ToolSummary,
    ValidCalls, shown_line,
};

/// The level a log record was written at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// ERROR.
    Error,
    /// WARN.
    Warn,
    /// INFO.
    Info,
    /// DEBUG.
    Debug,
    /// TRACE.
    Trace,
}

impl fmt::Display for Level {
    /// The level in capitals, as `tracing` writes it: `INFO`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Error => "ERROR",
            Level::Warn => "WARN",
            Level::Info => "INFO",
            Level::Debug => "DEBUG",
            Level::Trace => "TRACE",
        })
    }
}

/// One log record of the server under audit, as far as the audit reads it:
/// for each call, it looks for the record named `tool_call_failed` with the
/// call's tool, and expects it at INFO with the outcome `invalid`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRecord {
    /// The event's name (its message): `tool_call_failed`.
    pub name: String,
    /// The level it was written at.
    pub level: Level,
    /// Its `tool` field, if it has one.
    pub tool: Option<String>,
    /// Its `outcome` field, if it has one: `invalid`, `fault`.
    pub outcome: Option<String>,
}

/// The log records of a server, as [`Audit::logs`] reads them: each call
/// returns the records written since the last, and forgets them.
pub type Logs<'a> = dyn FnMut() -> Vec<LogRecord> + Send + 'a;

/// One run of the audit: what it checks besides the answers, and how long
/// it may take.
#[derive(Default)]
pub struct Audit<'a> {
    logs: Option<&'a mut Logs<'a>>,
    within: Option<Duration>,
    call_timeout: Option<Duration>,
    valid_calls: ValidCalls,
}

impl fmt::Debug for Audit<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Audit")
            .field("logs", &self.logs.is_some())
            .field("within", &self.within)
            .field("call_timeout", &self.call_timeout)
            .field("valid_calls", &self.valid_calls)
            .finish()
    }
}

impl<'a> Audit<'a> {
    /// An audit of the answers alone, with no bound on its time or a
    /// call's but the audit's own bounds on what it reads and builds.
    pub fn new() -> Self {
        Self::default()
    }

    /// Checks the log records too (`logged-invalid`): `logs` returns the
    /// records the server wrote since it was last called. The audit calls
    /// it before and after each call, so only a server whose records it can
    /// read as they are written (one in this process) can be checked.
    pub fn logs(mut self, logs: &'a mut Logs<'a>) -> Self {
        self.logs = Some(logs);
        self
    }

    /// Bounds the whole run: when `timeout` runs out, the audit stops (even
    /// while it reads a schema) and returns the report so far, with a
    /// [`NotProbed`] for the tool list that says how many tools it did not
    /// reach.
    pub fn within(mut self, timeout: Duration) -> Self {
        self.within = Some(timeout);
        self
    }

    /// Bounds each call: a call with no answer within `timeout` is
    /// cancelled and reported as [`NotProbed`] (its answer was not
    /// checked), and the audit goes on to the next.
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = Some(timeout);
        self
    }

    /// Which tools get a call that keeps to their schema, and so run:
    /// [`ValidCalls::ReadOnly`] unless told otherwise, since the server
    /// may be live; [`ValidCalls::Every`] for a server built for a test.
    /// The others are listed in [`AuditReport::not_run`].
    pub fn valid_calls(mut self, valid_calls: ValidCalls) -> Self {
        self.valid_calls = valid_calls;
        self
    }

    /// Audits the server behind `peer`, a connected client.
    ///
    /// # Errors
    ///
    /// When listing the tools fails, or a call ends without an answer (the
    /// connection closed, a timeout of the transport): a JSON-RPC error
    /// answer is a finding, not an error.
    pub async fn run(self, peer: &Peer<RoleClient>) -> Result<AuditReport, ServiceError> {
        let deadline = self
            .within
            .and_then(|timeout| Instant::now().checked_add(timeout));
        match self.logs {
            Some(logs) => {
                audit::run(
                    peer,
                    Some(logs),
                    deadline,
                    self.call_timeout,
                    self.valid_calls,
                )
                .await
            }
            None => audit::run(peer, None, deadline, self.call_timeout, self.valid_calls).await,
        }
    }
}
