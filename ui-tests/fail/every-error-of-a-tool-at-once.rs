use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router]
impl Server {
    /// Return the time. Throws when the clock is unset.
    #[tool(nmae = "time", title = 3)]
    const fn now(&self) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {}
