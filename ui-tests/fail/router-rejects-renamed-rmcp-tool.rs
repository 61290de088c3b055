use outcome_runtime::{ToolError, tool, tool_router};
use rmcp::tool as t;

struct Server;

#[tool_router]
impl Server {
    /// Return the time of day.
    #[tool]
    fn now(&self) -> Result<String, ToolError> {
        Ok("12:00".to_owned())
    }

    /// Return the date.
    #[t]
    fn today(&self) -> String {
        "2026-11-30".to_owned()
    }
}

fn main() {}
