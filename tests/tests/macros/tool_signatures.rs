//! `#[tool]` reads every signature rmcp's `#[tool]` reads, into the same
//! tool: no arguments, `Parameters<T>` bound, destructured, by path and
//! after other extractors, raw arguments, with and without a receiver, sync
//! and async; a `Parameters<T>` whose schema is not an object panics under
//! both.
//!
//! Each group of tools is written once and expanded twice by `under_both!`,
//! under rmcp's macros and under outcome_runtime's, and the tools of the two
//! routers are compared as the JSON `tools/list` sends
//! (`outcome_tests::side_by_side`).

use outcome_tests::side_by_side::{Filter, Query, assert_same_tools, not_called};
use outcome_tests::under_both;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::JsonObject;
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer};

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
