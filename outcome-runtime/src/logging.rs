//! The request log's lines: `tool_call_completed`, `tool_call_failed`,
//! `tool_call_cancelled` and `tool_call_deferred`, one per `tools/call`,
//! each also recorded on the call's span; and the one-time check that the
//! subscriber keeps them.

use tracing::Level;

use crate::outcome::{Ending, Outcome};
use crate::records::{bounded, event_at};
use crate::telemetry::{Failure, Telemetry};

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
    if info_recorded() || !crate::panics::faults_recorded() {
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
