use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router]
impl Server {
    /// Plan the days ahead.
    #[tool(unchecked_input = " ")]
    fn plan(&self) -> Result<String, ToolError> {
        Ok("planned".to_owned())
    }

    /// Plan the weeks ahead.
    #[tool(unchecked_input)]
    fn weeks(&self) -> Result<String, ToolError> {
        Ok("planned".to_owned())
    }
}

fn main() {}
