//! The request log's one line per `tools/call`: `tool_call_completed`,
//! `tool_call_failed`, `tool_call_cancelled` or `tool_call_deferred`, also
//! recorded on its span; and the one-time check that the subscriber keeps
//! them.

use tracing::Level;

use crate::base::bounds::Bounded;
use crate::base::outcome::{Ending, Outcome};
use crate::logs::records::event_at;
use crate::logs::telemetry::{Failure, Telemetry};

/// Whether the subscriber keeps this crate's INFO records (a filter such
/// as `error,my_server=info` does not).
pub(crate) fn info_recorded() -> bool {
    tracing::enabled!(target: "outcome_runtime", Level::INFO)
}

/// Says once, at the first call, when the subscriber keeps this crate's
/// faults but drops its INFO records: the fix is one directive. At WARNING,
/// or ERROR if the filter drops WARNING too. A server with no subscriber,
/// or one that leaves the crate out, chose not to read them: it hears
/// nothing.
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
    if info_recorded() || !crate::base::panics::faults_recorded() {
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

// Each writes its record before the ending goes on the span, so that a
// subscriber printing both shows the outcome once. Each takes the tool's
// name bounded where the call entered, and bounds it no more. [`write`]
// writes the line the ending decided; a call that plainly answered, as
// nearly every call does, writes `tool_call_completed` directly.

/// `tool_call_completed`, at INFO.
pub(crate) fn call_completed(telemetry: &Telemetry, tool: &Bounded<'_>, duration_ms: f64) {
    let tool = tool.as_str();
    event_at!(
        Level::INFO,
        tool,
        outcome = Outcome::Result.as_str(),
        duration_ms,
        "tool_call_completed"
    );
    telemetry.ended(Ending::Outcome(Outcome::Result), Failure::None, duration_ms);
}

/// `tool_call_cancelled`, at INFO: the client withdrew the call.
fn call_cancelled(telemetry: &Telemetry, tool: &Bounded<'_>, duration_ms: f64) {
    let tool = tool.as_str();
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
fn call_failed(
    telemetry: &Telemetry,
    level: Level,
    tool: &Bounded<'_>,
    outcome: Outcome,
    duration_ms: f64,
    error_type: Option<&str>,
    error_code: Option<i32>,
) {
    let failure = match error_code {
        Some(code) => Failure::Code(code),
        None => Failure::Tool,
    };
    let tool = tool.as_str();
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

/// `tool_call_deferred`, at INFO: the result comes later, as a job to poll
/// (`deferred`), after input asked of the client (`input_required`), or
/// from a task of rmcp's tasks extension (`task`).
fn call_deferred(telemetry: &Telemetry, tool: &Bounded<'_>, ending: Ending, duration_ms: f64) {
    let tool = tool.as_str();
    event_at!(
        Level::INFO,
        tool,
        outcome = ending.as_str(),
        duration_ms,
        "tool_call_deferred"
    );
    telemetry.ended(ending, Failure::None, duration_ms);
}

/// A call's one line, as [`ending`](crate::call::ending) decides it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Line<'a> {
    /// `tool_call_completed`.
    Completed,
    /// `tool_call_cancelled`.
    Cancelled,
    /// `tool_call_deferred`, and why.
    Deferred(Ending),
    /// `tool_call_failed`: its level and outcome, and the error's type or
    /// the JSON-RPC error's code.
    Failed {
        level: Level,
        outcome: Outcome,
        error_type: Option<&'a str>,
        error_code: Option<i32>,
    },
}

/// Writes the line of a call that ended as `line` says.
pub(crate) fn write(telemetry: &Telemetry, tool: &Bounded<'_>, line: Line<'_>, duration_ms: f64) {
    match line {
        Line::Completed => call_completed(telemetry, tool, duration_ms),
        Line::Cancelled => call_cancelled(telemetry, tool, duration_ms),
        Line::Deferred(ending) => call_deferred(telemetry, tool, ending, duration_ms),
        Line::Failed {
            level,
            outcome,
            error_type,
            error_code,
        } => call_failed(
            telemetry,
            level,
            tool,
            outcome,
            duration_ms,
            error_type,
            error_code,
        ),
    }
}
