use outcome_runtime::{ToolError, tool, tool_router};
use rmcp::handler::server::common::schema_for_empty_input;
use rmcp::handler::server::tool::schema_for_output;
use rmcp::model::{Icon, MetaObject};
use rmcp::schemars;

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Time {
    hour: u8,
}

struct Server;

#[tool_router]
impl Server {
    /// Ignored: `description` below wins.
    #[tool(
        name = "time_of_day",
        title = "Time of day",
        description = "Return the hour of the day.",
        input_schema = schema_for_empty_input(),
        output_schema = schema_for_output::<Time>(),
        annotations(title = "Clock", read_only_hint = true, destructive_hint = false,
                    idempotent_hint = true, open_world_hint = false),
        icons = vec![Icon::new("https://example.org/clock.png")],
        meta = MetaObject::new(),
    )]
    fn now(&self) -> Result<String, ToolError> {
        Ok("12".to_owned())
    }
}

// `local` leaves `Send` off the boxed future; rmcp's router takes such tools
// only with its `local` feature, so this one is not registered.
struct Local;

impl Local {
    /// Return the hour, from state that is not `Send`.
    #[tool(local)]
    async fn now(&self) -> Result<String, ToolError> {
        let not_send = std::rc::Rc::new(12);
        std::future::ready(()).await;
        Ok(not_send.to_string())
    }
}

pub fn main() {
    let tool = Server::now_tool_attr();
    assert_eq!(tool.name, "time_of_day");
    assert_eq!(tool.title.as_deref(), Some("Time of day"));
    assert_eq!(
        tool.description.as_deref(),
        Some("Return the hour of the day.")
    );
    assert!(tool.output_schema.is_some());
    assert_eq!(tool.annotations.unwrap().read_only_hint, Some(true));
    assert_eq!(tool.icons.unwrap().len(), 1);
    assert!(tool.meta.is_some());
    let _ = Local::now_tool_attr();
}
