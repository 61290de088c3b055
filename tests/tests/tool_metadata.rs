//! `outcome_runtime::tool` builds the `Tool` that rmcp's `#[tool]` builds:
//! the same name, title, description, input and output schema,
//! annotations, icons and `_meta`, for every argument rmcp's `#[tool]`
//! takes and every signature it reads.
//!
//! Each group of tools below is written once and expanded twice by
//! `under_both!`: under rmcp's `#[tool]` and `#[tool_router]`, and under
//! outcome_runtime's. The tools of the two routers are then compared as the JSON
//! `tools/list` sends, tool by tool. The tools are only listed, never
//! called.
//!
//! outcome_runtime's `#[tool]` has rules rmcp's lacks: a tool needs a
//! description, the description must not list failures, and a doc comment
//! is cut at its first heading. The texts here are valid under both; the
//! differences those rules make on purpose are pinned in the last tests.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Icon, JsonObject, MetaObject, Tool};
use rmcp::service::RequestContext;
use rmcp::{Json, Peer, RoleServer, schemars};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

// The types and values the tools share. Only their schemas are read, so
// their fields are never used.

/// A search.
#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
pub struct Query {
    /// The words to look for.
    pub text: String,
    /// How many notes to return at most; all when absent.
    pub limit: Option<u32>,
}

/// A search among the notes in one state: a nested type and an enum, so
/// that the schema has definitions.
#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
pub struct Filter {
    pub query: Query,
    pub state: State,
}

/// Where a note is in its life.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
pub enum State {
    /// Not yet published.
    Draft,
    /// Published.
    Final,
}

/// What a search found.
#[derive(Serialize, schemars::JsonSchema)]
#[allow(dead_code)]
pub struct Answer {
    /// How many notes match.
    pub count: u32,
}

/// A return type that names `Json<T>` through an alias: neither macro can
/// see the `Json` in it.
type JsonAnswer<E> = Result<Json<Answer>, E>;

const DESCRIPTION: &str = "Return the notes that match a query, newest first.";

fn describe() -> &'static str {
    "Return the notes that match a query, oldest first."
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        other => panic!("not a JSON object: {other}"),
    }
}

fn custom_input_schema() -> Arc<JsonObject> {
    Arc::new(object(json!({
        "type": "object",
        "properties": { "path": { "type": "string" } },
        "required": ["path"],
    })))
}

fn custom_output_schema() -> Arc<JsonObject> {
    Arc::new(object(json!({
        "type": "object",
        "properties": { "paths": { "type": "array", "items": { "type": "string" } } },
    })))
}

fn icons() -> Vec<Icon> {
    vec![
        Icon::new("https://example.com/notes.svg")
            .with_mime_type("image/svg+xml")
            .with_sizes(vec!["any".to_owned()]),
        Icon::new("https://example.com/notes.png"),
    ]
}

fn meta() -> MetaObject {
    MetaObject(object(json!({ "com.example/area": "notes", "weight": 3 })))
}

/// Every tool body: the tools are listed, never called.
fn not_called<T>() -> T {
    unreachable!("the tools of this test are only listed, never called")
}

/// Expands one list of tools twice, into `with_rmcp` and `with_outcome`,
/// each a server whose `tools()` lists what its router sends. Tools that
/// return `Result` name their error type `Error`: rmcp's `ErrorData` on
/// one side, `ToolError` on the other. `rmcp { .. }` and `outcome { .. }`
/// hold items for one side only.
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
                pub(crate) fn tools() -> Vec<Tool> {
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
                pub(crate) fn tools() -> Vec<Tool> {
                    Server::tool_router().list_all()
                }
            }
        }
    };
}

under_both! {
    /// Signatures: no arguments, `Parameters<T>` bound, destructured, by
    /// path and after other extractors, raw arguments, with and without a
    /// receiver, sync and async.
    mod signatures {
        rmcp {}
        outcome {}
        tools {
            /// Return how many notes there are.
            #[tool]
            fn no_parameters(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return how many notes there are, counted again.
            #[tool]
            async fn no_parameters_async(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match a query.
            #[tool]
            fn parameters_bound(&self, query: Parameters<Query>) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match a query, read field by field.
            #[tool]
            async fn parameters_destructured(
                &self,
                Parameters(Query { text, limit }): Parameters<Query>,
            ) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match a query, read whole.
            #[tool]
            fn parameters_unwrapped(
                &self,
                Parameters(query): Parameters<Query>,
            ) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match a query, for the request's client.
            #[tool]
            async fn parameters_after_context(
                &self,
                context: RequestContext<RoleServer>,
                Parameters(query): Parameters<Query>,
            ) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match a query, for the connected client.
            #[tool]
            fn parameters_after_peer(
                &self,
                peer: Peer<RoleServer>,
                Parameters(query): Parameters<Query>,
            ) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match a query, with the request at hand.
            #[tool]
            async fn parameters_before_context(
                &self,
                Parameters(query): Parameters<Query>,
                context: RequestContext<RoleServer>,
            ) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match a query, its type named by path.
            #[tool]
            fn parameters_by_path(
                &self,
                query: rmcp::handler::server::wrapper::Parameters<Query>,
            ) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes in one state that match a query.
            #[tool]
            fn parameters_nested(
                &self,
                Parameters(filter): Parameters<Filter>,
            ) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match the arguments, read as raw JSON.
            #[tool]
            fn raw_arguments(&self, arguments: JsonObject) -> Result<String, Error> {
                not_called()
            }

            /// Return how many notes there are, without a server.
            #[tool]
            fn no_receiver() -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match a query, without a server.
            #[tool]
            async fn no_receiver_async(
                Parameters(query): Parameters<Query>,
            ) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match a query, borrowed for `'a`.
            #[tool]
            async fn receiver_lifetime<'a>(
                &'a self,
                Parameters(query): Parameters<Query>,
            ) -> Result<String, Error> {
                not_called()
            }

            /// Return how many notes there are, from a public method.
            #[tool]
            pub fn public_method(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return how many notes there are, with empty arguments.
            #[tool()]
            fn empty_arguments(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return how many notes there are, on this thread.
            #[tool(local)]
            fn local_sync(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the note count; `local` spelled as a boolean.
            #[tool(local = true)]
            fn local_true(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the note count; `local` turned off in quotes.
            #[tool(local = "false")]
            fn local_false(&self) -> Result<String, Error> {
                not_called()
            }
        }
    }
}

under_both! {
    /// Return types that both sides accept as written: the output schema
    /// comes from `Json<T>` inside `Result`, found by the tokens.
    mod results {
        rmcp {}
        outcome {}
        tools {
            /// Return how many notes match, as a structured value.
            #[tool]
            fn result_json(&self) -> Result<Json<Answer>, Error> {
                not_called()
            }

            /// Return how many notes match, counted again.
            #[tool]
            async fn result_json_async(&self) -> Result<Json<Answer>, Error> {
                not_called()
            }

            /// Return how many notes match, its type named by path.
            #[tool]
            fn result_json_by_path(&self) -> Result<rmcp::Json<Answer>, Error> {
                not_called()
            }

            /// Return how many notes match, as `std::result::Result`.
            #[tool]
            fn std_result_json(&self) -> std::result::Result<Json<Answer>, Error> {
                not_called()
            }

            /// Return the paths of the notes, as a structured list.
            #[tool]
            fn result_json_list(&self) -> Result<Json<Vec<String>>, Error> {
                not_called()
            }

            /// Return how many notes match, as text.
            #[tool]
            fn result_string(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return how many notes match, as text, counted again.
            #[tool]
            async fn result_string_async(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return how many notes match, as a tool result.
            #[tool]
            fn result_call_tool_result(&self) -> Result<CallToolResult, Error> {
                not_called()
            }

            /// Return how many notes match, through an alias.
            #[tool]
            fn result_alias(&self) -> JsonAnswer<Error> {
                not_called()
            }
        }
    }
}

under_both! {
    /// Return types that are not `Result`: `Json<T>`, `Json<T>` by path and
    /// `String`. outcome_runtime's tools must return `Result<T, ToolError>`, so
    /// on its side the same names are aliases of `Result`s: both macros read
    /// only the tokens of the return type, and the tokens are the same.
    mod plain_returns {
        rmcp {
            mod wire {
                pub use rmcp::Json;
            }
        }
        outcome {
            type String = Result<std::string::String, Error>;
            type Json<T> = Result<rmcp::Json<T>, Error>;
            mod wire {
                pub type Json<T> = super::Json<T>;
            }
        }
        tools {
            /// Return how many notes match, as a structured value.
            #[tool]
            fn plain_json(&self) -> Json<Answer> {
                not_called()
            }

            /// Return how many notes match, counted again.
            #[tool]
            async fn plain_json_async(&self) -> Json<Answer> {
                not_called()
            }

            /// Return how many notes match, its type named by path.
            #[tool]
            fn plain_json_by_path(&self) -> wire::Json<Answer> {
                not_called()
            }

            /// Return how many notes match, as text.
            #[tool]
            fn plain_string(&self) -> String {
                not_called()
            }

            /// Return how many notes match, as text, counted again.
            #[tool]
            async fn plain_string_async(&self) -> String {
                not_called()
            }
        }
    }
}

under_both! {
    /// Descriptions: `description = ..` as a literal and as expressions,
    /// and doc comments and doc attributes that both sides send as they are.
    mod descriptions {
        rmcp {}
        outcome {}
        tools {
            #[tool(description = "Return the notes that match a query.")]
            fn literal(&self) -> Result<String, Error> {
                not_called()
            }

            #[tool(description = r#"Return the notes "as they are"."#)]
            fn raw_literal(&self) -> Result<String, Error> {
                not_called()
            }

            #[tool(description = "Return the notes.\nNewest first, \u{2014} at most 10.")]
            fn literal_with_escapes(&self) -> Result<String, Error> {
                not_called()
            }

            #[tool(description = DESCRIPTION)]
            fn constant(&self) -> Result<String, Error> {
                not_called()
            }

            #[tool(description = concat!("Return the notes", " that match a query."))]
            fn concatenated(&self) -> Result<String, Error> {
                not_called()
            }

            #[tool(description = describe())]
            fn function_call(&self) -> Result<String, Error> {
                not_called()
            }

            #[tool(description = format!("Return at most {} notes.", 10))]
            fn formatted(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes; this doc comment is not what is sent.
            ///
            /// # Examples
            ///
            /// Not sent either.
            #[tool(description = "Return the notes that the explicit text names.")]
            fn explicit_over_doc(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note.
            #[tool]
            fn one_line_doc(&self) -> Result<String, Error> {
                not_called()
            }

            #[doc = "    Return one note, with spaces around.   "]
            #[tool]
            fn padded_doc(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes in one state:
            /// - draft: the notes not yet published
            /// - final: the published notes
            #[tool]
            fn multi_line_doc(&self) -> Result<String, Error> {
                not_called()
            }

            #[doc = "Return one note, from a doc attribute."]
            #[tool]
            fn doc_attribute(&self) -> Result<String, Error> {
                not_called()
            }

            /** Return one note, from a block comment. */
            #[tool]
            fn block_doc(&self) -> Result<String, Error> {
                not_called()
            }

            #[doc = include_str!("fixtures/tool_metadata_description.txt")]
            #[tool]
            fn included_doc(&self) -> Result<String, Error> {
                not_called()
            }

            #[doc = concat!("Return one note", ", from a doc macro.")]
            #[tool]
            fn doc_macro(&self) -> Result<String, Error> {
                not_called()
            }

            #[allow(clippy::unused_self)]
            /// Return one note, below another attribute.
            #[tool]
            fn doc_after_attribute(&self) -> Result<String, Error> {
                not_called()
            }
        }
    }
}

under_both! {
    /// `annotations(..)`: each hint alone, true and false, in each form
    /// rmcp reads (`hint`, `hint = true`, `hint = "true"`), the title, all
    /// at once, and none.
    mod annotations {
        rmcp {}
        outcome {}
        tools {
            /// Return one note, with a title among its annotations.
            #[tool(annotations(title = "Read a note"))]
            fn annotated_title(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, read only.
            #[tool(annotations(read_only_hint = true))]
            fn read_only(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, not read only.
            #[tool(annotations(read_only_hint = false))]
            fn not_read_only(&self) -> Result<String, Error> {
                not_called()
            }

            /// Delete one note.
            #[tool(annotations(destructive_hint = true))]
            fn destructive(&self) -> Result<String, Error> {
                not_called()
            }

            /// Add one note.
            #[tool(annotations(destructive_hint = false))]
            fn not_destructive(&self) -> Result<String, Error> {
                not_called()
            }

            /// Set one note's text.
            #[tool(annotations(idempotent_hint = true))]
            fn idempotent(&self) -> Result<String, Error> {
                not_called()
            }

            /// Append to one note's text.
            #[tool(annotations(idempotent_hint = false))]
            fn not_idempotent(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the web pages that match a query.
            #[tool(annotations(open_world_hint = true))]
            fn open_world(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match a query.
            #[tool(annotations(open_world_hint = false))]
            fn closed_world(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, read only by a bare hint.
            #[tool(annotations(read_only_hint))]
            fn bare_hint(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, read only by a quoted hint.
            #[tool(annotations(read_only_hint = "true", open_world_hint = "false"))]
            fn quoted_hints(&self) -> Result<String, Error> {
                not_called()
            }

            /// Replace one note.
            #[tool(annotations(
                title = "Replace a note",
                read_only_hint = false,
                destructive_hint = true,
                idempotent_hint = true,
                open_world_hint = false
            ))]
            fn all_annotations(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, with empty annotations.
            #[tool(annotations())]
            fn empty_annotations(&self) -> Result<String, Error> {
                not_called()
            }
        }
    }
}

under_both! {
    /// The other arguments: `name`, `title`, `input_schema`,
    /// `output_schema`, `icons`, `meta`, and all of them at once.
    mod arguments {
        rmcp {}
        outcome {}
        tools {
            /// Return the notes that match a query, under another name.
            #[tool(name = "search-notes")]
            fn renamed(&self, Parameters(query): Parameters<Query>) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match a query, under a raw name.
            #[tool(name = r"search.notes")]
            fn renamed_raw(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match a query, with a title.
            #[tool(title = "Search the notes")]
            fn titled(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, by its path.
            #[tool(input_schema = custom_input_schema())]
            fn input_schema_alone(&self, arguments: JsonObject) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, every expression argument in quotes.
            #[tool(
                input_schema = "custom_input_schema()",
                output_schema = "custom_output_schema()",
                icons = "icons()",
                meta = "meta()"
            )]
            fn quoted_expressions(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, its schema given over its parameters'.
            #[tool(input_schema = custom_input_schema())]
            fn input_schema_over_parameters(
                &self,
                Parameters(query): Parameters<Query>,
            ) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, its schema given as an object.
            #[tool(input_schema = object(json!({ "type": "object", "properties": {} })))]
            fn input_schema_object(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the paths of the notes, as structured text.
            #[tool(output_schema = custom_output_schema())]
            fn output_schema_alone(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the paths of the notes, the schema given over `Json`'s.
            #[tool(output_schema = custom_output_schema())]
            fn output_schema_over_json(&self) -> Result<Json<Answer>, Error> {
                not_called()
            }

            /// Return the paths of the notes, the schema built inline.
            #[tool(output_schema = rmcp::handler::server::tool::schema_for_output::<Answer>())]
            fn output_schema_inline(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, with icons.
            #[tool(icons = icons())]
            fn with_icons(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, with icons built inline.
            #[tool(icons = vec![
                Icon::new("https://example.com/note.png").with_mime_type("image/png")
            ])]
            fn with_inline_icons(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, with metadata.
            #[tool(meta = meta())]
            fn with_meta(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, with metadata built inline.
            #[tool(meta = MetaObject(object(json!({ "hidden": true }))))]
            fn with_inline_meta(&self) -> Result<String, Error> {
                not_called()
            }

            /// This doc comment is not what is sent.
            #[tool(
                name = "everything",
                title = "Everything at once",
                description = "Return the notes that match a query, with every argument.",
                input_schema = custom_input_schema(),
                output_schema = custom_output_schema(),
                annotations(
                    title = "Every argument",
                    read_only_hint = true,
                    destructive_hint = false,
                    idempotent_hint = true,
                    open_world_hint = false
                ),
                icons = icons(),
                meta = meta(),
                local
            )]
            fn all_arguments(
                &self,
                Parameters(query): Parameters<Query>,
            ) -> Result<Json<Answer>, Error> {
                not_called()
            }

            /// Return the notes that match a query, with most arguments, async.
            #[tool(
                name = "everything_async",
                title = "Everything at once, async",
                annotations(title = "Every argument, async", read_only_hint = true),
                icons = icons(),
                meta = meta()
            )]
            async fn all_arguments_async(
                &self,
                context: RequestContext<RoleServer>,
                Parameters(query): Parameters<Query>,
            ) -> Result<Json<Answer>, Error> {
                not_called()
            }
        }
    }
}

/// The tools of a router, by name, as `tools/list` sends them.
fn by_name(tools: Vec<Tool>) -> BTreeMap<String, Value> {
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
fn assert_same_tools(rmcp: Vec<Tool>, outcome: Vec<Tool>, names: &[&str]) {
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

#[test]
fn signatures_give_the_same_tools() {
    assert_same_tools(
        signatures::with_rmcp::tools(),
        signatures::with_outcome::tools(),
        &[
            "no_parameters",
            "no_parameters_async",
            "parameters_bound",
            "parameters_destructured",
            "parameters_unwrapped",
            "parameters_after_context",
            "parameters_after_peer",
            "parameters_before_context",
            "parameters_by_path",
            "parameters_nested",
            "raw_arguments",
            "no_receiver",
            "no_receiver_async",
            "receiver_lifetime",
            "public_method",
            "empty_arguments",
            "local_sync",
            "local_true",
            "local_false",
        ],
    );
}

#[test]
fn return_types_give_the_same_tools() {
    assert_same_tools(
        results::with_rmcp::tools(),
        results::with_outcome::tools(),
        &[
            "result_json",
            "result_json_async",
            "result_json_by_path",
            "std_result_json",
            "result_json_list",
            "result_string",
            "result_string_async",
            "result_call_tool_result",
            "result_alias",
        ],
    );
    assert_same_tools(
        plain_returns::with_rmcp::tools(),
        plain_returns::with_outcome::tools(),
        &[
            "plain_json",
            "plain_json_async",
            "plain_json_by_path",
            "plain_string",
            "plain_string_async",
        ],
    );
}

#[test]
fn descriptions_are_the_same() {
    assert_same_tools(
        descriptions::with_rmcp::tools(),
        descriptions::with_outcome::tools(),
        &[
            "literal",
            "raw_literal",
            "literal_with_escapes",
            "constant",
            "concatenated",
            "function_call",
            "formatted",
            "explicit_over_doc",
            "one_line_doc",
            "padded_doc",
            "multi_line_doc",
            "doc_attribute",
            "block_doc",
            "included_doc",
            "doc_macro",
            "doc_after_attribute",
        ],
    );
}

#[test]
fn annotations_are_the_same() {
    assert_same_tools(
        annotations::with_rmcp::tools(),
        annotations::with_outcome::tools(),
        &[
            "annotated_title",
            "read_only",
            "not_read_only",
            "destructive",
            "not_destructive",
            "idempotent",
            "not_idempotent",
            "open_world",
            "closed_world",
            "bare_hint",
            "quoted_hints",
            "all_annotations",
            "empty_annotations",
        ],
    );
}

#[test]
fn the_other_arguments_give_the_same_tools() {
    assert_same_tools(
        arguments::with_rmcp::tools(),
        arguments::with_outcome::tools(),
        &[
            "search-notes",
            "search.notes",
            "titled",
            "input_schema_alone",
            "quoted_expressions",
            "input_schema_over_parameters",
            "input_schema_object",
            "output_schema_alone",
            "output_schema_over_json",
            "output_schema_inline",
            "with_icons",
            "with_inline_icons",
            "with_meta",
            "with_inline_meta",
            "everything",
            "everything_async",
        ],
    );
}

under_both! {
    /// Doc comments outcome_runtime sends differently on purpose: the model
    /// reads the text before the first heading, and the lines of a
    /// paragraph joined as Markdown renders them; rmcp sends every line,
    /// trimmed, blank lines dropped, joined with line breaks.
    mod by_design {
        rmcp {}
        outcome {}
        tools {
            /// Return the notes that match a query.
            ///
            /// # Examples
            ///
            /// `search {"text": "plan"}` lists the plan.
            #[tool]
            fn cut_at_heading(
                &self,
                Parameters(query): Parameters<Query>,
            ) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match a query,
            /// newest first.
            ///
            /// An empty list when none match.
            #[tool]
            fn paragraphs(&self) -> Result<Json<Answer>, Error> {
                not_called()
            }

            /**
             * Return one note,
             * from a block comment.
             */
            #[tool(annotations(read_only_hint = true))]
            fn block_comment(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes whose text matches:
            /// ```text
            /// plan*
            /// ```
            #[tool(title = "Search")]
            fn fenced(&self) -> Result<String, Error> {
                not_called()
            }
        }
    }
}

/// A tool without its description.
fn without_description(tool: &Value) -> Value {
    let mut tool = tool.clone();
    tool.as_object_mut()
        .expect("a tool is a JSON object")
        .remove("description");
    tool
}

#[test]
fn a_doc_comment_is_cut_at_its_first_heading_and_reflowed_by_design() {
    let rmcp = by_name(by_design::with_rmcp::tools());
    let outcome = by_name(by_design::with_outcome::tools());
    // Each tool: its description under rmcp's #[tool], then under
    // outcome_runtime's.
    let descriptions = [
        (
            "cut_at_heading",
            "Return the notes that match a query.\n# Examples\n\
             `search {\"text\": \"plan\"}` lists the plan.",
            "Return the notes that match a query.",
        ),
        (
            "paragraphs",
            "Return the notes that match a query,\nnewest first.\nAn empty list when none match.",
            "Return the notes that match a query, newest first.\n\nAn empty list when none match.",
        ),
        (
            "block_comment",
            // rmcp keeps the comment's indentation and its `*` margin.
            "* Return one note,\n             * from a block comment.",
            "Return one note, from a block comment.",
        ),
        (
            "fenced",
            "Return the notes whose text matches:\n```text\nplan*\n```",
            "Return the notes whose text matches:\n\n```text\nplan*\n```",
        ),
    ];
    assert_eq!(
        rmcp.keys().collect::<Vec<_>>(),
        outcome.keys().collect::<Vec<_>>()
    );
    assert_eq!(rmcp.len(), descriptions.len());
    for (name, theirs, ours) in descriptions {
        assert_eq!(
            rmcp[name]["description"], theirs,
            "{name}: the description under rmcp's #[tool]"
        );
        assert_eq!(
            outcome[name]["description"], ours,
            "{name}: the description under outcome_runtime's #[tool]"
        );
        // Only the description differs.
        assert_eq!(
            without_description(&rmcp[name]),
            without_description(&outcome[name]),
            "{name}: besides the description"
        );
    }
    // The heading and all after it are what outcome_runtime leaves out.
    let whole = rmcp["cut_at_heading"]["description"].as_str().unwrap();
    let (before_heading, _) = whole.split_once("\n# ").expect("rmcp sends the heading");
    assert_eq!(outcome["cut_at_heading"]["description"], before_heading);
}

under_both! {
    /// A doc comment that another attribute follows, which rmcp reads as
    /// no doc at all: it reads the attributes in order, and each one that
    /// is not `#[doc = ..]` throws away the text read so far.
    mod doc_then_attribute {
        rmcp {}
        outcome {}
        tools {
            /// Return one note.
            #[tool]
            #[allow(clippy::unused_self)]
            fn attribute_after_doc(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, under another name for rustdoc.
            #[doc(alias = "note")]
            #[tool]
            fn doc_alias_after_doc(&self) -> Result<String, Error> {
                not_called()
            }
        }
    }
}

/// Not by outcome_runtime's design, but rmcp's quirk: rmcp lists these tools
/// with no description, where outcome_runtime sends the doc comment (and would
/// refuse a tool with none). If rmcp's `#[tool]` changes how it reads doc
/// attributes, this test says so.
#[test]
fn a_doc_comment_that_another_attribute_follows_is_lost_under_rmcp_only() {
    let rmcp = by_name(doc_then_attribute::with_rmcp::tools());
    let outcome = by_name(doc_then_attribute::with_outcome::tools());
    for (name, doc) in [
        ("attribute_after_doc", "Return one note."),
        (
            "doc_alias_after_doc",
            "Return one note, under another name for rustdoc.",
        ),
    ] {
        assert_eq!(rmcp[name].get("description"), None, "{name} under rmcp");
        assert_eq!(outcome[name]["description"], doc, "{name} under outcome");
        assert_eq!(
            without_description(&rmcp[name]),
            without_description(&outcome[name]),
            "{name}: besides the description"
        );
    }
}

under_both! {
    /// A doc comment, then an included doc: rmcp joins the two with a line
    /// break, the comment trimmed.
    mod doc_and_included_doc {
        rmcp {}
        outcome {}
        tools {
            /// Return the notes.
            #[doc = include_str!("fixtures/tool_metadata_description.txt")]
            #[tool]
            fn doc_then_included(&self) -> Result<String, Error> {
                not_called()
            }
        }
    }
}

#[test]
fn a_doc_comment_and_an_included_doc_are_joined_as_rmcp_joins_them() {
    assert_same_tools(
        doc_and_included_doc::with_rmcp::tools(),
        doc_and_included_doc::with_outcome::tools(),
        &["doc_then_included"],
    );
}

under_both! {
    /// `Parameters<T>` whose schema is not an object: it compiles under
    /// both, and building the router panics under both.
    mod not_an_object {
        rmcp {}
        outcome {}
        tools {
            /// Return the note at an index.
            #[tool]
            fn by_index(&self, Parameters(index): Parameters<u32>) -> Result<String, Error> {
                not_called()
            }
        }
    }
}

#[test]
fn a_parameters_type_that_is_not_an_object_panics_under_both() {
    let sides = [
        (
            "rmcp's",
            std::panic::catch_unwind(not_an_object::with_rmcp::tools),
        ),
        (
            "outcome_runtime's",
            std::panic::catch_unwind(not_an_object::with_outcome::tools),
        ),
    ];
    for (side, listed) in sides {
        let panic = listed.expect_err("a tool whose input schema is not an object is listed");
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        assert!(
            message.contains("Parameters<u32>"),
            "{side} #[tool]: the panic names the type: {message}"
        );
    }
}
