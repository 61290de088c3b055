//! How a [`ToolError`] leaves: rmcp's `isError` result, or the `ErrorData`
//! of a trait-based tool, each carrying the error's report.

use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};

use super::{Kind, ToolError};
use crate::base::outcome::Outcome;
use crate::base::report::{self, Report};
use crate::base::scope;

/// How rmcp sends a `ToolError`: an `isError` result with the message as its
/// only text, its fallback step naming the tool of the call in flight, or
/// the JSON-RPC error it passes through; either carries the error's
/// report for the request log, which takes it out. A
/// fault's record is the boundary's to write, not this conversion's.
impl IntoCallToolResult for ToolError {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        let report = self.report();
        let mut answer = self
            .into_text()
            .map(|text| CallToolResult::error(vec![ContentBlock::text(text)]).into());
        attach_report(&mut answer, &report);
        answer
    }
}

/// A `ToolError` where rmcp wants an `ErrorData`: the error type of its
/// trait-based tools (`ToolBase::Error`). Nothing else happens.
///
/// The `ErrorData` carries what the `isError` result would: the message
/// the model reads (its fallback step naming the call's tool), as an
/// invalid-params error for outcomes 2 and 3 and an internal error for
/// outcome 4, and in `data` the error's report (outcome,
/// whether it heals itself), which the code alone cannot say, tagged so
/// that only this process can write it for this message. An upstream MCP
/// server's error passed on with `?` carries `data` of its own choosing:
/// without a tag that matches, its code decides. [The
/// table](ToolError#rmcps-errordata) reads it back: under this crate's
/// `#[tool_handler]` or [`wrap_router`](crate::handler::wrap_router), a
/// trait tool's call ends as its `ToolError` says, with its message, its
/// outcome and its level. What does not survive is a fault's source chain:
/// an `ErrorData` is JSON, so the operator's record names the message only.
/// A trait tool that needs its cause in the log logs it, or is written as
/// a `#[tool]` method.
impl From<ToolError> for ErrorData {
    fn from(error: ToolError) -> ErrorData {
        let report = error.report();
        let outcome = error.outcome();
        let mut data = match error.into_text() {
            Ok(text) if matches!(outcome, Outcome::Invalid | Outcome::Stale) => {
                Err(ErrorData::invalid_params(text, None))
            }
            Ok(text) => Err(ErrorData::internal_error(text, None)),
            Err(pass_through) => Err(pass_through),
        };
        attach_report(&mut data, &report);
        match data {
            Err(data) => data,
            Ok(_) => unreachable!("a report leaves an error an error"),
        }
    }
}

/// Writes `report` into the answer made from a `ToolError`; but an error
/// that rmcp's own code passes through as itself (a missing capability)
/// stays as it is, for every client, and is read by its code.
fn attach_report(answer: &mut Result<CallToolResponse, ErrorData>, report: &Report) {
    if let Err(error) = answer
        && crate::base::rmcp_errors::passes_through(error)
    {
        return;
    }
    report::attach(answer, report);
}

impl ToolError {
    /// The text the model reads, its fallback step naming the call's tool;
    /// the JSON-RPC error itself for a pass-through.
    fn into_text(self) -> Result<String, ErrorData> {
        let inner = *self.inner;
        if let Kind::PassThrough(data) = inner.kind {
            return Err(data);
        }
        let mut text = inner.message.into_owned();
        if let Some(fallback) = inner.fallback {
            let _ = scope::CALL.try_with(|call| fallback.name_tool(&mut text, &call.tool));
        }
        Ok(text)
    }
}
