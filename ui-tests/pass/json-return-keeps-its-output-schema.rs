use outcome_runtime::{ToolError, tool, tool_router};
use rmcp::handler::server::wrapper::Json;
use rmcp::schemars;

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Time {
    hour: u8,
}

struct Server;

#[tool_router]
impl Server {
    /// Return the hour of the day.
    #[tool]
    fn now(&self) -> Result<Json<Time>, ToolError> {
        Ok(Json(Time { hour: 12 }))
    }

    /// Return the hour of the day, later.
    #[tool]
    async fn later(&self) -> Result<Json<Time>, ToolError> {
        Ok(Json(Time { hour: 13 }))
    }
}

pub fn main() {
    for tool in [Server::now_tool_attr(), Server::later_tool_attr()] {
        let schema = tool.output_schema.expect("rmcp derives the output schema");
        assert!(schema["properties"]["hour"].is_object(), "{schema:?}");
    }
}
