//! The operator's records: `tool_failed`, the one record of a fault, and
//! how any record writes a level chosen at run time and a duration.
//! Every record's target is `outcome_runtime`, so `RUST_LOG=outcome_runtime=info` shows exactly them.

use std::time::Instant;

use tracing::Level;

use crate::base::bounds::{Bounded, bounded_text};
use crate::base::outcome::{Outcome, PANIC_TYPE};

/// One event at a level chosen at run time (`tracing` wants a constant per
/// call site), guarded against a subscriber that panics.
macro_rules! event_at {
    ($level:expr, $($rest:tt)+) => {
        crate::base::panics::guard_subscriber(|| match $level {
            Level::ERROR => tracing::event!(target: "outcome_runtime", Level::ERROR, $($rest)+),
            Level::WARN => tracing::event!(target: "outcome_runtime", Level::WARN, $($rest)+),
            Level::INFO => tracing::event!(target: "outcome_runtime", Level::INFO, $($rest)+),
            Level::DEBUG => tracing::event!(target: "outcome_runtime", Level::DEBUG, $($rest)+),
            Level::TRACE => tracing::event!(target: "outcome_runtime", Level::TRACE, $($rest)+),
        })
    };
}

pub(crate) use event_at;

/// A record's `duration_ms`: the time since `started`, to the microsecond.
#[inline]
pub(crate) fn duration_ms(started: Instant) -> f64 {
    millis(started.elapsed())
}

/// [`duration_ms`] for a duration from another clock (a job's, on tokio's).
#[inline]
pub(crate) fn millis(elapsed: std::time::Duration) -> f64 {
    // Not `as_micros`: a `u128` converts to `f64` by a call; a `u64` of
    // microseconds holds half a million years.
    let micros = elapsed.as_secs() * 1_000_000 + u64::from(elapsed.subsec_micros());
    micros as f64 / 1000.0
}

/// `tool_failed`, written once where the fault is classified.
pub(crate) fn tool_failed(level: Level, tool: &Bounded<'_>, error_type: Option<&str>, error: &str) {
    let tool = tool.as_str();
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

/// `tool_failed` for a caught panic, with its location and backtrace.
pub(crate) fn panic_failed(
    tool: &Bounded<'_>,
    message: &str,
    location: Option<&str>,
    backtrace: Option<&str>,
) {
    let tool = tool.as_str();
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
