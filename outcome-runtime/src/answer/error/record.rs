//! What the log learns from a [`ToolError`]: the report its answer
//! carries, its fault's one record, and the error an answer's report
//! describes, read back where the call ends.

use std::borrow::Cow;

use rmcp::ErrorData;
use tracing::Level;

use super::{Captured, Cause, Kind, ToolError};
use crate::answer::classify;
use crate::answer::sentences;
use crate::base::message;
use crate::base::outcome::Outcome;
use crate::base::panics;
use crate::base::report::Report;

/// The operator's record of a fault, made once from its [`ToolError`]:
/// what `tool_failed` carries.
pub(crate) struct FaultRecord {
    pub(crate) level: Level,
    pub(crate) error_type: Option<&'static str>,
    /// The error chain, bounded; or the tool's message, for a fault with no
    /// error behind it.
    pub(crate) text: String,
}

impl ToolError {
    /// How this error ends the call it answers.
    pub(crate) fn report(&self) -> Report {
        Report::Failed {
            outcome: self.outcome(),
            heals: self.heals_itself(),
            error_type: self.inner.error_type.map(Cow::Borrowed),
            // A fault whose record was made has no cause left to make it;
            // a panic's was made where it was caught.
            recorded: matches!(self.inner.kind, Kind::Fault { .. })
                && matches!(self.inner.cause, None | Some(Cause::Panic(_))),
        }
    }

    /// The error an answer's trusted report describes, read where the
    /// call ends: an `ErrorData` a `#[tool]` returned, made from a
    /// `ToolError` by its boundary.
    pub(crate) fn from_report(report: Report, data: ErrorData) -> Self {
        let error_type = match &report {
            Report::Failed {
                error_type: Some(name),
                ..
            } if name == std::any::type_name::<ErrorData>() => {
                Some(std::any::type_name::<ErrorData>())
            }
            _ => Some("outcome_runtime::ToolError"),
        };
        Self::reported(report, data, error_type)
    }

    /// The error a report read from an `ErrorData` describes: a
    /// `ToolError` of this process's that travelled as JSON.
    pub(super) fn reported(
        report: Report,
        data: ErrorData,
        error_type: Option<&'static str>,
    ) -> Self {
        let recorded = matches!(report, Report::Failed { recorded: true, .. });
        let kind = match report {
            Report::Failed {
                outcome: Outcome::Invalid,
                ..
            } => Kind::Invalid,
            Report::Failed {
                outcome: Outcome::Stale,
                ..
            } => Kind::Stale,
            Report::Failed {
                outcome: Outcome::Protocol,
                ..
            } => {
                return Self::from_source(
                    Kind::PassThrough(data.clone()),
                    Box::new(data),
                    error_type,
                );
            }
            Report::Failed { heals, .. } => Kind::Fault { heals },
            // Only a result carries these.
            Report::Deferred | Report::Replayed => Kind::Fault { heals: false },
        };
        let text = message::one_line(&data.message, message::MESSAGE_LIMIT);
        let built = sentences::Built {
            text,
            fallback: None,
        };
        let mut error = Self::model_facing(kind, built);
        error.inner.error_type = error_type;
        if recorded {
            error.inner.cause = None;
        }
        error
    }

    /// A fault from a caught panic, recorded where it was caught (with its
    /// location and backtrace), so it has nothing left to record.
    pub(crate) fn from_panic(detail: String) -> Self {
        let mut error = Self::from_source(
            Kind::Fault { heals: false },
            detail.into(),
            Some(crate::base::outcome::PANIC_TYPE),
        );
        error.inner.cause = match error.inner.cause.take() {
            Some(Cause::Error(detail)) => Some(Cause::Panic(detail)),
            other => other,
        };
        error
    }

    /// The operator's record of this fault, made once: `None` for outcomes
    /// 2 and 3, a pass-through, a panic, and a fault whose record was made
    /// already. The error behind the fault goes with it: only the log
    /// needs it. Runs no code of the tool's but its error's `Display`,
    /// `source` and `Drop`, whose panics are noted in the record.
    pub(crate) fn take_record(&mut self) -> Option<FaultRecord> {
        if !matches!(self.inner.kind, Kind::Fault { .. })
            || matches!(self.inner.cause, Some(Cause::Panic(_)))
        {
            return None;
        }
        let text = match self.inner.cause.take()? {
            // Already the bounded chain: bounding it again could cut it twice.
            Cause::Error(source) if source.is::<Captured>() => source.to_string(),
            Cause::Error(source) => {
                let mut chain = classify::chain_text(&*source);
                drop_noting_panic(source, &mut chain);
                chain
            }
            Cause::Condition => self.inner.message.to_string(),
            Cause::Panic(_) => unreachable!("a panic's record is written where it is caught"),
        };
        Some(FaultRecord {
            level: self.level(),
            error_type: self.inner.error_type,
            text,
        })
    }
}

/// Drops an error the tool made, noting a panic of its drop in `record`:
/// the drop is the tool's code, and its panic belongs in the fault's one
/// `tool_failed`, not in a second one.
pub(super) fn drop_noting_panic<E>(error: E, record: &mut String) {
    if let Err(panic) = panics::catch_described(move || drop(error)) {
        record.push_str(&format!(" (dropping the error then panicked: {panic})"));
    }
}
