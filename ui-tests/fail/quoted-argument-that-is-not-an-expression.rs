use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router]
impl Server {
    /// Return the time of day.
    #[tool(input_schema = "schema(", meta = "\u{200b}")]
    fn now(&self) -> Result<String, ToolError> {
        Ok("12:00".to_owned())
    }
}

fn main() {}
