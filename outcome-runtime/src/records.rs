//! The operator's records: `tool_failed`, the one record of a fault, and
//! the bounds of what any record carries. Every record's target is
//! `outcome_runtime`, so `RUST_LOG=outcome_runtime=info` shows exactly them.

use std::borrow::Cow;
use std::time::Instant;

use tracing::Level;

use crate::outcome::Outcome;

/// The `error.type` of a fault that was a panic.
pub(crate) const PANIC_TYPE: &str = "panic";

/// The longest `error` field, in bytes: an error's text may be anything (a
/// response body, a file); 64 KiB keeps real chains and log pipelines whole.
pub(crate) const RECORD_LIMIT: usize = 64 * 1024;

/// One event at a level chosen at run time (`tracing` wants a constant per
/// call site), guarded against a subscriber that panics.
macro_rules! event_at {
    ($level:expr, $($rest:tt)+) => {
        crate::panics::guard_subscriber(|| match $level {
            Level::ERROR => tracing::event!(target: "outcome_runtime", Level::ERROR, $($rest)+),
            Level::WARN => tracing::event!(target: "outcome_runtime", Level::WARN, $($rest)+),
            Level::INFO => tracing::event!(target: "outcome_runtime", Level::INFO, $($rest)+),
            Level::DEBUG => tracing::event!(target: "outcome_runtime", Level::DEBUG, $($rest)+),
            Level::TRACE => tracing::event!(target: "outcome_runtime", Level::TRACE, $($rest)+),
        })
    };
}

pub(crate) use event_at;

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

/// `tool_failed` for a caught panic, with its location and backtrace.
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

/// A tool name fit for a log line: an unknown one is the model's text, so
/// it is cut to 128 characters and its invisible characters escaped.
#[inline]
pub(crate) fn bounded(tool: &str) -> Cow<'_, str> {
    // The common case, short printable ASCII, without decoding or a call.
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
