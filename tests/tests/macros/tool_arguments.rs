//! `#[tool]`'s other arguments give what rmcp's `#[tool]` gives: `name`,
//! `title`, `input_schema`, `output_schema`, `icons` and `meta`, as
//! expressions or in quotes, and all of them at once.
//!
//! Each group of tools is written once and expanded twice by `under_both!`,
//! under rmcp's macros and under outcome_runtime's, and the tools of the two
//! routers are compared as the JSON `tools/list` sends
//! (`outcome_tests::side_by_side`).

use outcome_tests::side_by_side::{
    Answer, Query, assert_same_tools, custom_input_schema, custom_output_schema, icons, meta,
    not_called, object,
};
use outcome_tests::under_both;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{Icon, JsonObject, MetaObject};
use rmcp::service::RequestContext;
use rmcp::{Json, RoleServer};
use serde_json::json;

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
