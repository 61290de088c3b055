//! Async bodies whose tail awaits something: each type the tail needs is
//! still inferred from the tool's return type, as in a body the macro does
//! not touch.

use outcome_runtime::{ToolError, tool, tool_router};
use rmcp::ErrorData as McpError;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::schemars;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    path: String,
}

async fn parsed<T: std::str::FromStr + Default>(text: &str) -> Result<T, ToolError> {
    Ok(text.parse().unwrap_or_default())
}

async fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_owned).collect()
}

async fn helper(path: &str) -> Result<String, McpError> {
    Ok(path.to_owned())
}

struct Server;

#[tool_router]
impl Server {
    /// A tail whose type parameter comes from the return type.
    #[tool]
    async fn count(&self, Parameters(args): Parameters<Args>) -> Result<String, ToolError> {
        parsed(&args.path).await
    }

    /// A tail that collects into the return type, through a closure.
    #[tool]
    async fn split(&self, Parameters(args): Parameters<Args>) -> Result<String, ToolError> {
        let joined: Vec<String> = lines(&args.path).await;
        Ok(joined.iter().map(|line| line.trim()).collect::<Vec<_>>().join(" "))
    }

    /// The fix the compiler names for a helper's `Result<_, McpError>`.
    #[tool]
    async fn read(&self, Parameters(args): Parameters<Args>) -> Result<String, ToolError> {
        Ok(helper(&args.path).await?)
    }

    /// A tail after statements that end in a block, not a `;`.
    #[tool]
    async fn checked(&self, Parameters(args): Parameters<Args>) -> Result<String, ToolError> {
        if args.path.is_empty() {
            return Err(ToolError::invalid("The path is empty.", "Give a path to count."));
        }
        parsed::<String>(&args.path).await
    }

    /// A tail that awaits an async block.
    #[tool]
    async fn nested(&self) -> Result<String, ToolError> {
        async { Ok(String::new()) }.await
    }

    /// Tails in the arms of a `match`, the branches of an `if`, and a
    /// block: each arm's type is still inferred from the return type.
    #[tool]
    async fn branches(&self, Parameters(args): Parameters<Args>) -> Result<String, ToolError> {
        match args.path.len() {
            0 => Ok(String::new()),
            1 => parsed(&args.path).await,
            2 => {
                let path = args.path.trim();
                parsed(path).await
            }
            _ => {
                if args.path.starts_with('/') {
                    (parsed(&args.path).await)
                } else {
                    Ok(helper(&args.path).await?)
                }
            }
        }
    }

    /// An `if` without an `else` is a statement, not the tail.
    #[tool]
    async fn statement(&self, Parameters(args): Parameters<Args>) -> Result<String, ToolError> {
        if args.path.is_empty() {
            lines(&args.path).await;
        }
        parsed(&args.path).await
    }
}

fn main() {}
