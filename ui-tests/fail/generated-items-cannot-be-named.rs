use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router]
impl Server {
    /// Return the time of day.
    #[tool]
    fn now(&self) -> Result<String, ToolError> {
        // The router check declares these in its own scope only.
        fn probe<T: Fallback + Wrapped>() {}
        Ok("12:00".to_owned())
    }
}

fn main() {}
