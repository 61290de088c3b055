//! The audit against servers whose schemas and answers are hostile: it
//! never panics, aborts, overflows its stack or runs without end, and
//! what it cannot probe keeps the report from being clean.

use std::sync::Arc;
use std::time::Duration;

use outcome_runtime::testing::audit;
use outcome_runtime::{ToolError, quote, tool, tool_handler, tool_router};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, JsonObject,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::schemars;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde::Deserialize;
use serde_json::{Value, json};

/// Far more than any of these audits takes, far less than a hang.
const GENEROUS: Duration = Duration::from_secs(120);

fn schema(value: Value) -> Arc<JsonObject> {
    let Value::Object(object) = value else {
        unreachable!()
    };
    Arc::new(object)
}

/// A server that lists the tools it is given, and answers every call with
/// `answer` as an error result.
#[derive(Clone)]
struct Schemas {
    tools: Vec<Tool>,
    answer: String,
}

impl Schemas {
    fn one(input: Value) -> Schemas {
        Schemas {
            tools: vec![Tool::new("probe", "Probe.", schema(input))],
            answer: "The argument x is wrong. Call probe again.".into(),
        }
    }
}

impl ServerHandler for Schemas {
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }

    async fn call_tool(
        &self,
        _: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(CallToolResult::error(vec![ContentBlock::text(self.answer.clone())]).into())
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

/// The report of `server`'s audit, as text, failing the test if the audit
/// takes longer than [`GENEROUS`].
async fn report_of<S: ServerHandler>(server: S) -> String {
    let report = tokio::time::timeout(GENEROUS, audit(server))
        .await
        .expect("the audit ends");
    let text = report.to_string();
    assert!(!report.is_clean(), "{text}");
    text
}

#[tokio::test]
async fn a_min_length_past_any_allocation_is_not_probed() {
    for min in [u64::MAX, 1 << 40] {
        for required in [json!(["x"]), json!([])] {
            let text = report_of(Schemas::one(json!({
                "type": "object",
                "properties": {"x": {"type": "string", "minLength": min}},
                "required": required
            })))
            .await;
            assert!(text.contains("not probed: probe, argument x: "), "{text}");
            assert!(text.contains("minLength"), "{text}");
        }
    }
}

#[tokio::test]
async fn a_ref_to_itself_in_any_of_does_not_overflow_the_stack() {
    let text = report_of(Schemas::one(json!({
        "type": "object",
        "properties": {"x": {"anyOf": [{"$ref": "#/properties/x"}]}},
        "required": ["x"]
    })))
    .await;
    assert!(text.contains("not probed: probe, argument x: "), "{text}");
}

/// A tree, read as a leaf's text, a list of trees, or a named one.
///
/// (A variant that is a tree itself, `Boxed(Box<Tree>)`, makes serde
/// recurse without end on a value no variant reads: no server can take
/// one, so the audit's direct `$ref` loop is tested with a schema.)
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)] // Only reading it matters.
enum Tree {
    Leaf(String),
    Node(Vec<Tree>),
    Named { name: String, children: Vec<Tree> },
}

#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // Only reading it matters.
struct Plant {
    /// The tree to plant.
    tree: Tree,
}

#[derive(Clone)]
struct Garden;

#[tool_router]
impl Garden {
    /// Plant a tree.
    #[tool]
    fn plant(&self, Parameters(_): Parameters<Plant>) -> Result<String, ToolError> {
        Ok("planted".into())
    }
}

#[tool_handler]
impl ServerHandler for Garden {}

/// A recursive type as serde and schemars write it: `$ref`s to itself
/// inside the alternatives of an `anyOf`.
#[tokio::test]
async fn a_recursive_untagged_enum_is_audited() {
    let report = tokio::time::timeout(GENEROUS, audit(Garden))
        .await
        .expect("the audit ends");
    assert!(report.is_clean(), "{report}");
    // tree: left out, null; and the call that keeps to the schema.
    assert_eq!(report.calls, 3, "{report}");
}

/// Nested `anyOf`s of eight alternatives each, sixteen levels deep, none
/// of which the audit can build a value for: 8^16 schemas to walk.
fn fanning_out() -> Value {
    let mut defs = serde_json::Map::new();
    defs.insert("l0".into(), json!({"type": "no such type"}));
    for level in 1..=16 {
        let below = json!({"$ref": format!("#/$defs/l{}", level - 1)});
        defs.insert(format!("l{level}"), json!({"anyOf": vec![below; 8]}));
    }
    json!({
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/l16"}},
        "required": ["x"],
        "$defs": defs
    })
}

#[tokio::test]
async fn alternatives_that_fan_out_are_walked_within_a_budget() {
    let text = report_of(Schemas::one(fanning_out())).await;
    assert!(text.contains("not probed: probe: "), "{text}");
    assert!(text.contains("steps"), "{text}");
}

/// A required argument nested past the audit's depth: no call is made,
/// which must not read as clean.
#[tokio::test]
async fn a_required_argument_past_the_depth_limit_is_not_probed() {
    let mut nested = json!({"type": "string"});
    for _ in 0..40 {
        nested = json!({"type": "object", "properties": {"x": nested}, "required": ["x"]});
    }
    let text = report_of(Schemas::one(nested)).await;
    assert!(
        text.starts_with("outcome audit: NOT clean: 1 tools, 0 calls"),
        "{text}"
    );
    assert!(text.contains("not probed: probe, argument x: "), "{text}");
    assert!(text.contains("deeper than 32 levels"), "{text}");
}

/// An answer the rules checker reads in quadratic time, far longer than a
/// model should read: checked on its first 16 KiB, and said to be too
/// long.
#[tokio::test]
async fn a_huge_answer_is_checked_on_its_first_part() {
    let mut server = Schemas::one(json!({
        "type": "object",
        "properties": {"x": {"type": "string"}},
        "required": ["x"]
    }));
    server.answer = format!("{}\nCall probe again.", " 'a".repeat(1 << 20));
    let report = tokio::time::timeout(GENEROUS, audit(server))
        .await
        .expect("the audit ends");
    assert!(!report.is_clean());
    for finding in &report.findings {
        assert!(finding.text.len() <= 16 * 1024, "{}", finding.text.len());
    }
    let text = report.to_string();
    assert!(
        text.contains("] short: the text is 3145746 bytes"),
        "{text}"
    );
}

/// Answers to each `tools/list` with one more page.
#[derive(Clone)]
struct Endless;

impl ServerHandler for Endless {
    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let page: u64 = request
            .and_then(|r| r.cursor)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        Ok(ListToolsResult {
            tools: vec![Tool::new(
                format!("tool_{page}"),
                "A tool.",
                schema(json!({"type": "object"})),
            )],
            next_cursor: Some((page + 1).to_string()),
            ..Default::default()
        })
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

#[tokio::test]
async fn a_tool_list_that_never_ends_is_read_to_a_bound() {
    let text = report_of(Endless).await;
    assert!(
        text.starts_with("outcome audit: NOT clean: 100 tools, 100 calls, 101 not probed"),
        "{text}"
    );
    assert!(
        text.contains("not probed: the tool list: the tool list goes on past 100 pages"),
        "{text}"
    );
}

#[tokio::test]
async fn a_hundred_thousand_tools_are_probed_to_a_bound() {
    let tools = (0..100_000)
        .map(|n| {
            Tool::new(
                format!("tool_{n}"),
                "A tool.",
                schema(json!({"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]})),
            )
        })
        .collect();
    let server = Schemas {
        tools,
        answer: "The argument x is wrong. Call tool_0 again.".into(),
    };
    let text = report_of(server).await;
    // The calls stop at the first thousand findings, if not before.
    assert!(
        text.starts_with("outcome audit: NOT clean: 100000 tools, "),
        "{text}"
    );
    assert!(
        text.contains("not probed: the tool list: the server lists more than 1000 tools"),
        "{text}"
    );
}

/// Names of a megabyte, and names with terminal escapes, reach the report
/// bounded and escaped.
#[tokio::test]
async fn hostile_names_reach_the_report_bounded_and_escaped() {
    let long = format!("\u{1b}[2J{}", "x".repeat(1 << 20));
    let mut properties = serde_json::Map::new();
    properties.insert(long.clone(), json!({"type": "string"}));
    properties.insert("x\u{1b}]0;owned\u{7}".into(), json!({"type": "string"}));
    let server = Schemas {
        tools: vec![
            Tool::new(long.clone(), "A tool.", schema(json!({"type": "object"}))),
            Tool::new(
                "probe\u{1b}[31m",
                "A tool.",
                schema(json!({"type": "object", "properties": properties})),
            ),
        ],
        answer: "Wrong. Call probe again.".into(),
    };
    let text = report_of(server).await;
    for control in ['\u{1b}', '\u{7}'] {
        assert!(!text.contains(control), "{control:?} reached the report");
    }
    assert!(text.len() < 64 * 1024, "{} bytes", text.len());
    assert!(
        text.contains("its name is longer than 128 characters"),
        "{text}"
    );
}

/// Numbers at the edges of what JSON carries: the audit sends a number
/// that does break the bound, or says it cannot.
#[tokio::test]
async fn numbers_at_the_edges_are_broken_or_not_probed() {
    let text = report_of(Schemas::one(json!({
        "type": "object",
        "properties": {
            "x": {"type": "number", "maximum": f64::MAX, "minimum": -0.0},
            "y": {"type": "integer", "minimum": 5, "maximum": 1}
        },
        "required": ["y"]
    })))
    .await;
    assert!(text.contains("not probed: probe, argument y: "), "{text}");
    assert!(text.contains("minimum is above its maximum"), "{text}");
}

/// A server that quotes the value it was sent, so that what the audit
/// sent shows in the report.
#[derive(Clone)]
struct Quoting(Vec<Tool>);

impl ServerHandler for Quoting {
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.0.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let sent = request
            .arguments
            .and_then(|a| a.get("x").cloned())
            .unwrap_or(Value::Null);
        let text = format!(
            "The argument x was {}. Call probe again.",
            quote(&sent.to_string())
        );
        Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into())
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

/// 1e308 + 1 is 1e308: sent as "above the maximum", it would be the
/// maximum itself.
#[tokio::test]
async fn a_value_above_1e308_is_above_it() {
    let server = Quoting(vec![Tool::new(
        "probe",
        "Probe.",
        schema(
            json!({"type": "object", "properties": {"x": {"type": "number", "maximum": 1e308}}}),
        ),
    )]);
    let report = tokio::time::timeout(GENEROUS, audit(server))
        .await
        .expect("the audit ends");
    let above = report
        .findings
        .iter()
        .map(|f| f.call["arguments"]["x"].clone())
        .find(|x| x.is_f64());
    // The server's answers meet every expectation but logging; the call
    // is in the findings for that one.
    let above = above.expect("a call above the maximum");
    assert!(above.as_f64().unwrap() > 1e308, "{above}");
}
