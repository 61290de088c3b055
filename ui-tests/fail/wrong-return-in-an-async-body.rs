use outcome_runtime::{ToolError, tool, tool_router};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::schemars;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    path: String,
}

struct Server;

// An async body is checked as a sync one is: one error, at the expression
// that is wrong, and none for the tool that is right.
#[tool_router]
impl Server {
    /// Return a note's text.
    #[tool]
    async fn read_note(
        &self,
        Parameters(Args { path }): Parameters<Args>,
    ) -> Result<String, ToolError> {
        if path.is_empty() {
            return Err("the path is empty".to_string());
        }
        Ok(path)
    }

    /// Return a note's title.
    #[tool]
    async fn title(
        &self,
        Parameters(Args { path }): Parameters<Args>,
    ) -> Result<String, ToolError> {
        if path.is_empty() {
            return Err(ToolError::invalid(
                "The path is empty",
                "Call title with a path",
            ));
        }
        Ok(path.len())
    }

    /// Return a note's length.
    #[tool]
    async fn length(
        &self,
        Parameters(Args { path }): Parameters<Args>,
    ) -> Result<String, ToolError> {
        if path.is_empty() {
            return Err(ToolError::invalid(
                "The path is empty",
                "Call length with a path",
            ));
        }
        tokio::task::yield_now().await;
        Ok(path.len().to_string())
    }

    /// Return a note's text, at once.
    #[tool]
    fn read_note_now(
        &self,
        Parameters(Args { path }): Parameters<Args>,
    ) -> Result<String, ToolError> {
        if path.is_empty() {
            return Err("the path is empty".to_string());
        }
        Ok(path)
    }
}

fn main() {}
