//! Async bodies whose tail awaits something: each type the tail needs is
//! still inferred from the tool's return type, as in a body the macro does
//! not touch.
// The `return`s are what the macros must leave as they are.
#![allow(clippy::needless_return)]

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

/// What a path loads as.
trait Load {
    fn load(path: &str) -> Self;
}

impl Load for Result<String, ToolError> {
    fn load(path: &str) -> Self {
        Ok(path.to_owned())
    }
}

/// A future whose output type is known only from where it is awaited.
async fn loaded<T: Load>(path: &str) -> T {
    T::load(path)
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
        Ok(joined
            .iter()
            .map(|line| line.trim())
            .collect::<Vec<_>>()
            .join(" "))
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
            return Err(ToolError::invalid(
                "The path is empty.",
                "Give a path to count.",
            ));
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
                    parsed(&args.path).await
                } else {
                    Ok(helper(&args.path).await?)
                }
            }
        }
    }

    /// Returns that await, in the places a body holds them; and returns
    /// that are not the body's own, left alone: an async block's, an async
    /// closure's, a nested function's.
    #[tool]
    async fn returns(&self, Parameters(args): Parameters<Args>) -> Result<String, ToolError> {
        let Ok(count) = args.path.parse::<u32>() else {
            return parsed(&args.path).await;
        };
        if count == 0 {
            return parsed(&args.path).await;
        }
        let mut left = count;
        while left > 0 {
            left -= 1;
            if left == 7 {
                return Ok(helper(&args.path).await?);
            }
        }
        let own: Result<u32, McpError> = async {
            if count > 1 {
                return Ok(count);
            }
            return helper(&args.path).await.map(|text| text.len() as u32);
        }
        .await;
        let doubled = async |n: u32| -> Option<u32> {
            return async { n.checked_mul(2) }.await;
        };
        fn halved(n: u32) -> Result<u32, String> {
            return Ok(n / 2);
        }
        match own {
            Ok(n) if n > 3 => return parsed(&format!("{:?}", doubled(n).await)).await,
            Ok(n) => Ok(halved(n).unwrap_or_default().to_string()),
            Err(_) => return parsed("0").await,
        }
    }

    /// Futures whose output is known only from the return type, as a tail,
    /// an arm and a `return`: the check passes the type on.
    #[tool]
    async fn inferred(&self, Parameters(args): Parameters<Args>) -> Result<String, ToolError> {
        if args.path.is_empty() {
            return loaded(&args.path).await;
        }
        match args.path.len() {
            1 => loaded(&args.path).await,
            2 => std::future::pending().await,
            _ => std::future::ready(Ok(args.path)).await,
        }
    }

    /// A future in parentheses or braces, as the tail: no warning about
    /// them, and a block's temporaries end where they did.
    #[tool]
    async fn grouped(&self, Parameters(args): Parameters<Args>) -> Result<String, ToolError> {
        if args.path.is_empty() {
            return (parsed(&args.path)).await;
        }
        { parsed(&args.path) }.await
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

pub fn main() {}
