#![deny(unused_variables)]

use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router]
impl Server {
    /// Return the time of day.
    #[allow(unused_variables)]
    #[tool]
    #[must_use]
    fn now(&self) -> Result<String, ToolError> {
        let unused = 1;
        Ok("12:00".to_owned())
    }

    /// A tool without a receiver.
    #[tool]
    fn version() -> Result<String, ToolError> {
        Ok("1".to_owned())
    }
}

pub fn main() {
    assert!(Server::tool_router().has_route("version"));
}
