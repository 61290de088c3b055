//! The log records: `tool_failed` where a fault is classified, and
//! `tool_call_completed` / `tool_call_failed` for every `tools/call`.
//!
//! Every record has the target `outcome_runtime`, so
//! `RUST_LOG=outcome_runtime=info` shows exactly these lines.

use std::borrow::Cow;
use std::cell::Cell;

use rmcp::ErrorData;
use rmcp::model::CallToolResponse;
use tracing::Level;

use crate::error::{Outcome, ToolError};

/// The `error.type` of a fault that was a panic.
pub(crate) const PANIC_TYPE: &str = "panic";

/// Emits one event at a level chosen at run time; `tracing` needs the level
/// of each call site to be a constant.
macro_rules! event_at {
    ($level:expr, $($rest:tt)+) => {
        match $level {
            Level::ERROR => tracing::event!(target: "outcome_runtime", Level::ERROR, $($rest)+),
            Level::WARN => tracing::event!(target: "outcome_runtime", Level::WARN, $($rest)+),
            Level::INFO => tracing::event!(target: "outcome_runtime", Level::INFO, $($rest)+),
            Level::DEBUG => tracing::event!(target: "outcome_runtime", Level::DEBUG, $($rest)+),
            Level::TRACE => tracing::event!(target: "outcome_runtime", Level::TRACE, $($rest)+),
        }
    };
}

/// `tool_failed`: the operator's record of a fault, written once where the
/// fault is classified, with the error chain.
pub(crate) fn tool_failed(level: Level, tool: &str, error_type: Option<&str>, error: &str) {
    let tool = &*bounded(tool);
    event_at!(
        level,
        tool,
        outcome = "fault",
        error.type = error_type,
        error,
        "tool_failed"
    );
}

/// `tool_failed` for a caught panic: its message, location and, when
/// `RUST_BACKTRACE` asks for one, its backtrace.
pub(crate) fn panic_failed(
    tool: &str,
    message: &str,
    location: Option<&str>,
    backtrace: Option<&str>,
) {
    let tool = &*bounded(tool);
    tracing::error!(
        target: "outcome_runtime",
        tool,
        outcome = "fault",
        error.type = PANIC_TYPE,
        error = message,
        panic.location = location,
        panic.backtrace = backtrace,
        "tool_failed"
    );
}

/// A tool name fit for a log line. Names of registered tools pass as they
/// are; an unknown name is the model's text, so it is cut to 128
/// characters and its control characters escaped.
pub(crate) fn bounded(tool: &str) -> Cow<'_, str> {
    const LIMIT: usize = 128;
    if tool.len() <= LIMIT && !tool.chars().any(char::is_control) {
        return Cow::Borrowed(tool);
    }
    let mut text: String = tool
        .chars()
        .take(LIMIT)
        .flat_map(char::escape_default)
        .collect();
    if tool.chars().nth(LIMIT).is_some() {
        text.push_str("...");
    }
    Cow::Owned(text)
}

/// `tool_call_completed`, at INFO.
pub(crate) fn call_completed(tool: &str, duration_ms: f64) {
    let tool = &*bounded(tool);
    tracing::info!(
        target: "outcome_runtime",
        tool,
        outcome = Outcome::Result.as_str(),
        duration_ms,
        "tool_call_completed"
    );
}

/// `tool_call_cancelled`, at INFO: the client withdrew the call, and its
/// body was dropped.
pub(crate) fn call_cancelled(tool: &str, duration_ms: f64) {
    let tool = &*bounded(tool);
    tracing::info!(
        target: "outcome_runtime",
        tool,
        outcome = "cancelled",
        duration_ms,
        "tool_call_cancelled"
    );
}

/// `tool_call_failed`, at the outcome's level.
pub(crate) fn call_failed(
    level: Level,
    tool: &str,
    outcome: &str,
    duration_ms: f64,
    error_type: Option<&str>,
    error_code: Option<i32>,
) {
    let tool = &*bounded(tool);
    event_at!(
        level,
        tool,
        outcome,
        duration_ms,
        error.type = error_type,
        error.code = error_code,
        "tool_call_failed"
    );
}

/// `tool_call_failed` for a call that a `ToolError` ended, at its level.
pub(crate) fn call_failed_as(tool: &str, report: Report, duration_ms: f64) {
    call_failed(
        report.level,
        tool,
        report.outcome.as_str(),
        duration_ms,
        report.error_type,
        None,
    );
}

/// `tool_call_failed` for a JSON-RPC error that reaches the client as
/// itself: INFO, outcome `protocol`, with its code.
pub(crate) fn call_protocol(tool: &str, code: i32, duration_ms: f64) {
    call_failed(Level::INFO, tool, "protocol", duration_ms, None, Some(code));
}

/// What the boundary tells the request log about the call it ran.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Report {
    pub(crate) outcome: Outcome,
    pub(crate) level: Level,
    pub(crate) error_type: Option<&'static str>,
    pub(crate) protocol: bool,
}

/// The request in flight on this task: its tool name and, once the tool has
/// answered with a `ToolError`, that error's report.
#[derive(Default)]
pub(crate) struct CallScope {
    pub(crate) tool: Cow<'static, str>,
    pub(crate) report: Cell<Option<Report>>,
    /// The answer of a `ToolError` that had to travel as an `ErrorData`
    /// (rmcp's trait-based tools), and the stand-in error it travels as.
    /// Boxed: it is rare, and the scope is moved on every poll.
    pub(crate) stashed: Cell<Option<Box<(CallToolResponse, ErrorData)>>>,
    /// Set by a long-running tool's job machinery: how this call's answer
    /// is to be logged.
    pub(crate) note: Cell<Option<Note>>,
}

/// How a call that is part of a job is logged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Note {
    /// The tool passed its deadline and answered with a job to poll; the
    /// job logs the call's own lines when it ends.
    Deferred,
    /// A poll that handed over a finished job's answer: the poll succeeded,
    /// whatever the answer says.
    Replayed,
}

/// Notes how the call in flight on this task is to be logged.
pub(crate) fn note(note: Note) {
    let _ = CALL.try_with(|call| call.note.set(Some(note)));
}

/// `tool_call_deferred`, at INFO: the tool passed its deadline and handed
/// the model a job to poll.
pub(crate) fn call_deferred(tool: &str, duration_ms: f64) {
    let tool = &*bounded(tool);
    tracing::info!(
        target: "outcome_runtime",
        tool,
        outcome = "deferred",
        duration_ms,
        "tool_call_deferred"
    );
}

tokio::task_local! {
    pub(crate) static CALL: CallScope;
}

/// Records the error's outcome for the request log and makes sure a fault was
/// logged once, also when the tool did not go through the boundary.
pub(crate) fn report(error: &mut ToolError) {
    let report = Report {
        outcome: error.outcome(),
        level: error.level(),
        error_type: error.error_type(),
        protocol: error.protocol_error().is_some(),
    };
    let in_call = CALL.try_with(|call| {
        error.log_fault_once(&call.tool);
        call.report.set(Some(report));
    });
    if in_call.is_err() {
        error.log_fault_once("unknown");
    }
}
