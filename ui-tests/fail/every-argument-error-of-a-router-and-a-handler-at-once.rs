use outcome_runtime::{ToolError, tool, tool_handler, tool_router};
use rmcp::ServerHandler;

struct Server;

#[tool_router(router = notes, vis = pub, allow_emty, router = admin, allow_empty = true)]
impl Server {
    /// Read the note.
    #[tool]
    fn read(&self) -> Result<String, ToolError> {
        Ok("# Plan".to_owned())
    }
}

#[tool_router(router = Self::admin, vis = "pub(crat)")]
impl Server {
    /// Rebuild the index.
    #[tool]
    fn reindex(&self) -> Result<String, ToolError> {
        Ok("2".to_owned())
    }
}

#[tool_handler(
    roter = Self::notes() + Self::admin(),
    nme = "notes",
    version = 2,
    instructions = "Reads notes.",
    instructions = "Reads and indexes notes.",
    colour = "blue",
)]
impl ServerHandler for Server {}

fn main() {
    let _ = Server::notes() + Server::admin();
}
