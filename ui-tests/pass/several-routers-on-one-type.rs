use outcome_runtime::{ToolError, tool, tool_handler, tool_router};
use rmcp::ServerHandler;

struct Server;

#[tool_router(router = notes_router)]
impl Server {
    /// Read the note.
    #[tool]
    fn read(&self) -> Result<String, ToolError> {
        Ok("# Plan".to_owned())
    }
}

#[tool_router(router = admin_router)]
impl Server {
    /// Rebuild the index.
    #[tool]
    fn reindex(&self) -> Result<String, ToolError> {
        Ok("2".to_owned())
    }
}

#[tool_handler(router = Self::notes_router() + Self::admin_router())]
impl ServerHandler for Server {}

pub fn main() {
    let router = Server::notes_router() + Server::admin_router();
    assert!(router.has_route("read") && router.has_route("reindex"));
}
