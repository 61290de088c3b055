use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router]
impl Server {
    #[doc = include_str!("computed-doc.md")]
    #[tool]
    fn now(&self) -> Result<String, ToolError> {
        Ok("12:00".to_owned())
    }
}

pub fn main() {
    // rmcp reads a computed doc whole: it cannot be cut at compile time.
    let description = Server::now_tool_attr().description.unwrap();
    assert!(
        description.starts_with("Return the time of day."),
        "{description}"
    );
    assert!(
        !description.contains("What the model receives"),
        "{description}"
    );
}
