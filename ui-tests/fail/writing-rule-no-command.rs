// The writing rule `no-command`: a command to run.
use outcome_runtime::{ToolError, tool, tool_router};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::schemars;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Path {
    path: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Query {
    query: String,
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
        if path.is_empty() {
            return Err(ToolError::retry_later(
                "The index is missing; run cargo run --bin reindex, then retry",
            ));
        }
        Ok(path)
    }

    /// Return the paths of the notes that match a query.
    #[tool]
    fn search_notes(
        &self,
        Parameters(Query { query }): Parameters<Query>,
    ) -> Result<String, ToolError> {
        Ok(query)
    }
}

fn main() {}
