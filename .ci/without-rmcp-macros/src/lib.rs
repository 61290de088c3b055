//! A notes server with a tool of each shape, under this crate's macros and
//! rmcp without its own.

use outcome_runtime::{ToolError, tool, tool_handler, tool_router};
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{ServerHandler, schemars};

/// Which note to read.
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ReadArgs {
    /// The note's path, as `list_notes` returns it.
    pub path: String,
}

/// A note's text.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct NoteText {
    /// The text.
    pub text: String,
}

/// The notes, in memory.
pub struct Notes;

#[tool_router(server_handler)]
impl Notes {
    /// Return the text of a note; find paths with list_notes first.
    #[tool(annotations(read_only_hint = true))]
    fn read_note(
        &self,
        Parameters(ReadArgs { path }): Parameters<ReadArgs>,
    ) -> Result<Json<NoteText>, ToolError> {
        if path.is_empty() {
            return Err(ToolError::invalid(
                "The path is empty",
                "Pass a path from list_notes",
            ));
        }
        Ok(Json(NoteText {
            text: String::new(),
        }))
    }

    /// Return the paths of every note.
    #[tool]
    async fn list_notes(&self) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

/// The same tools behind a handler with every argument.
pub struct Named;

#[tool_router]
impl Named {
    /// Return the server's version.
    #[tool]
    fn version(&self) -> Result<String, ToolError> {
        Ok(env!("CARGO_PKG_VERSION").to_owned())
    }
}

#[tool_handler(
    name = "named",
    version = "1.0.0",
    instructions = "Call version first."
)]
impl ServerHandler for Named {}
