use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router]
impl Server {
    #[tool(descripton = "Return the time of day.")]
    fn now(&self) -> Result<String, ToolError> {
        Ok("12:00".to_owned())
    }

    /// Return the date.
    #[tool(colour = "blue")]
    fn today(&self) -> Result<String, ToolError> {
        Ok("2026-11-30".to_owned())
    }
}

fn main() {}
