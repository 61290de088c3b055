use outcome_runtime::{ToolError, tool, tool_handler, tool_router};
use rmcp::ServerHandler;

struct Server;

// Only the argument error: the router is still generated, under the name
// `roter` was most likely meant to give it, so the handler finds it.
#[tool_router(roter = clock_tools)]
impl Server {
    /// Return the time of day.
    #[tool]
    fn now(&self) -> Result<String, ToolError> {
        Ok("12:00".to_owned())
    }
}

#[tool_handler(router = Self::clock_tools())]
impl ServerHandler for Server {}

fn main() {
    let _ = Server::clock_tools();
}
