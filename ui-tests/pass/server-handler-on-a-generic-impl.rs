use std::fmt::Display;

use outcome_runtime::{ToolError, tool, tool_router};
use rmcp::ServerHandler;

struct Server<T> {
    label: T,
}

#[tool_router(server_handler)]
impl<T> Server<T>
where
    T: Display + Send + Sync + 'static,
{
    /// Return the server's label.
    #[tool]
    fn label(&self) -> Result<String, ToolError> {
        Ok(self.label.to_string())
    }
}

pub fn main() {
    let server = Server { label: 7 };
    assert!(server.get_info().capabilities.tools.is_some());
    assert_eq!(server.label().unwrap(), "7");
}
