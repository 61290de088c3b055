//! The contract holds both ways: a result whose `structuredContent` is
//! outside the tool's declared output schema is the server's fault
//! (outcome 4, ERROR, the reason in the log), never a result the model
//! reads as the contract met.

use std::sync::Arc;

use outcome_runtime::message::FAULT_MESSAGE;
use outcome_runtime::{ToolError, tool, tool_handler, tool_router};
use outcome_tests::Session;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::JsonObject;
use rmcp::{ServerHandler, schemars};
use serde_json::json;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NameArgs {
    /// The name to give the label.
    name: String,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Label {
    name: String,
}

/// A label's name is lowercase letters: what the tool promises, by hand.
fn label_schema() -> Arc<JsonObject> {
    let schema = json!({
        "type": "object",
        "properties": { "name": { "type": "string", "pattern": "^[a-z]+$" } },
        "required": ["name"]
    });
    Arc::new(schema.as_object().unwrap().clone())
}

struct Labels {
    router: ToolRouter<Labels>,
}

#[tool_router(router = tools)]
impl Labels {
    /// Make a label; its name is lowercase letters.
    #[tool(output_schema = label_schema())]
    fn make_label(
        &self,
        Parameters(NameArgs { name }): Parameters<NameArgs>,
    ) -> Result<Json<Label>, ToolError> {
        // The body forgets to lowercase what it was given.
        Ok(Json(Label { name }))
    }

    /// Name a label after its type, whose schema narrows nothing.
    #[tool]
    fn plain_label(
        &self,
        Parameters(NameArgs { name }): Parameters<NameArgs>,
    ) -> Result<Json<Label>, ToolError> {
        Ok(Json(Label { name }))
    }
}

#[tool_handler(router = self.router)]
impl ServerHandler for Labels {}

async fn session() -> Session {
    Session::connect(
        Labels {
            router: Labels::tools(),
        },
        (),
    )
    .await
}

#[tokio::test]
async fn a_result_outside_the_output_schema_is_the_servers_fault() {
    let session = session().await;
    let kept = session.call("make_label", json!({ "name": "inbox" })).await;
    assert_eq!(
        kept.ok().structured_content,
        Some(json!({ "name": "inbox" }))
    );
    assert_eq!(kept.events(), ["INFO tool_call_completed"]);

    let broken = session.call("make_label", json!({ "name": "Inbox" })).await;
    assert_eq!(broken.ok().is_error, Some(true));
    assert_eq!(broken.text(), FAULT_MESSAGE);
    assert_eq!(broken.ok().structured_content, None);
    assert_eq!(
        broken.events(),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
    let reason = broken
        .record("tool_failed")
        .field("error")
        .unwrap_or_default();
    assert!(
        reason.contains("outside the tool's output schema") && reason.contains("/name"),
        "{reason}"
    );
}

#[tokio::test]
async fn a_schema_the_type_guarantees_is_not_checked_again() {
    let session = session().await;
    let call = session
        .call("plain_label", json!({ "name": "Any Name" }))
        .await;
    assert_ne!(call.ok().is_error, Some(true));
    assert_eq!(call.events(), ["INFO tool_call_completed"]);
}
