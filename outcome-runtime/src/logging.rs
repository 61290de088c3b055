//! The log records: `tool_failed` where a fault is classified, and
//! `tool_call_completed` / `tool_call_failed` for every `tools/call`.
//!
//! Every record has the target `outcome_runtime`, so
//! `RUST_LOG=outcome_runtime=info` shows exactly these lines.

use std::borrow::Cow;
use std::time::Instant;

use rmcp::ErrorData;
use rmcp::model::CallToolResponse;
use tracing::Level;

use crate::call::Report;
use crate::outcome::Outcome;
use crate::telemetry::{Failure, Telemetry};

/// The `error.type` of a fault that was a panic.
pub(crate) const PANIC_TYPE: &str = "panic";

/// The longest `error` field a record carries, in bytes. An error's text is
/// written by its author and may be anything (a response body, a file);
/// 64 KiB keeps every real error chain whole and a log pipeline whole too.
pub(crate) const RECORD_LIMIT: usize = 64 * 1024;

/// Emits one event at a level chosen at run time; `tracing` needs the level
/// of each call site to be a constant. A subscriber that panics while it
/// records the event cannot take the call with it.
macro_rules! event_at {
    ($level:expr, $($rest:tt)+) => {
        crate::boundary::guard_subscriber(|| match $level {
            Level::ERROR => tracing::event!(target: "outcome_runtime", Level::ERROR, $($rest)+),
            Level::WARN => tracing::event!(target: "outcome_runtime", Level::WARN, $($rest)+),
            Level::INFO => tracing::event!(target: "outcome_runtime", Level::INFO, $($rest)+),
            Level::DEBUG => tracing::event!(target: "outcome_runtime", Level::DEBUG, $($rest)+),
            Level::TRACE => tracing::event!(target: "outcome_runtime", Level::TRACE, $($rest)+),
        })
    };
}

/// Whether a `tool_failed` at ERROR would reach a subscriber: false with no
/// subscriber at all, or with a filter that leaves this crate's target out.
pub(crate) fn failures_recorded() -> bool {
    tracing::enabled!(target: "outcome_runtime", Level::ERROR)
}

/// Whether the subscriber records this crate's INFO records: false for a
/// filter that keeps its ERROR and WARNING records and drops the rest, as
/// `EnvFilter`'s `error,my_server=info` does.
pub(crate) fn info_recorded() -> bool {
    tracing::enabled!(target: "outcome_runtime", Level::INFO)
}

/// Says once per process, at the first call, when the subscriber keeps this
/// crate's faults but drops its INFO records (`tool_call_completed`, and
/// `tool_call_failed` for the model's mistakes): the fix is one directive.
/// Written at WARNING, or at ERROR where the filter drops WARNING too, so
/// that the filter it is about does not drop it. A server with no
/// subscriber, or one that leaves the crate out whole, hears nothing: it
/// chose not to read these records.
#[inline]
pub(crate) fn check_filter_once() {
    use std::sync::atomic::{AtomicBool, Ordering};
    static CHECKED: AtomicBool = AtomicBool::new(false);
    if CHECKED.load(Ordering::Relaxed) || CHECKED.swap(true, Ordering::Relaxed) {
        return;
    }
    warn_dropped_info();
}

#[cold]
#[inline(never)]
fn warn_dropped_info() {
    if info_recorded() || !failures_recorded() {
        return;
    }
    let level = if tracing::enabled!(target: "outcome_runtime", Level::WARN) {
        Level::WARN
    } else {
        Level::ERROR
    };
    event_at!(
        level,
        dropped = "tool_call_completed, and tool_call_failed for the model's mistakes",
        fix = "add outcome_runtime=info to the filter's directives",
        "log_filter_drops_tool_calls"
    );
}

/// `text` cut to [`RECORD_LIMIT`] bytes, saying so when it was cut.
pub(crate) fn bounded_text(text: &str) -> Cow<'_, str> {
    if text.len() <= RECORD_LIMIT {
        return Cow::Borrowed(text);
    }
    let mut end = RECORD_LIMIT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!(
        "{} [cut: {} more bytes]",
        &text[..end],
        text.len() - end
    ))
}

/// The time since `started` in milliseconds, to the microsecond: the
/// `duration_ms` of a record.
#[inline]
pub(crate) fn duration_ms(started: Instant) -> f64 {
    millis(started.elapsed())
}

/// `elapsed` in milliseconds, to the microsecond; for a duration measured
/// on another clock (a job's, on tokio's).
#[inline]
pub(crate) fn millis(elapsed: std::time::Duration) -> f64 {
    // `as_micros` gives a `u128`, whose conversion to `f64` is a call of
    // its own; a `u64` of microseconds holds half a million years, and
    // converts to the same `f64`.
    let micros = elapsed.as_secs() * 1_000_000 + u64::from(elapsed.subsec_micros());
    micros as f64 / 1000.0
}

/// `tool_failed`: the operator's record of a fault, written once where the
/// fault is classified, with the error chain.
pub(crate) fn tool_failed(level: Level, tool: &str, error_type: Option<&str>, error: &str) {
    let tool = &*bounded(tool);
    let error = &*bounded_text(error);
    event_at!(
        level,
        tool,
        outcome = Outcome::Fault.as_str(),
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
    let message = &*bounded_text(message);
    event_at!(
        Level::ERROR,
        tool,
        outcome = Outcome::Fault.as_str(),
        error.type = PANIC_TYPE,
        error = message,
        panic.location = location,
        panic.backtrace = backtrace,
        "tool_failed"
    );
}

/// A tool name fit for a log line. Names of registered tools pass as they
/// are; an unknown name is the model's text, so it is cut to 128
/// characters and its control and invisible characters escaped.
#[inline]
pub(crate) fn bounded(tool: &str) -> Cow<'_, str> {
    // Nearly every name is short printable ASCII: answered byte by byte,
    // without decoding characters, and without a call.
    if tool.len() <= TOOL_LIMIT && tool.bytes().all(|b| b.is_ascii_graphic() || b == b' ') {
        return Cow::Borrowed(tool);
    }
    bounded_slowly(tool)
}

/// The longest tool name a record carries, in characters.
const TOOL_LIMIT: usize = 128;

/// [`bounded`], for a name that is not short printable ASCII.
#[cold]
#[inline(never)]
fn bounded_slowly(tool: &str) -> Cow<'_, str> {
    if tool.len() <= TOOL_LIMIT && !tool.chars().any(crate::message::is_invisible) {
        return Cow::Borrowed(tool);
    }
    let mut text = String::new();
    for c in tool.chars().take(TOOL_LIMIT) {
        if crate::message::is_invisible(c) {
            text.extend(c.escape_unicode());
        } else {
            text.push(c);
        }
    }
    if tool.chars().nth(TOOL_LIMIT).is_some() {
        text.push_str("...");
    }
    Cow::Owned(text)
}

// Each function below writes its record, then records the ending on the
// call's span: a subscriber that prints the span with the record shows the
// outcome once.

/// `tool_call_completed`, at INFO.
pub(crate) fn call_completed(telemetry: &Telemetry, tool: &str, duration_ms: f64) {
    let tool = &*bounded(tool);
    event_at!(
        Level::INFO,
        tool,
        outcome = Outcome::Result.as_str(),
        duration_ms,
        "tool_call_completed"
    );
    telemetry.ended(Ending::Outcome(Outcome::Result), Failure::None, duration_ms);
}

/// `tool_call_cancelled`, at INFO: the client withdrew the call, and its
/// body was dropped.
pub(crate) fn call_cancelled(telemetry: &Telemetry, tool: &str, duration_ms: f64) {
    let tool = &*bounded(tool);
    event_at!(
        Level::INFO,
        tool,
        outcome = Ending::Cancelled.as_str(),
        duration_ms,
        "tool_call_cancelled"
    );
    telemetry.ended(Ending::Cancelled, Failure::None, duration_ms);
}

/// `tool_call_failed`, at the outcome's level.
pub(crate) fn call_failed(
    telemetry: &Telemetry,
    level: Level,
    tool: &str,
    outcome: Outcome,
    duration_ms: f64,
    error_type: Option<&str>,
    error_code: Option<i32>,
) {
    let failure = match error_code {
        Some(code) => Failure::Code(code),
        None => Failure::Tool,
    };
    let tool = &*bounded(tool);
    event_at!(
        level,
        tool,
        outcome = outcome.as_str(),
        duration_ms,
        error.type = error_type,
        error.code = error_code,
        "tool_call_failed"
    );
    telemetry.ended(Ending::Outcome(outcome), failure, duration_ms);
}

/// The line of a call that ended in `answer`, which the boundary described
/// in `report` if a `ToolError` ended it: how the handler and a job log a
/// call alike.
///
/// - an `isError` result: as its `ToolError` says, or, with no report, a
///   result a tool built by hand, whose failure nobody classified: an
///   operator's to look at (ERROR `fault`);
/// - a complete result: `tool_call_completed`; an input request or a task:
///   `tool_call_deferred`, as the call is answered later;
/// - a JSON-RPC error: `protocol`, with its code.
pub(crate) fn call_ended(
    telemetry: &Telemetry,
    tool: &str,
    answer: &Result<CallToolResponse, ErrorData>,
    report: Option<Report>,
    duration_ms: f64,
) {
    match (answer, report) {
        (Ok(CallToolResponse::Complete(result)), report) if result.is_error == Some(true) => {
            match report {
                Some(report) => call_failed_as(telemetry, tool, report, duration_ms),
                None => call_failed(
                    telemetry,
                    Level::ERROR,
                    tool,
                    Outcome::Fault,
                    duration_ms,
                    None,
                    None,
                ),
            }
        }
        (Ok(CallToolResponse::Complete(_)), _) => call_completed(telemetry, tool, duration_ms),
        (Ok(CallToolResponse::InputRequired(_)), _) => {
            call_deferred(telemetry, tool, Ending::InputRequired, duration_ms)
        }
        (Ok(CallToolResponse::Task(_)), _) => {
            call_deferred(telemetry, tool, Ending::Task, duration_ms)
        }
        (Ok(_), _) => call_deferred(telemetry, tool, Ending::Deferred, duration_ms),
        (Err(error), _) => call_protocol(telemetry, tool, error.code.0, duration_ms),
    }
}

/// `tool_call_failed` for a call that a `ToolError` ended, at its level.
pub(crate) fn call_failed_as(telemetry: &Telemetry, tool: &str, report: Report, duration_ms: f64) {
    call_failed(
        telemetry,
        report.level,
        tool,
        report.outcome,
        duration_ms,
        report.error_type,
        None,
    );
}

/// `tool_call_failed` for a JSON-RPC error that reaches the client as
/// itself: INFO, outcome `protocol`, with its code.
pub(crate) fn call_protocol(telemetry: &Telemetry, tool: &str, code: i32, duration_ms: f64) {
    call_failed(
        telemetry,
        Level::INFO,
        tool,
        Outcome::Protocol,
        duration_ms,
        None,
        Some(code),
    );
}

/// How a call ended, as its record's `outcome` field and its span say it:
/// one of the outcomes, or an answer that is not the result yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// A result, one of outcomes 2 to 4, or a protocol error.
    Outcome(Outcome),
    /// The client withdrew the call.
    Cancelled,
    /// A long-running tool answered with a job.
    Deferred,
    /// The tool asked the client for input.
    InputRequired,
    /// The call became a task.
    Task,
}

impl Ending {
    /// The value of the `outcome` field.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Ending::Outcome(outcome) => outcome.as_str(),
            Ending::Cancelled => "cancelled",
            Ending::Deferred => "deferred",
            Ending::InputRequired => "input_required",
            Ending::Task => "task",
        }
    }
}

/// `tool_call_deferred`, at INFO: the call answered without its result,
/// which comes later. `outcome` says how: `deferred`, a long-running tool
/// handed the model a job to poll; `input_required`, the tool asked the
/// client for input and is called again with it; `task`, the call became a
/// task of rmcp's tasks extension.
pub(crate) fn call_deferred(telemetry: &Telemetry, tool: &str, ending: Ending, duration_ms: f64) {
    let tool = &*bounded(tool);
    event_at!(
        Level::INFO,
        tool,
        outcome = ending.as_str(),
        duration_ms,
        "tool_call_deferred"
    );
    telemetry.ended(ending, Failure::None, duration_ms);
}
