//! `testing::audit` calls every tool the way a model gets it wrong, and
//! reports each answer that does not tell the model what to change: the
//! notes server passes it, and a server written without the runtime breaks
//! every expectation it checks.

use std::sync::Arc;

use outcome_runtime::testing::{Audit, AuditReport, ValidCalls, audit};
use outcome_runtime::{ToolError, message::FAULT_MESSAGE, tool, tool_handler, tool_router};
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
    // number, empty, nine characters; an unknown key; and one call that
    // keeps to the schema.
    assert_eq!(report.calls, 16, "{report}");
    assert_eq!(report.judged, 16, "{report}");
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

    // The report: a header with the counts, a summary by rule and by
    // tool, then one block per defect: the findings of one template are
    // one defect, however many calls show it.
    let defects = report.defects();
    let text = report.to_string();
    assert!(
        text.starts_with(&format!(
            "outcome audit: NOT clean: 5 tools, {} calls, {} defects ({} findings in {} calls)",
            report.calls,
            defects.len(),
            report.findings.len(),
            report.calls_with_findings()
        )),
        "{text}"
    );
    assert!(text.contains("\nby rule, defects (findings): "), "{text}");
    assert!(text.contains("\nby tool, findings: lookup "), "{text}");
    // lookup answers every call with one text: each rule it breaks is one
    // defect of all its calls.
    let names_tool = defects
        .iter()
        .find(|d| d.broken.name() == "names-tool" && d.tools == ["lookup"])
        .expect("lookup's step");
    assert_eq!(names_tool.findings.len(), 4, "{text}");
    assert!(
        text.contains(
            "  in:     4 calls of lookup\n  e.g.:   lookup: a call that keeps to the input schema, its strings naming nothing\n  sent:   {\"arguments\":{\"path\":\"no-such-audit-value\"},\"name\":\"lookup\"}\n  read:   Invalid input. See the description for valid paths.\n"
        ),
        "{text}"
    );
    assert_eq!(
        text.matches("\n  sent:   ").count(),
        defects.len(),
        "{text}"
    );
    assert_eq!(
        defects.iter().map(|d| d.findings.len()).sum::<usize>(),
        report.findings.len()
    );
    assert!(defects.len() < report.findings.len(), "{text}");
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
    let per_defect = text.len() / report.defects().len();
    assert!(per_defect < 16 * 1024, "{per_defect} bytes per defect");
}

/// A server whose answers the audit must not blame on the mistake it
/// made: a city the server does not know (the audit's baseline, refused
/// whatever else is wrong), a tool that must run as a task, a tool that
/// needs sampling; and one whose fault for a value it cannot parse is
/// the author's own.
struct Picky;

impl ServerHandler for Picky {
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![
            Tool::new(
                "forecast",
                "The weather in a city, for up to 7 days.",
                schema(json!({
                    "type": "object",
                    "properties": {
                        "city": { "type": "string" },
                        "days": { "type": "integer", "minimum": 1, "maximum": 7 }
                    },
                    "required": ["city", "days"]
                })),
            ),
            Tool::new("long_job", "Runs for hours, as a task.", path_schema()),
            Tool::new("research", "Research a question, as a task.", path_schema()),
            Tool::new("summarize", "Summarize a note.", path_schema()),
            Tool::new(
                "pay",
                "Pay an amount.",
                schema(json!({
                    "type": "object",
                    "properties": { "amount": { "type": "string" } },
                    "required": ["amount"]
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
        let arguments = request.arguments.unwrap_or_default();
        match &*request.name {
            "forecast" => match arguments.get("city") {
                None => error("The argument city is required. Call forecast with a city."),
                Some(_) => error("No city named 'a'. Call list_cities for the cities."),
            },
            "long_job" => Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                "This tool must be called as a task",
                None,
            )),
            // As the TypeScript SDK answers it: a result.
            "research" => error(
                "MCP error -32601: Tool research requires task augmentation (taskSupport: 'required')",
            ),
            "summarize" => Err(ErrorData::new(
                rmcp::model::ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
                "Missing required client capability",
                None,
            )),
            _ => match arguments.get("amount").and_then(Value::as_str) {
                Some(amount) if amount.parse::<f64>().is_err() => error(FAULT_MESSAGE),
                _ => error("The argument amount is required. Call pay with an amount."),
            },
        }
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

#[tokio::test]
async fn the_audit_judges_the_mistake_it_made_and_nothing_else() {
    let report = audit(Picky).await;
    let text = report.to_string();
    // days out of range, of the wrong type, left out: each answer is
    // about the city the audit sent, so none is judged.
    let about_city: Vec<&str> = report
        .not_judged
        .iter()
        .filter(|n| n.tool == "forecast")
        .map(|n| n.mistake.as_str())
        .collect();
    assert!(
        about_city.contains(&"days below its minimum")
            && about_city.contains(&"the required argument days left out"),
        "{text}"
    );
    assert!(
        report.not_judged[0]
            .why
            .starts_with("the answer is about city,"),
        "{text}"
    );
    assert!(
        !report
            .findings
            .iter()
            .any(|f| f.tool == "forecast" && f.mistake.contains("days")),
        "{text}"
    );
    // A tool that must run as a task is not probed, with why, after its
    // first call; a tool that needs sampling is not judged.
    let task = report
        .not_probed
        .iter()
        .find(|n| n.tool.as_deref() == Some("long_job"))
        .expect("long_job not probed");
    assert!(task.why.contains("must run as a task"), "{text}");
    for tool in ["long_job", "research"] {
        assert!(
            report
                .not_probed
                .iter()
                .any(|n| n.tool.as_deref() == Some(tool)),
            "{text}"
        );
        assert!(!report.findings.iter().any(|f| f.tool == tool), "{text}");
    }
    assert!(
        report
            .not_judged
            .iter()
            .any(|n| n.tool == "summarize" && n.why.contains("-32021")),
        "{text}"
    );
    assert!(
        !report.findings.iter().any(|f| f.tool == "summarize"),
        "{text}"
    );
    // A schema-valid amount the tool cannot parse: a fault where the
    // model's value is wrong.
    assert!(
        report.findings.iter().any(|f| f.tool == "pay"
            && f.broken.name() == "not-fault"
            && f.call["arguments"]["amount"] == "no-such-audit-value"),
        "{text}"
    );
    assert!(!report.is_clean());
    assert!(
        text.contains("\nnot judged: forecast: days below its minimum: the answer is about city,"),
        "{text}"
    );
}

/// A server whose one tool takes no arguments and is not annotated
/// read-only: a live audit makes no call, and says so.
struct Quiet;

impl ServerHandler for Quiet {
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![Tool::new(
            "restart",
            "Restart the service.",
            schema(json!({ "type": "object" })),
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

#[tokio::test]
async fn a_report_with_no_answer_judged_is_never_clean() {
    let client = outcome_runtime::testing::connect(Quiet, ())
        .await
        .expect("connects");
    let report = Audit::new()
        .valid_calls(ValidCalls::ReadOnly)
        .run(client.peer())
        .await
        .expect("audited");
    let text = report.to_string();
    assert_eq!(report.calls, 0, "{text}");
    assert_eq!(report.not_run, ["restart"], "{text}");
    assert!(!report.is_clean(), "{text}");
    assert!(
        text.starts_with(
            "outcome audit: NOT clean: 1 tools, 0 calls, 1 not run (no answer judged)"
        ),
        "{text}"
    );
    assert!(
        text.contains("\nnot run (not annotated read-only"),
        "{text}"
    );
    // In a test, every tool runs: the call that keeps to the schema is
    // judged, and a result is a fine answer.
    let report = audit(Quiet).await;
    assert_eq!((report.calls, report.judged), (1, 1), "{report}");
    assert!(report.is_clean(), "{report}");
}

/// A server whose descriptions break each rule for descriptions.
struct Undescribed;

impl ServerHandler for Undescribed {
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut bare = Tool::new("bare", "", path_schema());
        bare.description = None;
        Ok(ListToolsResult::with_all_items(vec![
            bare,
            Tool::new("long", "Read a note. ".repeat(200), path_schema()),
            Tool::new(
                "move_note",
                "Move a note. Fails if the target exists.",
                path_schema(),
            ),
            Tool::new("read_note", "Return a note's text.", path_schema()),
        ]))
    }

    async fn call_tool(
        &self,
        _: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(CallToolResult::success(vec![ContentBlock::text("done")]).into())
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

#[tokio::test]
async fn descriptions_are_checked_as_their_own_defects() {
    let report = audit(Undescribed).await;
    let description = |tool: &str| -> Vec<&'static str> {
        broken(&report, tool)
            .into_iter()
            .filter(|name| name.starts_with("description-"))
            .collect()
    };
    assert_eq!(description("bare"), ["description-missing"], "{report}");
    assert_eq!(description("long"), ["description-too-long"], "{report}");
    assert_eq!(
        description("move_note"),
        ["description-lists-failures"],
        "{report}"
    );
    assert!(description("read_note").is_empty(), "{report}");
    let text = report.to_string();
    assert!(
        text.contains(
            "] description-lists-failures: the description lists a failure (\"fails if\")"
        ),
        "{text}"
    );
}

/// A server that refuses the call that keeps to the schema: `vague` with a
/// text that names none of its arguments and quotes none of its values,
/// `precise` with one that quotes the value; every other call both answer
/// well.
struct Refusing;

impl ServerHandler for Refusing {
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![
            Tool::new("vague", "Open a note.", path_schema()),
            Tool::new("precise", "Open a note.", path_schema()),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let path = request
            .arguments
            .as_ref()
            .and_then(|arguments| arguments.get("path"))
            .and_then(Value::as_str);
        let text = match (path, &*request.name) {
            (Some(path), "precise") => format!(
                "No note at {}. Call precise again with another path.",
                outcome_runtime::quote(path)
            ),
            (Some(_), _) => format!(
                "The request cannot be carried out as sent. Correct the request, then call {} \
                 again.",
                request.name
            ),
            (None, _) => format!(
                "The argument path is missing. Call {} again with path set.",
                request.name
            ),
        };
        Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into())
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

#[tokio::test]
async fn a_refusal_that_says_nothing_of_the_call_is_a_finding() {
    let report = audit(Refusing).await;
    let valid_call = |tool: &str| {
        report
            .findings
            .iter()
            .filter(|finding| {
                finding.tool == tool
                    && finding.mistake
                        == "a call that keeps to the input schema, its strings naming nothing"
            })
            .map(|finding| finding.broken.name())
            .collect::<Vec<_>>()
    };
    assert!(valid_call("vague").contains(&"names-argument"), "{report}");
    assert!(
        !valid_call("precise").contains(&"names-argument"),
        "{report}"
    );
    assert!(
        report.to_string().contains(
            "the refusal names none of the call's arguments (path) and quotes none of its \
             values"
        ),
        "{report}"
    );
}
