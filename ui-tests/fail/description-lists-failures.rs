use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router]
impl Server {
    /// Write a note. Fails if the note changed since it was read.
    #[tool]
    fn write_note(&self) -> Result<String, ToolError> {
        Ok("v2".to_owned())
    }

    /// Delete a note; returns an error when the note is missing.
    #[tool]
    fn delete_note(&self) -> Result<String, ToolError> {
        Ok("deleted".to_owned())
    }

    #[tool(description = "Move a note. Raises on a conflict.")]
    fn move_note(&self) -> Result<String, ToolError> {
        Ok("moved".to_owned())
    }
}

fn main() {}
