use outcome_runtime::{ToolError, tool, tool_router};
use rmcp::ServerHandler;

struct Server;

#[tool_router(server_handler, router = clock, vis = "pub(crate)")]
impl Server {
    /// Return the time of day.
    #[tool]
    fn now(&self) -> Result<String, ToolError> {
        Ok("12:00".to_owned())
    }
}

pub fn main() {
    assert!(Server.get_info().capabilities.tools.is_some());
    assert!(Server::clock().has_route("now"));
}
