use outcome_runtime::{ToolError, quote, tool, tool_router};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::schemars;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    path: String,
    version: String,
}

struct Server;

#[tool_router]
impl Server {
    /// Return a note's text.
    #[tool]
    fn read_note(
        &self,
        Parameters(Args { path, .. }): Parameters<Args>,
    ) -> Result<String, ToolError> {
        if path.is_empty() {
            return Err(ToolError::invalid(
                "",
                "Call read_note with the path search_notes returned",
            ));
        }
        if !path.ends_with(".md") {
            return Err(ToolError::invalid(
                format_args!("The path {} is not a note", quote(&path)),
                "",
            ));
        }
        Ok(path)
    }

    /// Replace a note's text.
    #[tool]
    async fn write_note(
        &self,
        Parameters(Args { path, version }): Parameters<Args>,
    ) -> Result<String, ToolError> {
        if version != "a1b2" {
            return Err(outcome_runtime::ToolError::stale(
                format_args!(
                    "Note {} changed since version {}",
                    quote(&path),
                    quote(&version)
                ),
                "   ",
            ));
        }
        let index: Option<u32> = None;
        let _ = index.ok_or_else(|| ToolError::retry_later(r""))?;
        Ok(path)
    }

    /// Delete a note.
    // The misspelled argument is reported together with the empty text.
    #[tool(nmae = "remove_note")]
    fn delete_note(
        &self,
        Parameters(Args { path, .. }): Parameters<Args>,
    ) -> Result<String, ToolError> {
        Err(ToolError::invalid(
            format_args!("The note {} is pinned", quote(&path)),
            "\n",
        ))
    }
}

fn main() {}
