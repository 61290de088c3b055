use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router]
impl Server {
    /// Return the time of day.
    #[tool(annotations(read_only_hnt = true, destructive_hint = 1, title = clock, colour))]
    fn now(&self) -> Result<String, ToolError> {
        Ok("12:00".to_owned())
    }
}

fn main() {
    // The misspelled hint counts as the one it was meant to be.
    let annotations = Server::now_tool_attr().annotations;
    assert_eq!(annotations.and_then(|a| a.read_only_hint), Some(true));
}
