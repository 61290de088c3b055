//! A fault's record, written once where the fault leaves the tool's code
//! (a body's or a route's boundary, a job's end, the call's end), and a
//! caught panic made a fault.

use std::any::Any;

use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::CallToolResponse;

use crate::answer::error::{FaultRecord, ToolError};
use crate::base::bounds::Bounded;
use crate::base::panics::{described, drop_quietly, panic_message, take_site};
use crate::base::scope;
use crate::logs::records;

/// Writes the `tool_failed` record of `error`'s fault, if one is left,
/// where the error leaves the tool's code (a body's or a route's boundary,
/// a job's end). Writing moves the record out, so an error that crosses two
/// boundaries (a tool calling another's method) is recorded once. The
/// ending travels in the answer ([`report`](crate::base::report)), so an error a
/// body recovers from ends nothing.
///
/// Names `tool`, else the call's tool (`unknown` outside a call).
pub(crate) fn record_fault(error: &mut ToolError, tool: Option<&Bounded<'_>>) {
    let Some(record) = error.take_record() else {
        return;
    };
    match tool {
        Some(tool) => write_record(tool, &record),
        None => {
            let in_call = scope::CALL.try_with(|call| write_record(&call.tool.logged(), &record));
            if in_call.is_err() {
                write_record(&Bounded::new("unknown"), &record);
            }
        }
    }
}

/// `error` as its answer, its fault recorded.
pub(crate) fn answer(
    mut error: ToolError,
    tool: Option<&Bounded<'_>>,
) -> Result<CallToolResponse, ErrorData> {
    record_fault(&mut error, tool);
    error.into_call_tool_result()
}

fn write_record(tool: &Bounded<'_>, record: &FaultRecord) {
    records::tool_failed(record.level, tool, record.error_type, &record.text);
}

/// Logs a caught panic as `tool_failed` and makes the fault the model reads.
#[cold]
#[inline(never)]
pub(crate) fn caught_panic(tool: &Bounded<'_>, payload: Box<dyn Any + Send>) -> ToolError {
    let message = panic_message(&*payload);
    let (location, backtrace) = take_site(&message);
    records::panic_failed(tool, &message, location.as_deref(), backtrace.as_deref());
    drop_quietly(payload);
    ToolError::from_panic(described(message, location))
}
