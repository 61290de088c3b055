//! `testing::audit` calls every tool the way a model gets it wrong, and
//! reports each answer that does not tell the model what to change: the
//! notes server passes it, and a server written without the runtime breaks
//! every expectation it checks.

use std::sync::Arc;

use outcome_runtime::testing::{AuditReport, audit};
use outcome_runtime::{FAULT_MESSAGE, ToolError, tool, tool_handler, tool_router};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::schemars;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde::Deserialize;
use serde_json::{Value, json};

#[tokio::test]
async fn the_notes_server_passes_the_audit() {
    let report = audit(notes::Notes::new(true)).await;
    assert!(report.is_clean(), "{report}");
    assert!(report.logs_checked);
    assert!(report.tools >= 8, "{report}");
    // read_note's path: missing, null, of the wrong type; and so on.
    assert!(report.calls >= 15, "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_audit_runs_on_any_runtime() {
    let report = audit(notes::Notes::new(false)).await;
    assert!(report.is_clean(), "{report}");
}

/// Arguments whose schema says more than "a string": a range, an enum,
/// lengths, and no unknown keys. serde refuses what breaks them (through
/// the types and `try_from`), so the runtime words every refusal.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // Only refusing them matters.
struct ListArgs {
    /// How many notes, at most.
    limit: u8,
    /// Which notes come first.
    order: Order,
    /// Only the notes with this tag.
    #[schemars(with = "String", length(min = 1, max = 8))]
    tag: Tag,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Order {
    Newest,
    Oldest,
}

/// A tag: one to eight characters.
#[derive(Deserialize)]
#[serde(try_from = "String")]
struct Tag(#[allow(dead_code)] String);

impl TryFrom<String> for Tag {
    type Error = &'static str;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        match text.chars().count() {
            1..=8 => Ok(Tag(text)),
            _ => Err("a tag has one to eight characters"),
        }
    }
}

#[derive(Clone)]
struct Strict;

#[tool_router]
impl Strict {
    /// List the paths of the notes with a tag.
    #[tool]
    fn list_notes(&self, Parameters(_): Parameters<ListArgs>) -> Result<String, ToolError> {
        Ok("plan.md".into())
    }
}

#[tool_handler]
impl ServerHandler for Strict {}

/// Every kind of mistake the audit makes is worded by the runtime as the
/// audit expects.
#[tokio::test]
async fn the_runtime_words_every_kind_of_mistake() {
    let report = audit(Strict).await;
    assert!(report.is_clean(), "{report}");
    // limit: left out, null, a string, below 0, above 255; order: left
    // out, null, a number, outside its enum; tag: left out, null, a
    // number, empty, nine characters; an unknown key.
    assert_eq!(report.calls, 15, "{report}");
}

/// A server written against rmcp alone, each of whose tools answers a bad
/// call in one wrong way.
struct Careless;

fn schema(value: Value) -> Arc<rmcp::model::JsonObject> {
    let Value::Object(object) = value else {
        unreachable!()
    };
    Arc::new(object)
}

fn path_schema() -> Arc<rmcp::model::JsonObject> {
    schema(json!({
        "type": "object",
        "properties": { "path": { "type": "string" } },
        "required": ["path"]
    }))
}

impl ServerHandler for Careless {
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![
            Tool::new("lookup", "Find a note's path.", path_schema()),
            Tool::new("open_note", "Open a note.", path_schema()),
            Tool::new("explode", "Open a note.", path_schema()),
            Tool::new("strict", "Open a note.", path_schema()),
            Tool::new(
                "count",
                "Count notes.",
                schema(json!({
                    "type": "object",
                    "properties": {
                        "limit": { "type": "integer", "minimum": 1, "maximum": 50 },
                        "sort": { "type": "string", "enum": ["new", "old"] }
                    },
                    "required": ["limit"],
                    "additionalProperties": false
                })),
            ),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let error = |text: &str| Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into());
        match &*request.name {
            "lookup" => error("Invalid input. See the description for valid paths."),
            "open_note" => error(
                "No note at path /srv/notes/inbox.md, FileNotFoundError. Call lookup to find it.",
            ),
            "explode" => error(FAULT_MESSAGE),
            "strict" => Err(ErrorData::invalid_params("path is wrong", None)),
            _ => Ok(CallToolResult::success(vec![ContentBlock::text("3")]).into()),
        }
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

fn broken(report: &AuditReport, tool: &str) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = report
        .findings
        .iter()
        .filter(|finding| finding.tool == tool)
        .map(|finding| finding.broken.name())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

#[tokio::test]
async fn the_audit_finds_each_kind_of_problem() {
    let report = audit(Careless).await;
    println!("{report}");
    assert!(!report.is_clean());
    assert_eq!(report.tools, 5);

    // "See the description", and neither the argument nor the value.
    let lookup = broken(&report, "lookup");
    for expected in [
        "logged-invalid",
        "names-argument",
        "names-tool",
        "no-lookup",
        "quotes-value",
    ] {
        assert!(lookup.contains(&expected), "{expected}: {lookup:?}");
    }
    // A path of the server and an exception type.
    let open = broken(&report, "open_note");
    for expected in ["no-path", "no-type-name", "quotes-value"] {
        assert!(open.contains(&expected), "{expected}: {open:?}");
    }
    assert!(!open.contains(&"names-argument"), "{open:?}");
    assert!(!open.contains(&"names-tool"), "{open:?}");
    // A fault for a wrong argument, and a JSON-RPC error.
    assert_eq!(broken(&report, "explode"), ["not-fault"]);
    assert_eq!(broken(&report, "strict"), ["is-error"]);
    // Success for every wrong call: out of range, outside the enum, an
    // unknown key, the wrong type.
    assert_eq!(broken(&report, "count"), ["is-error"]);
    let count: Vec<&str> = report
        .findings
        .iter()
        .filter(|finding| finding.tool == "count")
        .map(|finding| finding.mistake.as_str())
        .collect();
    for expected in [
        "the required argument limit left out",
        "the required argument limit sent as null",
        "limit of the wrong type",
        "limit below its minimum",
        "limit above its maximum",
        "sort outside its enum",
        "the unknown key audit_unknown_key",
    ] {
        assert!(count.contains(&expected), "{expected}: {count:?}");
    }

    // The report: a header with the counts, then one block per call with
    // findings, each broken expectation a line of its block.
    let text = report.to_string();
    assert!(
        text.starts_with(&format!(
            "outcome audit: NOT clean: 5 tools, {} calls, {} findings",
            report.calls,
            report.findings.len()
        )),
        "{text}"
    );
    assert!(
        text.contains(
            "lookup: the required argument path left out\n  sent:   {\"arguments\":{},\"name\":\"lookup\"}\n  read:   Invalid input. See the description for valid paths.\n"
        ),
        "{text}"
    );
    assert_eq!(
        text.matches("\n  sent:   ").count(),
        report.calls_with_findings(),
        "{text}"
    );
    assert_eq!(
        text.matches("\n  broken: ").count(),
        report.findings.len(),
        "{text}"
    );
    assert!(
        report.findings.len() > report.calls_with_findings(),
        "{text}"
    );
}

/// A server that answers every call with terminal escapes and ten
/// megabytes of text, under a tool name with escapes of its own.
struct Noisy;

impl ServerHandler for Noisy {
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![Tool::new(
            "look\u{1b}[2Jup",
            "Find a note's path.",
            path_schema(),
        )]))
    }

    async fn call_tool(
        &self,
        _: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let text = format!(
            "\u{1b}]0;owned\u{7}\u{1b}[2J{}\n\u{202e}reversed\n{}",
            "x".repeat(10 << 20),
            "line\n".repeat(10_000)
        );
        Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into())
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

/// The report is read in a terminal, about a server that may be anyone's:
/// what the server wrote reaches it escaped and bounded.
#[tokio::test]
async fn a_hostile_servers_text_reaches_the_report_escaped_and_bounded() {
    let report = audit(Noisy).await;
    assert!(!report.is_clean());
    let text = report.to_string();
    for control in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(!text.contains(control), "{control:?} reached the report");
    }
    let per_call = text.len() / report.calls_with_findings();
    assert!(per_call < 16 * 1024, "{per_call} bytes per call");
}
