use outcome_runtime::{ToolError, tool, tool_router};
use rmcp::ErrorData as McpError;

struct Server;

fn clock() -> Result<String, McpError> {
    Err(McpError::invalid_params("No clock is set", None))
}

// A body migrated from rmcp keeps its `Err(McpError::..)`: rustc says to
// call `.into()` at each, in a sync tail, a match arm, and an async
// `return`.
#[tool_router]
impl Server {
    /// Return the time of day.
    #[tool]
    fn now(&self) -> Result<String, ToolError> {
        Err(McpError::invalid_params("No clock is set", None))
    }

    /// Return the hour of the day.
    #[tool]
    fn hour(&self) -> Result<String, ToolError> {
        match clock() {
            Ok(time) => Ok(time),
            Err(error) => Err(error),
        }
    }

    /// Return the date.
    #[tool]
    async fn today(&self) -> Result<String, ToolError> {
        if clock().is_err() {
            return Err(McpError::invalid_params("No clock is set", None));
        }
        Ok("2026-12-03".to_owned())
    }
}

fn main() {}
