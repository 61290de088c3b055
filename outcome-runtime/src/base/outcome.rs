//! How a call ended: [`Outcome`] (defined in `outcome-rules`, where the
//! message rules need it too) and, for records, [`Ending`].

pub use outcome_rules::Outcome;
use tracing::Level;

/// The `error.type` of a fault that was a panic.
pub(crate) const PANIC_TYPE: &str = "panic";

/// The level of a call that ended in `outcome`, by who must act: INFO for
/// the model (and the client, for a protocol error), WARNING for a fault
/// that heals itself, ERROR for an operator.
pub(crate) fn level_of(outcome: Outcome, heals: bool) -> Level {
    match outcome {
        Outcome::Fault if heals => Level::WARN,
        Outcome::Fault => Level::ERROR,
        _ => Level::INFO,
    }
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
