//! What makes a report clean, and what does not: a tool that takes no
//! arguments has nothing to get wrong; a server whose every tool narrows
//! its inputs, and answers every mistake well, is clean; and a report
//! that is not clean says why, in its text.

use outcome_runtime::testing::{Audit, ValidCalls, audit};
use outcome_runtime::{ToolError, quote, tool, tool_handler, tool_router};
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, schemars};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, schemars::JsonSchema)]
struct ReadNote {
    /// The note's path, as search_notes lists it.
    path: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct SearchNotes {
    /// Words the notes contain.
    query: String,
}

/// No arguments, and a schema that says so: no key may be sent. The tool
/// ignores any it gets, as many servers do.
#[derive(Deserialize, schemars::JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
struct NoArguments {}

#[derive(Serialize, schemars::JsonSchema)]
struct Count {
    notes: u32,
}

/// Three tools, one of which takes no arguments and answers a result.
#[derive(Clone)]
struct Notes;

#[tool_router]
impl Notes {
    /// Return a note's text; look paths up with search_notes first.
    #[tool(annotations(read_only_hint = true))]
    fn read_note(
        &self,
        Parameters(ReadNote { path }): Parameters<ReadNote>,
    ) -> Result<String, ToolError> {
        Err(ToolError::invalid(
            format_args!("No note at {}", quote(&path)),
            "Find the path with search_notes",
        ))
    }

    /// List the paths of the notes whose text contains the query.
    #[tool(annotations(read_only_hint = true))]
    fn search_notes(
        &self,
        Parameters(SearchNotes { query }): Parameters<SearchNotes>,
    ) -> Result<Json<Vec<String>>, ToolError> {
        Ok(Json(vec![format!("{query}.md")]))
    }

    /// Count the notes.
    #[tool(
        annotations(read_only_hint = true),
        unchecked_input = "it takes no arguments, and whatever it is sent it counts the notes"
    )]
    fn count_notes(
        &self,
        Parameters(_): Parameters<NoArguments>,
    ) -> Result<Json<Count>, ToolError> {
        Ok(Json(Count { notes: 3 }))
    }
}

#[tool_handler]
impl ServerHandler for Notes {}

/// A tool that cannot be called wrong has nothing for the model to
/// misread: a key it does not declare changes nothing it does, so it is
/// not sent one, and its result is a fine answer.
#[tokio::test]
async fn a_tool_without_arguments_that_answers_a_result_is_not_flagged() {
    let report = audit(Notes).await;
    assert!(
        !report.findings.iter().any(|f| f.tool == "count_notes"),
        "{report}"
    );
    assert!(report.is_clean(), "{report}");
    // read_note: path left out, null, a number, and the call that keeps
    // to the schema; search_notes the same; count_notes the call alone.
    assert_eq!(report.calls, 9, "{report}");
}

/// Arguments that narrow what they take, each in another way, nested
/// ones included.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // Only reading them matters.
struct Trip {
    /// How many days.
    #[schemars(range(min = 1, max = 14))]
    days: u8,
    /// The traveller's name.
    #[schemars(length(min = 1, max = 40))]
    name: String,
    /// The trip's slug: small letters, digits and dashes.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"))]
    slug: String,
    /// Where the trip starts.
    start: Place,
    /// How to travel.
    mode: Mode,
    /// The fare, in euros above zero.
    #[schemars(extend("exclusiveMinimum" = 0))]
    fare: f64,
}

/// A place, nested.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // Only reading it matters.
struct Place {
    /// The airport's code: three capitals.
    #[schemars(regex(pattern = r"^[A-Z]{3}$"))]
    code: String,
    /// The terminal.
    #[schemars(range(min = 1, max = 9))]
    terminal: u8,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Mode {
    Train,
    Plane,
}

/// Arguments with formats.
#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // Only reading them matters.
struct Contact {
    /// Where to write.
    #[schemars(email)]
    email: String,
    /// The traveller's page.
    #[schemars(url)]
    page: String,
    /// The day to call.
    #[schemars(extend("format" = "date"))]
    day: String,
    /// The booking's id.
    #[schemars(extend("format" = "uuid"))]
    booking: String,
    /// The address to call from.
    #[schemars(extend("format" = "ipv4"))]
    address: String,
    /// The stops, one to five, each a slug.
    #[schemars(length(min = 1, max = 5), inner(regex(pattern = r"^[a-z]+$")))]
    stops: Vec<String>,
}

#[derive(Clone)]
struct Travel;

#[tool_router]
impl Travel {
    /// Plan a trip.
    #[tool]
    fn plan_trip(&self, Parameters(_): Parameters<Trip>) -> Result<String, ToolError> {
        Ok("planned".into())
    }

    /// Save how to reach the traveller.
    #[tool]
    fn save_contact(&self, Parameters(_): Parameters<Contact>) -> Result<String, ToolError> {
        Ok("saved".into())
    }
}

#[tool_handler]
impl ServerHandler for Travel {}

/// Every tool narrows its inputs, and the runtime answers every mistake in
/// the schema's words: the audit builds a call each schema accepts
/// (a pattern with no example, formats, an exclusive bound, a nested
/// object), and the report is clean.
#[tokio::test]
async fn a_server_that_answers_every_mistake_well_is_clean() {
    let report = audit(Travel).await;
    assert!(report.is_clean(), "{report}");
    // Each argument left out, null, of the wrong type; each bound, length,
    // pattern, format and enum broken; an unknown key; and the call that
    // keeps to each schema: every answer judged.
    assert!(report.calls >= 40, "{report}");
    assert_eq!(report.judged, report.calls, "{report}");
}

/// A server whose one tool takes no arguments and is not annotated
/// read-only.
struct Quiet;

impl ServerHandler for Quiet {
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let Ok(serde_json::Value::Object(schema)) =
            serde_json::from_str(r#"{"type": "object", "properties": {}}"#)
        else {
            unreachable!()
        };
        Ok(ListToolsResult::with_all_items(vec![Tool::new(
            "restart",
            "Restart the service.",
            std::sync::Arc::new(schema),
        )]))
    }

    async fn call_tool(
        &self,
        _: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(CallToolResult::success(vec![ContentBlock::text("restarted")]).into())
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

/// A report with no finding and nothing not probed, not clean since no
/// answer was judged, says so, and why, in a line an author can act on.
#[tokio::test]
async fn a_report_that_is_not_clean_says_why() {
    let client = outcome_runtime::testing::connect(Quiet, ())
        .await
        .expect("connects");
    let report = Audit::new()
        .valid_calls(ValidCalls::ReadOnly)
        .run(client.peer())
        .await
        .expect("audited");
    let text = report.to_string();
    assert!(!report.is_clean(), "{text}");
    assert!(
        report.findings.is_empty() && report.not_probed.is_empty(),
        "{text}"
    );
    assert!(
        text.contains(
            "\nnot clean: no answer judged: of the 1 tools, none got a call whose answer the \
             audit could judge: 1 not run, which take no argument the audit can get wrong and \
             are not annotated read-only (--run-every-tool runs them)\n"
        ),
        "{text}"
    );
}
