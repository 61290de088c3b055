use std::rc::Rc;

use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router]
impl Server {
    /// Return the time of day.
    #[tool]
    async fn now(&self) -> Result<String, ToolError> {
        let shared = Rc::new("12:00".to_owned());
        tokio::task::yield_now().await;
        Ok(shared.to_string())
    }
}

fn main() {}
