//! A tool that returns rmcp's `Result<T, McpError>`, by name or behind
//! an alias, keeps it: `?` on the server's own error type goes through the
//! server's conversion into `McpError`, as before the migration.

use outcome_runtime::{tool, tool_handler, tool_router};
use rmcp::handler::server::wrapper::Json;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, ServerHandler, schemars};

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Time {
    hour: u8,
}

#[derive(Debug)]
enum ClockError {
    Unset,
}

impl std::fmt::Display for ClockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("no clock is set")
    }
}

impl std::error::Error for ClockError {}

impl From<ClockError> for McpError {
    fn from(error: ClockError) -> Self {
        McpError::invalid_request(error.to_string(), None)
    }
}

fn clock(set: bool) -> Result<u8, ClockError> {
    if set { Ok(12) } else { Err(ClockError::Unset) }
}

type ToolResult = Result<CallToolResult, McpError>;

struct Server;

#[tool_router]
impl Server {
    /// Return the time of day.
    #[tool]
    fn now(&self) -> ToolResult {
        let hour = clock(true)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "{hour}:00"
        ))]))
    }

    /// Return the hour of the day.
    #[tool]
    async fn hour(&self) -> Result<Json<Time>, rmcp::ErrorData> {
        Ok(Json(Time {
            hour: clock(false)?,
        }))
    }
}

#[tool_handler]
impl ServerHandler for Server {}

pub fn main() {}
