// Texts that follow the writing rules compile, with the model's values in
// placeholders or `quote()`; a text that must break a rule says so with
// `.waive(..)` on that call.
use outcome_runtime::{Rule, ToolError, quote, tool, tool_router};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::schemars;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Path {
    path: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Edit {
    path: String,
    text: String,
    if_match: String,
}

struct Server;

#[tool_router(other_tools(job_status))]
impl Server {
    /// Return a note's text and version.
    #[tool]
    fn read_note(&self, Parameters(Path { path }): Parameters<Path>) -> Result<String, ToolError> {
        if path.is_empty() {
            return Err(ToolError::invalid(
                "The path is empty",
                "Find the path with search_notes",
            ));
        }
        if path.starts_with('/') {
            return Err(ToolError::invalid(
                format!(
                    "No note at {} (paths are relative, like /srv/notes)",
                    quote(&path)
                ),
                "Call read_note again with the path search_notes returns",
            )
            .waive(Rule::NoPath));
        }
        if path.ends_with(".tmp") {
            return Err(ToolError::invalid(
                format!("No note at {path:?}; {{drafts}} are not notes"),
                format_args!("Find the note with search_notes"),
            ));
        }
        Ok(path)
    }

    /// Replace a note's text, if its version is still the one read.
    #[tool(name = "write_note")]
    async fn write(
        &self,
        Parameters(Edit {
            path,
            text,
            if_match,
        }): Parameters<Edit>,
    ) -> Result<String, ToolError> {
        if if_match != "a1b2" {
            return Err(ToolError::stale(
                format_args!(
                    "Note {} changed since version {}",
                    quote(&path),
                    quote(&if_match)
                ),
                "Call read_note for the current version, then pass it as if_match",
            ));
        }
        if text.is_empty() {
            return Err(self.busy());
        }
        if text.len() > 10 {
            return Err(ToolError::retry_later(
                "The index is locked. Run sudo reindex on the server, or retry in a minute",
            )
            .waive(outcome_runtime::Rule::NoCommand)
            .waive(Rule::Short));
        }
        Ok(text)
    }

    /// Return the paths of the notes whose text contains a word.
    #[tool]
    fn search_notes(&self) -> Result<String, ToolError> {
        Err(ToolError::retry_later(
            "The index is rebuilding and the request was fine; follow it with job_status",
        ))
    }

    fn busy(&self) -> ToolError {
        ToolError::retry_later(
            "The note is being written and the request was fine; retry in a second",
        )
    }
}

pub fn main() {}
