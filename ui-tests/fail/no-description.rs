use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router]
impl Server {
    #[tool]
    fn now(&self) -> Result<String, ToolError> {
        Ok("12:00".to_owned())
    }

    /// # Examples
    ///
    /// A heading first leaves nothing for the model.
    #[tool]
    fn today(&self) -> Result<String, ToolError> {
        Ok("2026-11-30".to_owned())
    }
}

fn main() {}
