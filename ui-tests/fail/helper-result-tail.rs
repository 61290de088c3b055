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
// Each says the fix, `Ok(handlers::..(..)?)`: rustc for a value that does
// not await, the expansion's checks for one that does, a `return` and an
// arm of a `match` included.
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

    /// Read a file unless the path is empty: a `return` of an awaited
    /// helper, told the same fix.
    #[tool]
    async fn read_nonempty(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, ToolError> {
        let Some(first) = args.path.chars().next() else {
            return handlers::read_file(".").await;
        };
        if first == '/' {
            return handlers::read_file(&args.path[1..]).await;
        }
        Ok(handlers::read_file(&args.path).await?)
    }

    /// A sync helper awaited: rustc's own "not a future".
    #[tool]
    async fn listed(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, ToolError> {
        handlers::list_directory(&args.path).await
    }

    /// Read a file or list a directory: each arm is a tail.
    #[tool]
    async fn open(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, ToolError> {
        if args.path.is_empty() {
            let _ = args.path.len();
        }
        match args.path.ends_with('/') {
            true => handlers::list_directory(&args.path),
            false => handlers::read_file(&args.path).await,
        }
    }
}

fn main() {}
