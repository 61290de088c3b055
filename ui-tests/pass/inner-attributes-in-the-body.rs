#![deny(unused_variables)]

use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router]
impl Server {
    /// Return the time of day.
    #[tool]
    fn now(&self) -> Result<String, ToolError> {
        #![allow(unused_variables)]
        let unused = 1;
        Ok("12:00".to_owned())
    }

    /// Return the date.
    #[tool]
    async fn today(&self) -> Result<String, ToolError> {
        #![allow(unused_variables)]
        let unused = 1;
        Ok("2026-11-30".to_owned())
    }
}

pub fn main() {}
