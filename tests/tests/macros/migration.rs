//! The migration guide's steps, done on a server written the way rmcp's own
//! examples are: a counter, first with rmcp's `#[tool]`, `#[tool_router]`
//! and `#[tool_handler]`, then a copy changed only where the migration
//! guide's table says.
//!
//! What must stay the same: `tools/list` and the values of every call that
//! succeeds. What must change: every failure ends in its outcome, with the
//! text and the log level the outcome rules give it. Each test puts the
//! two servers side by side on the same calls.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use outcome_runtime::message::FAULT_MESSAGE;
use outcome_tests::{Call, Session};
use rmcp::ServerHandler;
use rmcp::model::{ErrorCode, Tool};
use rmcp::schemars;
use rmcp::service::ServiceError;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

// The argument and output types: the migration leaves them alone, so both
// servers share them.

#[derive(Deserialize, schemars::JsonSchema)]
pub struct AddArgs {
    /// How much to add; negative amounts subtract.
    pub amount: i32,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ResetArgs {
    /// The value to start again from; 0 when absent.
    #[serde(default)]
    pub to: i32,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct CounterValue {
    /// The counter's value.
    pub value: i32,
}

/// The counter as rmcp's examples write it: rmcp's macros, tools that
/// return `CallToolResult`, `String`, `Json<T>`, errors as `String`,
/// `McpError` or a hand-built error result.
mod with_rmcp {
    use std::num::NonZeroI32;
    use std::sync::Arc;

    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::handler::server::wrapper::{Json, Parameters};
    use rmcp::model::{CallToolResult, ContentBlock, ServerCapabilities, ServerConfig};
    use rmcp::{ErrorData as McpError, ServerHandler};
    use rmcp::{tool, tool_handler, tool_router};
    use tokio::sync::Mutex;

    use super::{AddArgs, CounterValue, ResetArgs};

    #[derive(Clone)]
    pub struct Counter {
        value: Arc<Mutex<i32>>,
        tool_router: ToolRouter<Counter>,
    }

    #[tool_router]
    impl Counter {
        pub fn new() -> Self {
            Self {
                value: Arc::new(Mutex::new(0)),
                tool_router: Self::tool_router(),
            }
        }

        /// Add one to the counter and return its new value.
        #[tool]
        async fn increment(&self) -> Result<CallToolResult, McpError> {
            let mut value = self.value.lock().await;
            *value += 1;
            Ok(CallToolResult::success(vec![ContentBlock::text(
                value.to_string(),
            )]))
        }

        /// Take one from the counter and return its new value; it stays at 0 or above.
        #[tool]
        async fn decrement(&self) -> Result<String, String> {
            let mut value = self.value.lock().await;
            if *value == 0 {
                return Err("The counter is already at 0".to_string());
            }
            *value -= 1;
            Ok(value.to_string())
        }

        /// Return the counter's current value.
        #[tool(annotations(read_only_hint = true))]
        async fn get_value(&self) -> Json<CounterValue> {
            Json(CounterValue {
                value: *self.value.lock().await,
            })
        }

        /// Add an amount to the counter and return its new value.
        #[tool]
        async fn add(
            &self,
            Parameters(AddArgs { amount }): Parameters<AddArgs>,
        ) -> Result<Json<CounterValue>, McpError> {
            let amount = NonZeroI32::new(amount)
                .ok_or_else(|| McpError::invalid_params("amount must not be 0", None))?;
            let mut value = self.value.lock().await;
            *value = value
                .checked_add(amount.get())
                .expect("the counter overflowed");
            Ok(Json(CounterValue { value: *value }))
        }

        /// Set the counter to a starting value, 0 unless `to` names another.
        #[tool(annotations(destructive_hint = true))]
        async fn reset(
            &self,
            Parameters(ResetArgs { to }): Parameters<ResetArgs>,
        ) -> Result<CallToolResult, McpError> {
            if to < 0 {
                return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "The counter cannot start at {to}"
                ))]));
            }
            *self.value.lock().await = to;
            Ok(CallToolResult::success(vec![ContentBlock::text(
                to.to_string(),
            )]))
        }
    }

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for Counter {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
                .with_instructions("A counter that starts at 0.")
        }
    }
}

/// The same counter after the migration guide's steps. Line for line, only
/// these differ from `with_rmcp`:
///
/// - the three macros come from `outcome_runtime`;
/// - every tool returns `Result<T, ToolError>`, `T` being what it returned
///   before (`get_value` now wraps its value in `Ok`);
/// - `Err(String)` and the hand-built `CallToolResult::error` became
///   `ToolError::invalid`, with the next step the model must take.
///
/// `McpError::invalid_params` through `?` and the overflow that panics are
/// left exactly as they were.
mod migrated {
    use std::num::NonZeroI32;
    use std::sync::Arc;

    use outcome_runtime::ToolError;
    use outcome_runtime::{tool, tool_handler, tool_router};
    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::handler::server::wrapper::{Json, Parameters};
    use rmcp::model::{CallToolResult, ContentBlock, ServerCapabilities, ServerConfig};
    use rmcp::{ErrorData as McpError, ServerHandler};
    use tokio::sync::Mutex;

    use super::{AddArgs, CounterValue, ResetArgs};

    #[derive(Clone)]
    pub struct Counter {
        value: Arc<Mutex<i32>>,
        tool_router: ToolRouter<Counter>,
    }

    #[tool_router]
    impl Counter {
        pub fn new() -> Self {
            Self {
                value: Arc::new(Mutex::new(0)),
                tool_router: Self::tool_router(),
            }
        }

        /// Add one to the counter and return its new value.
        #[tool]
        async fn increment(&self) -> Result<CallToolResult, ToolError> {
            let mut value = self.value.lock().await;
            *value += 1;
            Ok(CallToolResult::success(vec![ContentBlock::text(
                value.to_string(),
            )]))
        }

        /// Take one from the counter and return its new value; it stays at 0 or above.
        #[tool]
        async fn decrement(&self) -> Result<String, ToolError> {
            let mut value = self.value.lock().await;
            if *value == 0 {
                return Err(ToolError::invalid(
                    "The counter is already at 0",
                    "Call increment or add first",
                ));
            }
            *value -= 1;
            Ok(value.to_string())
        }

        /// Return the counter's current value.
        #[tool(annotations(read_only_hint = true))]
        async fn get_value(&self) -> Result<Json<CounterValue>, ToolError> {
            Ok(Json(CounterValue {
                value: *self.value.lock().await,
            }))
        }

        /// Add an amount to the counter and return its new value.
        #[tool]
        async fn add(
            &self,
            Parameters(AddArgs { amount }): Parameters<AddArgs>,
        ) -> Result<Json<CounterValue>, ToolError> {
            let amount = NonZeroI32::new(amount)
                .ok_or_else(|| McpError::invalid_params("amount must not be 0", None))?;
            let mut value = self.value.lock().await;
            *value = value
                .checked_add(amount.get())
                .expect("the counter overflowed"); // PANIC_SITE: where the migrated add panics
            Ok(Json(CounterValue { value: *value }))
        }

        /// Set the counter to a starting value, 0 unless `to` names another.
        #[tool(annotations(destructive_hint = true))]
        async fn reset(
            &self,
            Parameters(ResetArgs { to }): Parameters<ResetArgs>,
        ) -> Result<CallToolResult, ToolError> {
            if to < 0 {
                return Err(ToolError::invalid(
                    format_args!("The counter cannot start at {to}"),
                    "Call reset again with to set to 0 or more",
                ));
            }
            *self.value.lock().await = to;
            Ok(CallToolResult::success(vec![ContentBlock::text(
                to.to_string(),
            )]))
        }
    }

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for Counter {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
                .with_instructions("A counter that starts at 0.")
        }
    }
}

/// The target rmcp writes its own `response error` WARN under, for every
/// JSON-RPC error a request ends in (an unknown tool among them).
const RMCP_TARGET: &str = "rmcp::service";

/// How long a call to the rmcp server may take before the test decides that
/// no answer is coming.
const NO_ANSWER: Duration = Duration::from_secs(2);

async fn rmcp_session() -> Session {
    Session::connect(with_rmcp::Counter::new(), ()).await
}

async fn migrated_session() -> Session {
    Session::connect(migrated::Counter::new(), ()).await
}

/// The server's tools as `tools/list` sends them, by name.
async fn tools(session: &Session) -> BTreeMap<String, Value> {
    let tools: Vec<Tool> = session
        .client
        .list_all_tools()
        .await
        .expect("the server lists its tools");
    tools
        .into_iter()
        .map(|tool| {
            let json = serde_json::to_value(&tool).expect("a tool serializes");
            (tool.name.into_owned(), json)
        })
        .collect()
}

/// The whole result as the client received it: content, structured
/// content, `isError`.
fn wire(call: &Call) -> Value {
    serde_json::to_value(call.ok()).expect("a result serializes")
}

/// rmcp's own `response error` records of a call.
fn rmcp_warnings(call: &Call) -> Vec<&str> {
    call.records
        .iter()
        .filter(|record| record.target == RMCP_TARGET && record.level == tracing::Level::WARN)
        .map(|record| record.name())
        .collect()
}

fn assert_invalid(call: &Call) {
    assert_eq!(call.ok().is_error, Some(true));
    assert_eq!(call.events(), ["INFO tool_call_failed"]);
    assert_eq!(
        call.record("tool_call_failed").field("outcome"),
        Some("invalid")
    );
    assert!(!call.has_error(), "{:?}", call.records);
}

#[tokio::test]
async fn tools_list_is_the_same_after_the_migration() {
    let before = tools(&rmcp_session().await).await;
    let after = tools(&migrated_session().await).await;
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        ["add", "decrement", "get_value", "increment", "reset"]
    );
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>()
    );
    for (name, old) in &before {
        let new = &after[name];
        // Field by field, so that a difference names what changed.
        let (Value::Object(old), Value::Object(new)) = (old, new) else {
            panic!("{name} is not a JSON object");
        };
        let keys: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
        for key in keys {
            assert_eq!(
                old.get(key),
                new.get(key),
                "{name}.{key} differs after the migration"
            );
        }
    }
    // One-line doc comments need no change: both send them as they are.
    assert_eq!(
        after["decrement"]["description"],
        "Take one from the counter and return its new value; it stays at 0 or above."
    );
    // `Json<T>` and `Result<Json<T>, E>` give an output schema whatever `E`
    // is: rmcp's `#[tool]` reads it from the return type's tokens.
    for name in ["add", "get_value"] {
        assert!(
            after[name]["outputSchema"]["properties"]["value"].is_object(),
            "{name}: {}",
            after[name]
        );
    }
}

/// Two doc comments that read differently after the migration: rmcp sends
/// every line, joined by line breaks; this crate joins the lines of a
/// paragraph with spaces and stops at the first heading.
#[test]
fn a_doc_comment_over_several_lines_is_joined_differently() {
    struct Docs;

    #[rmcp::tool_router(router = rmcp_tools)]
    impl Docs {
        /// Return the counter's value,
        /// read without changing it.
        ///
        /// # Examples
        ///
        /// `get_value {}` answers `{"value": 0}` on a new counter.
        #[rmcp::tool]
        fn before(&self) -> Result<String, rmcp::ErrorData> {
            Ok("0".to_owned())
        }
    }

    #[outcome_runtime::tool_router(router = outcome_tools)]
    impl Docs {
        /// Return the counter's value,
        /// read without changing it.
        ///
        /// # Examples
        ///
        /// `get_value {}` answers `{"value": 0}` on a new counter.
        #[outcome_runtime::tool]
        fn after(&self) -> Result<String, outcome_runtime::ToolError> {
            Ok("0".to_owned())
        }
    }

    assert_eq!(
        Docs::before_tool_attr().description.as_deref(),
        Some(
            "Return the counter's value,\nread without changing it.\n# Examples\n\
             `get_value {}` answers `{\"value\": 0}` on a new counter."
        )
    );
    assert_eq!(
        Docs::after_tool_attr().description.as_deref(),
        Some("Return the counter's value, read without changing it.")
    );
    assert!(Docs::rmcp_tools().has_route("before"));
    assert!(Docs::outcome_tools().has_route("after"));
}

/// Calls that succeed, in order, on one counter.
const SUCCESSES: [(&str, &str); 10] = [
    ("increment", "{}"),
    ("increment", "{}"),
    ("get_value", "{}"),
    ("add", r#"{ "amount": 5 }"#),
    ("add", r#"{ "amount": -3 }"#),
    ("decrement", "{}"),
    ("reset", r#"{ "to": 7 }"#),
    ("get_value", "{}"),
    ("reset", "{}"),
    ("get_value", "{}"),
];

/// Makes the [`SUCCESSES`] calls on `session`: what the client received
/// for each, and the runtime's records of each.
async fn successes(session: Session) -> Vec<(Value, Vec<String>)> {
    let mut answers = Vec::new();
    for (tool, arguments) in SUCCESSES {
        let arguments: Value = serde_json::from_str(arguments).unwrap();
        let call = session.call(tool, arguments.clone()).await;
        assert_eq!(call.ok().is_error, Some(false), "{tool} {arguments}");
        answers.push((wire(&call), call.events()));
    }
    answers
}

#[tokio::test]
async fn every_success_serves_the_same_value() {
    let before = successes(rmcp_session().await).await;
    let after = successes(migrated_session().await).await;
    for (((tool, arguments), (old, old_events)), (new, new_events)) in
        SUCCESSES.iter().zip(&before).zip(&after)
    {
        assert_eq!(old, new, "{tool} {arguments}");
        assert!(old_events.is_empty(), "rmcp's server logs no outcome");
        assert_eq!(new_events, &["INFO tool_call_completed"], "{tool}");
    }
    assert_eq!(after[2].0["structuredContent"], json!({ "value": 2 }));
    assert_eq!(after[9].0["structuredContent"], json!({ "value": 0 }));
}

#[tokio::test]
async fn a_refusal_by_err_string_gains_its_next_step() {
    let call = rmcp_session().await.call("decrement", json!({})).await;
    assert_eq!(call.ok().is_error, Some(true));
    assert_eq!(call.text(), "The counter is already at 0");
    assert!(call.events().is_empty());

    let call = migrated_session().await.call("decrement", json!({})).await;
    assert_invalid(&call);
    assert_eq!(
        call.text(),
        "The counter is already at 0. Call increment or add first."
    );
}

#[tokio::test]
async fn a_hand_built_error_result_becomes_an_invalid_request() {
    let call = rmcp_session()
        .await
        .call("reset", json!({ "to": -1 }))
        .await;
    assert_eq!(call.ok().is_error, Some(true));
    assert_eq!(call.text(), "The counter cannot start at -1");
    assert!(call.events().is_empty());

    let call = migrated_session()
        .await
        .call("reset", json!({ "to": -1 }))
        .await;
    assert_invalid(&call);
    assert_eq!(
        call.text(),
        "The counter cannot start at -1. Call reset again with to set to 0 or more."
    );
}

#[tokio::test]
async fn invalid_params_through_question_mark_is_a_request_to_change() {
    // rmcp: a JSON-RPC error, which many clients never show the model, and
    // a WARN from rmcp for what is the model's mistake.
    let call = rmcp_session()
        .await
        .call("add", json!({ "amount": 0 }))
        .await;
    let Err(ServiceError::McpError(error)) = &call.result else {
        panic!("expected a JSON-RPC error, got {:?}", call.result);
    };
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(error.message, "amount must not be 0");
    assert_eq!(rmcp_warnings(&call), ["response error"]);

    // Migrated, with the same line of code: outcome 2. This needs the
    // mapping of -32602 in `ToolError` (an `ErrorData` with that code is
    // outcome 2, its text made model-safe, with a step naming the tool).
    let call = migrated_session()
        .await
        .call("add", json!({ "amount": 0 }))
        .await;
    assert_invalid(&call);
    let text = call.text();
    assert!(text.starts_with("amount must not be 0"), "{text}");
    assert!(text.contains("add"), "the step names the tool: {text}");
    assert!(!text.contains("32602"), "{text}");
    assert!(rmcp_warnings(&call).is_empty(), "{:?}", call.records);
}

#[tokio::test]
async fn an_overflow_panic_is_answered_and_the_next_call_served() {
    // rmcp: the task that ran the tool dies with it, and no answer comes.
    {
        let session = rmcp_session().await;
        session.call("reset", json!({ "to": i32::MAX })).await;
        let unanswered =
            tokio::time::timeout(NO_ANSWER, session.call("add", json!({ "amount": 1 })));
        assert!(
            unanswered.await.is_err(),
            "rmcp answered a call whose tool panicked"
        );
        // The server itself goes on.
        let next = session.call("get_value", json!({})).await;
        assert_eq!(
            next.ok().structured_content,
            Some(json!({ "value": i32::MAX }))
        );
    }

    // Migrated: the fixed fault message, one ERROR record with the panic,
    // and the next call is served.
    let session = migrated_session().await;
    session.call("reset", json!({ "to": i32::MAX })).await;
    let call = tokio::time::timeout(NO_ANSWER, session.call("add", json!({ "amount": 1 })))
        .await
        .expect("the migrated server answers");
    assert_eq!(call.ok().is_error, Some(true));
    assert_eq!(call.text(), FAULT_MESSAGE);
    assert_eq!(
        call.events(),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
    let failed = call.record("tool_failed");
    assert_eq!(failed.field("tool"), Some("add"));
    assert_eq!(failed.field("error.type"), Some("panic"));
    assert_eq!(failed.field("error"), Some("the counter overflowed"));
    let line = outcome_tests::line_of(include_str!("migration.rs"), concat!("PANIC", "_SITE"));
    let location = failed.field("panic.location").unwrap();
    assert!(
        location.starts_with(&format!("{}:{line}:", file!())),
        "{location} is not {}:{line}",
        file!()
    );

    let next = session.call("get_value", json!({})).await;
    assert_eq!(
        next.ok().structured_content,
        Some(json!({ "value": i32::MAX }))
    );
    assert_eq!(next.events(), ["INFO tool_call_completed"]);
}

#[tokio::test]
async fn an_unknown_tool_is_a_json_rpc_error_that_rmcp_logs_at_warn() {
    // One session at a time: each captures the thread's log while it lives.
    for migrated in [false, true] {
        let session = if migrated {
            migrated_session().await
        } else {
            rmcp_session().await
        };
        let call = session.call("multiply", json!({})).await;
        let Err(ServiceError::McpError(error)) = &call.result else {
            panic!("expected a JSON-RPC error, got {:?}", call.result);
        };
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        // rmcp's own line, under its own target, whichever macros built the
        // server: a filter on that target is how an operator drops it.
        assert_eq!(rmcp_warnings(&call), ["response error"]);
        if migrated {
            assert_eq!(call.events(), ["INFO tool_call_failed"]);
            assert_eq!(
                call.record("tool_call_failed").field("outcome"),
                Some("protocol")
            );
        } else {
            assert!(call.events().is_empty());
        }
    }
}

/// Both servers are `ServerHandler`s with the same instructions.
#[test]
fn the_server_info_is_unchanged() {
    let before = with_rmcp::Counter::new().get_info();
    let after = migrated::Counter::new().get_info();
    assert_eq!(
        serde_json::to_value(before).unwrap(),
        serde_json::to_value(after).unwrap()
    );
}
