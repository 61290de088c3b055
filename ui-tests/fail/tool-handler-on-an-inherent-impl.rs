use outcome_runtime::{ToolError, tool, tool_handler, tool_router};

struct Server;

#[tool_router]
impl Server {
    /// Read the note.
    #[tool]
    fn read(&self) -> Result<String, ToolError> {
        Ok("# Plan".to_owned())
    }
}

// Methods added here would be the type's own, which rmcp never calls.
#[tool_handler]
impl Server {}

fn main() {}
