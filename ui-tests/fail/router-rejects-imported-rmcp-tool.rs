use outcome_runtime::tool_router;
use rmcp::tool;

struct Server;

#[tool_router]
impl Server {
    /// Return the time of day.
    #[tool]
    fn now(&self) -> String {
        "12:00".to_owned()
    }

    /// Return the date.
    #[tool]
    fn today(&self) -> String {
        "2026-11-30".to_owned()
    }

    fn helper(&self) {}
}

fn main() {}
