use outcome_runtime::{ToolError, quote, tool, tool_router};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::schemars;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    tags: String,
}

struct Server;

fn next_step(tool: &str) -> String {
    format!("Call {tool} with tags separated by commas")
}

#[tool_router(other_tools(list_tags))]
impl Server {
    /// Return the note's tags, one per line.
    #[tool]
    fn tags(&self, Parameters(Args { tags }): Parameters<Args>) -> Result<String, ToolError> {
        // Only a literal that is itself an argument of those calls is
        // judged: these empty ones are not.
        let blank = || "";
        let parts: Vec<&str> = tags
            .split(',')
            .map(|part| {
                if part.trim().is_empty() {
                    blank()
                } else {
                    part.trim()
                }
            })
            .collect();
        if parts.iter().any(|part| part.is_empty()) {
            return Err(ToolError::invalid(
                format_args!("The tags {} contain an empty tag", quote(&tags)),
                next_step("tags"),
            ));
        }
        if parts.len() > 10 {
            return Err(ToolError::invalid(
                parts.iter().map(|_| "").collect::<String>() + "Too many tags",
                "Call tags with at most ten tags",
            ));
        }
        if tags.starts_with('#') {
            return Err(ToolError::stale(
                format_args!("The tags {} use the old format", quote(&tags)),
                "Call list_tags for the current names, then call tags with them",
            ));
        }
        let index: Option<&str> = Some("ready");
        let _ = index.ok_or_else(|| {
            ToolError::retry_later(
                "The tag index is rebuilding and the request was fine; retry in a minute",
            )
        })?;
        let _unrelated = ToolError::fault("");
        Ok(parts.join("\n"))
    }
}

pub fn main() {}
