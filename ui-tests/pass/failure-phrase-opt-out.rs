use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router]
impl Server {
    /// Turn the speaker up; raises the volume by one step.
    #[tool(allow_failure_phrases)]
    fn louder(&self) -> Result<String, ToolError> {
        Ok("louder".to_owned())
    }
}

pub fn main() {
    let tool = Server::louder_tool_attr();
    assert_eq!(
        tool.description.as_deref(),
        Some("Turn the speaker up; raises the volume by one step.")
    );
}
