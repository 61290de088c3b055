//! [`Outcome`]: how a tool call ended, the word every crate of the
//! workspace uses for it.

use std::fmt::{self, Display};

/// How a tool call ended: the four outcomes of the design, and the one
/// protocol error that passes through.
///
/// The outcome fixes what the model reads, what the message tells it to do
/// next and the log level, which answers "who must act?".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Outcome {
    /// 1: the contract is met; the model reads the value. An empty search is
    /// a result.
    Result,
    /// 2: the model must change the request (not found, invalid argument, a
    /// parameter it must pass, a feature this deployment leaves off). INFO.
    Invalid,
    /// 3: the model must refresh what it read, then retry (stale version,
    /// conflicting change). INFO.
    Stale,
    /// 4: the server failed; the request was fine. WARNING when it heals
    /// itself, ERROR when an operator must act.
    Fault,
    /// None of the four: a protocol error that reaches the client as a
    /// JSON-RPC error, not as a result (a missing client capability). The
    /// client or its user acts, not the model or an operator, so INFO.
    Protocol,
}

impl Outcome {
    /// The value of the `outcome` field in log records: `result`, `invalid`,
    /// `stale`, `fault` or `protocol`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Result => "result",
            Outcome::Invalid => "invalid",
            Outcome::Stale => "stale",
            Outcome::Fault => "fault",
            Outcome::Protocol => "protocol",
        }
    }
}

impl Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
