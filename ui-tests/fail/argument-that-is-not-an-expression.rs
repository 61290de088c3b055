use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

// Both arguments are reported; the misspelled description still counts as
// the description, so there is no "no description" error besides.
#[tool_router]
impl Server {
    #[tool(title = pub, descripton = "Return the time of day.")]
    fn now(&self) -> Result<String, ToolError> {
        Ok("12:00".to_owned())
    }
}

fn main() {}
