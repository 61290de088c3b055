//! Tools written once and expanded twice by [`under_both!`](crate::under_both):
//! under rmcp's `#[tool]` and `#[tool_router]`, and under outcome_runtime's.
//! The tests of `#[tool]`'s metadata (`tool_*.rs`) compare the tools of the
//! two routers as the JSON `tools/list` sends, tool by tool, with
//! [`assert_same_tools`]. The tools are only listed, never called.
//!
//! outcome_runtime's `#[tool]` has rules rmcp's lacks: a tool needs a
//! description, the description must not list failures, and a doc comment
//! is cut at its first heading. The texts of the tests are valid under
//! both; the differences those rules make on purpose are pinned in
//! `tool_descriptions.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use rmcp::model::{Icon, JsonObject, MetaObject, Tool};
use rmcp::{Json, schemars};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

// The types and values the tools share. Only their schemas are read, so
// their fields are never used.

/// A search.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct Query {
    /// The words to look for.
    pub text: String,
    /// How many notes to return at most; all when absent.
    pub limit: Option<u32>,
}

/// A search among the notes in one state: a nested type and an enum, so
/// that the schema has definitions.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct Filter {
    pub query: Query,
    pub state: State,
}

/// Where a note is in its life.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// Not yet published.
    Draft,
    /// Published.
    Final,
}

/// What a search found.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Answer {
    /// How many notes match.
    pub count: u32,
}

/// A return type that names `Json<T>` through an alias: neither macro can
/// see the `Json` in it.
pub type JsonAnswer<E> = Result<Json<Answer>, E>;

pub const DESCRIPTION: &str = "Return the notes that match a query, newest first.";

pub fn describe() -> &'static str {
    "Return the notes that match a query, oldest first."
}

pub fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        other => panic!("not a JSON object: {other}"),
    }
}

pub fn custom_input_schema() -> Arc<JsonObject> {
    Arc::new(object(json!({
        "type": "object",
        "properties": { "path": { "type": "string" } },
        "required": ["path"],
    })))
}

pub fn custom_output_schema() -> Arc<JsonObject> {
    Arc::new(object(json!({
        "type": "object",
        "properties": { "paths": { "type": "array", "items": { "type": "string" } } },
    })))
}

pub fn icons() -> Vec<Icon> {
    vec![
        Icon::new("https://example.com/notes.svg")
            .with_mime_type("image/svg+xml")
            .with_sizes(vec!["any".to_owned()]),
        Icon::new("https://example.com/notes.png"),
    ]
}

pub fn meta() -> MetaObject {
    MetaObject(object(json!({ "com.example/area": "notes", "weight": 3 })))
}

/// Every tool body: the tools are listed, never called.
pub fn not_called<T>() -> T {
    unreachable!("the tools of this test are only listed, never called")
}

/// Expands one list of tools twice, into `with_rmcp` and `with_outcome`,
/// each a server whose `tools()` lists what its router sends. Tools that
/// return `Result` name their error type `Error`: rmcp's `ErrorData` on
/// one side, `ToolError` on the other. `rmcp { .. }` and `outcome { .. }`
/// hold items for one side only. Both sides start with `use super::super::*`:
/// the tools name what the file that invokes the macro imports.
#[macro_export]
macro_rules! under_both {
    (
        $(#[$attr:meta])*
        mod $group:ident {
            rmcp { $($rmcp_item:item)* }
            outcome { $($outcome_item:item)* }
            tools { $($tools:tt)* }
        }
    ) => {
        $(#[$attr])*
        mod $group {
            /// The tools under rmcp's macros.
            #[allow(unused_variables)]
            pub(super) mod with_rmcp {
                use super::super::*;
                use rmcp::{tool, tool_router};

                /// The error type of the tools that return `Result`.
                #[allow(dead_code)]
                type Error = rmcp::ErrorData;

                $($rmcp_item)*

                pub(crate) struct Server;

                #[tool_router]
                impl Server {
                    $($tools)*
                }

                /// The tools, as `tools/list` sends them.
                pub(crate) fn tools() -> Vec<::rmcp::model::Tool> {
                    Server::tool_router().list_all()
                }
            }

            /// The same tools under outcome_runtime's macros.
            #[allow(unused_variables)]
            pub(super) mod with_outcome {
                use super::super::*;
                use outcome_runtime::{tool, tool_router};

                /// The error type of the tools that return `Result`.
                #[allow(dead_code)]
                type Error = outcome_runtime::ToolError;

                $($outcome_item)*

                pub(crate) struct Server;

                #[tool_router]
                impl Server {
                    $($tools)*
                }

                /// The tools, as `tools/list` sends them.
                pub(crate) fn tools() -> Vec<::rmcp::model::Tool> {
                    Server::tool_router().list_all()
                }
            }
        }
    };
}

/// The tools of a router, by name, as `tools/list` sends them.
pub fn by_name(tools: Vec<Tool>) -> BTreeMap<String, Value> {
    tools
        .into_iter()
        .map(|tool| {
            let json = serde_json::to_value(&tool).expect("a tool serializes");
            (tool.name.into_owned(), json)
        })
        .collect()
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).expect("JSON prints")
}

/// Asserts that both routers list exactly the tools `names`, and that each
/// tool is the same under both, as JSON; on failure, every tool that
/// differs, with the fields that differ and both whole tools.
#[track_caller]
pub fn assert_same_tools(rmcp: Vec<Tool>, outcome: Vec<Tool>, names: &[&str]) {
    let rmcp = by_name(rmcp);
    let outcome = by_name(outcome);
    let expected: BTreeSet<&str> = names.iter().copied().collect();
    fn listed(tools: &BTreeMap<String, Value>) -> BTreeSet<&str> {
        tools.keys().map(String::as_str).collect()
    }
    assert_eq!(listed(&rmcp), expected, "the tools rmcp's router lists");
    assert_eq!(
        listed(&outcome),
        expected,
        "the tools outcome_runtime's router lists"
    );
    let differences: Vec<String> = rmcp
        .iter()
        .filter(|(name, theirs)| outcome[*name] != **theirs)
        .map(|(name, theirs)| {
            let ours = &outcome[name];
            let fields: BTreeSet<&str> = [theirs, ours]
                .into_iter()
                .filter_map(Value::as_object)
                .flat_map(|tool| tool.keys().map(String::as_str))
                .filter(|field| theirs.get(field) != ours.get(field))
                .collect();
            format!(
                "tool `{name}`: {fields:?} differ\n\
                 under rmcp's #[tool]:\n{}\n\
                 under outcome_runtime's #[tool]:\n{}",
                pretty(theirs),
                pretty(ours),
            )
        })
        .collect();
    assert!(
        differences.is_empty(),
        "{} of {} tools differ between rmcp's #[tool] and outcome_runtime's:\n\n{}",
        differences.len(),
        names.len(),
        differences.join("\n\n"),
    );
}

/// A tool without its description.
pub fn without_description(tool: &Value) -> Value {
    let mut tool = tool.clone();
    tool.as_object_mut()
        .expect("a tool is a JSON object")
        .remove("description");
    tool
}
