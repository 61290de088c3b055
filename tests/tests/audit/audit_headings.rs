//! Every tool the server lists is in the report under exactly one
//! heading, with why for all but the tools run: a tool without arguments
//! that answered a result is named as run, not left out.

use std::sync::Arc;

use outcome_runtime::testing::{Audit, Heading, ValidCalls, connect};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode, JsonObject,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};

fn schema(value: Value) -> Arc<JsonObject> {
    let Value::Object(object) = value else {
        unreachable!()
    };
    Arc::new(object)
}

fn read_only(tool: Tool) -> Tool {
    tool.with_annotations(ToolAnnotations::new().read_only(true))
}

/// A tool for each heading, answering as its name says.
struct Mixed;

impl Mixed {
    fn tools() -> Vec<Tool> {
        let path = || {
            schema(json!({
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"]
            }))
        };
        vec![
            // Run: no arguments, read-only, a result.
            read_only(Tool::new(
                "list_allowed_directories",
                "List the directories this server may read.",
                schema(json!({"type": "object", "properties": {}})),
            )),
            // Run: arguments, read-only.
            read_only(Tool::new("read_file", "Return a file's text.", path())),
            // Not run: not annotated read-only.
            Tool::new("write_file", "Write a file.", path()),
            // Not probed: it must run as a task.
            read_only(Tool::new("index", "Index the files, as a task.", path())),
            // Not probed: a required argument no value meets.
            read_only(Tool::new(
                "pick",
                "Pick a number.",
                schema(json!({
                    "type": "object",
                    "properties": {"n": {"type": "integer", "minimum": 5, "maximum": 1}},
                    "required": ["n"]
                })),
            )),
            // Not judged: it needs a capability of the client.
            read_only(Tool::new("summarize", "Summarize a file.", path())),
        ]
    }
}

impl ServerHandler for Mixed {
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(Mixed::tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match &*request.name {
            "list_allowed_directories" => {
                Ok(CallToolResult::success(vec![ContentBlock::text("/srv/files")]).into())
            }
            "index" => Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "This tool must be called as a task",
                None,
            )),
            "summarize" => Err(ErrorData::new(
                ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
                "Missing required client capability",
                None,
            )),
            name => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "The argument path is wrong. Call {name} again with a path."
            ))])
            .into()),
        }
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

#[tokio::test]
async fn every_tool_is_under_exactly_one_heading() {
    let client = connect(Mixed, ()).await.expect("connects");
    let report = Audit::new()
        .valid_calls(ValidCalls::ReadOnly)
        .run(client.peer())
        .await
        .expect("audited");
    let listed: Vec<String> = Mixed::tools()
        .into_iter()
        .map(|tool| tool.name.to_string())
        .collect();
    let named: Vec<&str> = report.by_tool.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(named, listed, "{report}");
    let heading = |name: &str| {
        report
            .by_tool
            .iter()
            .find(|tool| tool.name == name)
            .map(|tool| tool.heading)
    };
    for (name, expected) in [
        ("list_allowed_directories", Heading::Run),
        ("read_file", Heading::Run),
        ("write_file", Heading::NotRun),
        ("index", Heading::NotProbed),
        ("pick", Heading::NotProbed),
        ("summarize", Heading::NotJudged),
    ] {
        assert_eq!(heading(name), Some(expected), "{name}: {report}");
    }
    for tool in &report.by_tool {
        assert_eq!(tool.why.is_some(), tool.heading != Heading::Run, "{tool:?}");
    }
    let none = &report.by_tool[0];
    assert_eq!(
        (none.arguments, none.calls, none.judged, none.findings),
        (0, 1, 1, 0)
    );
    // The text names each tool once, under its heading.
    let text = report.to_string();
    assert!(
        text.contains(
            "\nby heading, tools: run (2): list_allowed_directories, read_file; not run (1): \
             write_file; not probed (2): index, pick; not judged (1): summarize\n"
        ),
        "{text}"
    );
    // And why it is not clean.
    let why = report.why_not_clean();
    assert!(
        why.iter().any(|why| why.starts_with("2 not probed: ")),
        "{why:?}"
    );
    for why in &why {
        assert!(text.contains(&format!("\nnot clean: {why}\n")), "{text}");
    }
}
