// The format string of `format!` and `format_args!` is checked as the
// model reads it: each placeholder is a value, never checked, and `{{`
// reads as `{`. Every text breaking a rule is reported at once.
use outcome_runtime::{ToolError, tool, tool_router};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::schemars;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Path {
    path: String,
}

struct Server;

#[tool_router]
impl Server {
    /// Return a note's text.
    #[tool]
    fn read_note(
        &self,
        Parameters(Path { path }): Parameters<Path>,
    ) -> Result<String, ToolError> {
        if path.is_empty() {
            return Err(ToolError::invalid(
                format!("No note at {path:?} under /srv/notes"),
                std::format_args!("Look again in {} with a {{path}}", "notes/"),
            ));
        }
        if path.starts_with('.') {
            return Err(ToolError::stale(
                ::std::format!("The note {} moved", path),
                format!("Reload it with reed_note, then retry"),
            ));
        }
        Ok(path)
    }
}

fn main() {}
