use std::error::Error;

use outcome_runtime::{ToolError, tool, tool_router};
type TextResult<T> = Result<T, String>;

struct Server;

// Each tool is reported once, at its error type, with what replaces it.
#[tool_router]
impl Server {
    /// Return the date.
    #[tool]
    async fn today(&self) -> Result<String, String> {
        Ok("2026-11-30".to_owned())
    }

    /// Return the time zone.
    #[tool]
    fn zone(&self) -> Result<String, Box<dyn Error>> {
        Ok("UTC".to_owned())
    }

    /// Return the offset from UTC.
    #[tool]
    async fn offset(&self) -> Result<String, &'static str> {
        Ok("+00:00".to_owned())
    }

    /// Return the year; an alias hides the error type, and the type is
    /// still checked.
    #[tool]
    async fn year(&self) -> TextResult<String> {
        Ok("2026".to_owned())
    }

    /// Return the week.
    #[tool]
    fn week(&self) -> Result<String, ToolError> {
        Ok("48".to_owned())
    }
}

fn main() {}
