use outcome_runtime::{ToolError, tool, tool_handler, tool_router};
use rmcp::ServerHandler;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::schemars;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    text: String,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Echo {
    text: String,
}

struct Server;

#[tool_router]
impl Server {
    /// Echo the text back.
    #[tool]
    fn echo(&self, Parameters(Args { text }): Parameters<Args>) -> Result<Json<Echo>, ToolError> {
        if text.is_empty() {
            return Err(ToolError::invalid(
                "The text is empty",
                "Call echo with some text",
            ));
        }
        Ok(Json(Echo { text }))
    }

    /// Echo the text back, later.
    #[tool]
    async fn echo_later(
        &self,
        Parameters(Args { text }): Parameters<Args>,
    ) -> Result<String, ToolError> {
        let length: u8 = text.len().try_into()?;
        Ok(format!("{text} ({length})"))
    }
}

#[tool_handler]
impl ServerHandler for Server {}

pub fn main() {}
