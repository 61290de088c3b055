//! How a call ends: rmcp's own errors around a tool body, known by their
//! code and text, and what each means for the call.

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ErrorCode};

/// The text rmcp puts before serde's message when arguments do not
/// deserialize.
const ARGUMENT_ERROR_PREFIX: &str = "failed to deserialize parameters:";

/// rmcp's JSON-RPC errors that stay JSON-RPC errors: an unknown tool and a
/// missing client capability.
pub(crate) fn passes_through(error: &ErrorData) -> bool {
    error.code == ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
        || (error.code == ErrorCode::INVALID_PARAMS && error.message == "tool not found")
}

/// rmcp's error for arguments that do not deserialize, before its router
/// turns it into an `isError` result.
pub(crate) fn is_rmcp_argument_error(error: &ErrorData) -> bool {
    error.code == ErrorCode::INVALID_PARAMS && error.message.starts_with(ARGUMENT_ERROR_PREFIX)
}

/// serde's reason in rmcp's answer to arguments that do not deserialize.
pub(crate) fn argument_error(result: &CallToolResult) -> Option<&str> {
    match result.content.as_slice() {
        [only] => only
            .as_text()
            .and_then(|text| text.text.strip_prefix(ARGUMENT_ERROR_PREFIX))
            .map(str::trim),
        _ => None,
    }
}
