//! The request in flight: what a call's task knows about it while it runs
//! (its tool, the boundary's report, whether the body started, how a job
//! wants it logged), for the request log to read when the call ends.

use std::borrow::Cow;
use std::cell::Cell;

use rmcp::ErrorData;
use rmcp::model::CallToolResponse;
use tracing::Level;

use crate::error::ToolError;
use crate::outcome::Outcome;

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
    /// Whether a boundary started the tool's body: a call whose body never
    /// ran and that ended in an `isError` result failed on its arguments.
    pub(crate) body_ran: Cell<bool>,
    /// The session the call came from, when it has one: the client's
    /// `initialize` parameters, whose allocation stands for the session.
    pub(crate) session: Option<std::sync::Arc<rmcp::model::InitializeRequestParams>>,
    /// The call's request and session ids, when its span is recorded: a job
    /// the call starts carries them.
    pub(crate) ids: Option<Box<crate::telemetry::CallIds>>,
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

/// Notes that a boundary started the body of the call in flight.
#[inline(always)]
pub(crate) fn body_started() {
    let _ = CALL.try_with(|call| call.body_ran.set(true));
}

/// Notes how the call in flight on this task is to be logged.
pub(crate) fn note(note: Note) {
    let _ = CALL.try_with(|call| call.note.set(Some(note)));
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
