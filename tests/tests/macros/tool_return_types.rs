//! `#[tool]` reads a return type as rmcp's `#[tool]` does: the output
//! schema of `Json<T>` inside `Result`, found by the tokens, and none for
//! text, a `CallToolResult` or an alias that hides the `Json`.
//!
//! Each group of tools is written once and expanded twice by `under_both!`,
//! under rmcp's macros and under outcome_runtime's, and the tools of the two
//! routers are compared as the JSON `tools/list` sends
//! (`outcome_tests::side_by_side`).

use outcome_tests::side_by_side::{Answer, JsonAnswer, assert_same_tools, not_called};
use outcome_tests::under_both;
use rmcp::Json;
use rmcp::model::CallToolResult;

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
