use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router]
impl Server {
    /// Return the time of day.
    #[tool]
    #[tool]
    fn now(&self) -> Result<String, ToolError> {
        Ok("12:00".to_owned())
    }

    /// Return the date.
    #[tool]
    #[rmcp::tool]
    fn today(&self) -> Result<String, ToolError> {
        Ok("2026-11-30".to_owned())
    }
}

fn main() {}
