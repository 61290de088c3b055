use outcome_runtime::{ToolError, tool, tool_router};
use rmcp::ErrorData as McpError;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::schemars;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    path: String,
}

/// The server's handlers, which return rmcp's error type.
mod handlers {
    use super::*;

    pub async fn read_file(path: &str) -> Result<CallToolResult, McpError> {
        Ok(CallToolResult::success(vec![ContentBlock::text(path)]))
    }

    pub fn list_directory(path: &str) -> Result<CallToolResult, McpError> {
        Ok(CallToolResult::success(vec![ContentBlock::text(path)]))
    }
}

struct Server;

// A body that ends in a helper's `Result<_, McpError>`, as a thin router
// over a handlers module does: the error is at the tail, naming both types.
// Both say the fix, `Ok(handlers::..(..)?)`: rustc for the sync body, the
// expansion's check of an awaited tail for the async one.
#[tool_router]
impl Server {
    /// Read a file's text.
    #[tool]
    async fn read_file(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, ToolError> {
        handlers::read_file(&args.path).await
    }

    /// List a directory.
    #[tool]
    fn list_directory(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, ToolError> {
        handlers::list_directory(&args.path)
    }
}

fn main() {}
