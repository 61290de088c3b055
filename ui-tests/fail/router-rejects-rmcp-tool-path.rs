use outcome_runtime::tool_router;

struct Server;

#[tool_router]
impl Server {
    /// Return the time of day.
    #[rmcp::tool]
    fn now(&self) -> String {
        "12:00".to_owned()
    }
}

fn main() {}
