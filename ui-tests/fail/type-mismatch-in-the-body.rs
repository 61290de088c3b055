use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router]
impl Server {
    /// Return the time of day.
    #[tool]
    fn now(&self) -> Result<String, ToolError> {
        Ok(12)
    }

    /// Return the date.
    #[tool]
    async fn today(&self) -> Result<String, ToolError> {
        let day: u32 = "30".to_owned();
        Ok(day.to_string())
    }
}

fn main() {}
