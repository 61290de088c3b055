// A method of the router's impl block that is no tool builds errors the
// tools return: its texts are checked too, against every tool of the block.
use outcome_runtime::{ToolError, quote, tool, tool_router};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::schemars;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Path {
    path: String,
}

struct Server;

#[tool_router]
impl Server {
    /// Return a note's text.
    #[tool]
    fn read_note(
        &self,
        Parameters(Path { path }): Parameters<Path>,
    ) -> Result<String, ToolError> {
        self.note(&path)
    }

    fn note(&self, path: &str) -> Result<String, ToolError> {
        Err(ToolError::invalid(
            format!("No note at {}", quote(path)),
            "Find the path with search_notes",
        ))
    }
}

fn main() {}
