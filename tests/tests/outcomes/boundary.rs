//! The boundary and the request log beyond the scenario: sync panics, odd
//! panic payloads, hand-built error results, unknown tools, tools that skip
//! the boundary, and the description the model reads.

use outcome_runtime::testing::LogCapture;
use outcome_runtime::{
    Outcome, Rule, ToolError, message::FAULT_MESSAGE, tool, tool_handler, tool_router,
};
use outcome_tests::{Session, events};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, ErrorCode, InputRequiredResult};
use rmcp::service::ServiceError;
use rmcp::{ErrorData, ServerHandler, schemars};
use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema)]
struct Count {
    /// How many.
    n: u32,
}

struct Probe {
    router: ToolRouter<Probe>,
}

#[tool_router(router = wrapped_tools)]
impl Probe {
    /// Panic with a text payload.
    #[tool]
    fn sync_panic(&self) -> Result<String, ToolError> {
        panic!("index {} out of range", 7) // PANIC_SITE
    }

    /// Panic with a payload that is not text.
    #[tool]
    fn odd_panic(&self) -> Result<String, ToolError> {
        std::panic::panic_any(42_u64)
    }

    /// Return a number,
    /// doubled.
    ///
    /// Numbers past 4294967295 do not fit.
    ///
    /// # Errors
    ///
    /// Never; this section must not reach the model.
    ///
    /// # Panics
    ///
    /// Never either.
    ///
    /// # Examples
    ///
    /// `double(2)` is `4`.
    #[tool(title = "Double")]
    fn double(&self, Parameters(Count { n }): Parameters<Count>) -> Result<String, ToolError> {
        Ok((u64::from(n) * 2).to_string())
    }

    /// Answer with an error result built by hand.
    #[tool]
    fn by_hand(&self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::error(vec![ContentBlock::text("it broke")]))
    }

    /// Refuse: a tool the others call.
    #[tool]
    fn refuse(&self) -> Result<String, ToolError> {
        // The notes server's answer; this server has no `search_notes`.
        Err(
            ToolError::invalid("No note at 'x'", "Find the path with search_notes")
                .waive(Rule::KnownTool),
        )
    }

    /// Call refuse, recover from its error, then panic.
    #[tool]
    fn recover_then_panic(&self) -> Result<String, ToolError> {
        let _ = self.refuse();
        panic!("after recovering")
    }

    /// Call refuse, recover from its error, then answer with an error
    /// result built by hand.
    #[tool]
    fn recover_then_by_hand(&self) -> Result<CallToolResult, ToolError> {
        let _ = self.refuse();
        Ok(CallToolResult::error(vec![ContentBlock::text("it broke")]))
    }

    /// Catch a panic of its own, then fail with another one.
    #[tool]
    fn second_panic(&self) -> Result<String, ToolError> {
        let _ = std::panic::catch_unwind(|| panic!("caught inside the tool"));
        std::panic::resume_unwind(Box::new("re-raised"))
    }

    /// Wait for a subtask that panics.
    #[tool]
    async fn subtask(&self) -> Result<String, ToolError> {
        let handle = tokio::spawn(async { panic!("the subtask failed") });
        handle.await?;
        Ok("unreachable".to_owned())
    }

    /// Fail with a protocol error that is not a missing capability.
    #[tool]
    async fn protocol(&self) -> Result<String, ToolError> {
        tokio::task::yield_now().await;
        Err(ErrorData::internal_error("database pool exhausted", None))?
    }
}

/// Tools that skip the boundary: rmcp's own `#[tool]`, in a router of
/// their own.
#[rmcp::tool_router(router = bare_tools)]
impl Probe {
    /// A bare rmcp tool that panics.
    #[rmcp::tool]
    fn bare_panic(&self) -> String {
        panic!("bare tool panicked")
    }

    /// A bare rmcp tool that returns a `ToolError`.
    #[rmcp::tool]
    fn bare_tool_error(&self) -> Result<String, ToolError> {
        Err(ToolError::invalid(
            "No note at 'x'",
            "Find the path with search_notes",
        ))
    }

    /// A bare rmcp tool that returns a JSON-RPC error.
    #[rmcp::tool]
    fn bare_error(&self) -> Result<String, ErrorData> {
        Err(ErrorData::internal_error(
            "bare failure at /srv/secret",
            None,
        ))
    }
}

#[tool_handler(router = self.router)]
impl ServerHandler for Probe {}

fn probe() -> Probe {
    Probe {
        router: Probe::wrapped_tools() + Probe::bare_tools(),
    }
}

/// A session with the probe server.
struct Harness(Session);

impl Harness {
    async fn start() -> Harness {
        Harness(Session::connect(probe(), ()).await)
    }

    async fn call(
        &self,
        tool: &'static str,
    ) -> (
        Result<CallToolResult, ServiceError>,
        Vec<outcome_runtime::testing::Record>,
    ) {
        let call = self.0.call(tool, serde_json::json!({})).await;
        (call.result, call.records)
    }
}

fn failed(records: &[outcome_runtime::testing::Record]) -> &outcome_runtime::testing::Record {
    records
        .iter()
        .find(|r| r.name() == "tool_failed")
        .expect("a tool_failed record")
}

fn text(result: &CallToolResult) -> &str {
    &result.content[0].as_text().unwrap().text
}

#[tokio::test]
async fn a_panic_in_a_sync_body_is_a_fault_and_the_server_keeps_serving() {
    let harness = Harness::start().await;
    let (result, records) = harness.call("sync_panic").await;
    let result = result.unwrap();
    assert_eq!(result.is_error, Some(true));
    assert_eq!(text(&result), FAULT_MESSAGE);
    assert_eq!(
        events(&records),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
    let failed = failed(&records);
    assert_eq!(failed.field("error"), Some("index 7 out of range"));
    // The user's line, not the boundary's.
    let line = outcome_tests::line_of(include_str!("boundary.rs"), concat!("PANIC", "_SITE"));
    let location = failed.field("panic.location").unwrap();
    assert!(
        location.starts_with(&format!("{}:{line}:", file!())),
        "{location} is not {}:{line}",
        file!()
    );

    let (again, _) = harness.call("odd_panic").await;
    assert_eq!(text(&again.unwrap()), FAULT_MESSAGE);
}

#[tokio::test]
async fn a_panic_payload_that_is_not_text_is_still_caught() {
    let harness = Harness::start().await;
    let (result, records) = harness.call("odd_panic").await;
    assert_eq!(text(&result.unwrap()), FAULT_MESSAGE);
    assert_eq!(
        events(&records),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
    assert_eq!(
        failed(&records).field("error"),
        Some("a panic whose payload is not text")
    );
}

#[tokio::test]
async fn a_panic_is_never_reported_with_another_panics_location() {
    let harness = Harness::start().await;
    let (result, records) = harness.call("second_panic").await;
    assert_eq!(text(&result.unwrap()), FAULT_MESSAGE);
    let failed = failed(&records);
    assert_eq!(failed.field("error"), Some("re-raised"));
    // `resume_unwind` runs no hook, so there is no location to report, and
    // the caught panic's must not stand in for it.
    assert_eq!(failed.field("panic.location"), None);
}

#[tokio::test]
async fn a_long_unknown_tool_name_is_cut_in_the_log() {
    let harness = Harness::start().await;
    let name: &'static str = Box::leak("x\n".repeat(5000).into_boxed_str());
    let (result, records) = harness.call(name).await;
    assert!(result.is_err());
    let logged = records
        .iter()
        .find(|r| r.name() == "tool_call_failed")
        .and_then(|r| r.field("tool"))
        .unwrap();
    assert!(logged.len() < 400 && !logged.contains('\n'), "{logged}");
}

#[tokio::test]
async fn a_subtask_that_panics_is_a_fault_not_a_hang() {
    let harness = Harness::start().await;
    let (result, records) = harness.call("subtask").await;
    assert_eq!(text(&result.unwrap()), FAULT_MESSAGE);
    assert_eq!(
        events(&records),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
    let failed = failed(&records);
    assert_eq!(
        failed.field("error.type"),
        Some("tokio::runtime::task::error::JoinError")
    );
    assert!(
        failed
            .field("error")
            .unwrap()
            .contains("the subtask failed")
    );
}

#[tokio::test]
async fn an_error_result_built_by_hand_is_still_logged_as_failed() {
    let harness = Harness::start().await;
    let (result, records) = harness.call("by_hand").await;
    assert_eq!(result.unwrap().is_error, Some(true));
    assert_eq!(events(&records), ["ERROR tool_call_failed"]);
}

#[tokio::test]
async fn a_protocol_error_from_a_body_is_a_fault() {
    let harness = Harness::start().await;
    let (result, records) = harness.call("protocol").await;
    let result = result.unwrap();
    assert_eq!(text(&result), FAULT_MESSAGE);
    assert_eq!(
        events(&records),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
    assert!(
        failed(&records)
            .field("error")
            .unwrap()
            .contains("database pool exhausted")
    );
}

#[tokio::test]
async fn an_unknown_tool_stays_a_json_rpc_error_logged_at_info() {
    let harness = Harness::start().await;
    let (result, records) = harness.call("no_such_tool").await;
    let Err(ServiceError::McpError(error)) = result else {
        panic!("expected a JSON-RPC error, got {result:?}");
    };
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(events(&records), ["INFO tool_call_failed"]);
    assert_eq!(
        records
            .iter()
            .find(|r| r.target == "outcome_runtime")
            .unwrap()
            .field("outcome"),
        Some("protocol")
    );
}

#[tokio::test]
async fn tools_that_skip_the_boundary_still_end_in_an_outcome() {
    let harness = Harness::start().await;
    let (result, records) = harness.call("bare_panic").await;
    assert_eq!(text(&result.unwrap()), FAULT_MESSAGE);
    assert_eq!(
        events(&records),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );

    // A `ToolError`'s answer carries its outcome, boundary or not: the
    // call ends as the error says. What a boundary adds is a fault's record.
    let (result, records) = harness.call("bare_tool_error").await;
    assert_eq!(
        text(&result.unwrap()),
        "No note at 'x'. Find the path with search_notes."
    );
    assert_eq!(events(&records), ["INFO tool_call_failed"]);

    let (result, records) = harness.call("bare_error").await;
    let result = result.unwrap();
    assert_eq!(text(&result), FAULT_MESSAGE);
    assert!(!text(&result).contains("/srv/secret"));
    assert_eq!(
        events(&records),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
}

#[tokio::test]
async fn the_model_reads_the_doc_text_before_the_first_heading() {
    let harness = Harness::start().await;
    let tools = harness.0.client.list_all_tools().await.unwrap();
    let double = tools.iter().find(|tool| tool.name == "double").unwrap();
    assert_eq!(
        double.description.as_deref(),
        Some("Return a number, doubled.\n\nNumbers past 4294967295 do not fit.")
    );
    assert_eq!(double.title.as_deref(), Some("Double"));
}

#[tokio::test]
async fn direct_calls_go_through_the_boundary_too() {
    let capture = LogCapture::new();
    let _guard = capture.set_default();
    let error = probe().sync_panic().unwrap_err();
    assert_eq!(error.outcome(), Outcome::Fault);
    assert_eq!(error.message(), FAULT_MESSAGE);
    // The panic, described, is the error's source for the caller.
    let source = error.source().map(ToString::to_string).unwrap_or_default();
    assert!(source.contains("index 7 out of range"), "{source}");
    let error = probe().protocol().await.unwrap_err();
    assert_eq!(error.outcome(), Outcome::Fault);
    let failed: Vec<_> = capture
        .take()
        .into_iter()
        .filter(|r| r.name() == "tool_failed")
        .collect();
    assert_eq!(failed.len(), 2, "one tool_failed per fault: {failed:?}");
}

mod router_cache {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use outcome_runtime::testing::connect;
    use outcome_runtime::{ToolError, tool, tool_handler, tool_router};
    use rmcp::ServerHandler;
    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::model::CallToolRequestParams;

    static BUILT: AtomicUsize = AtomicUsize::new(0);

    struct Counted;

    #[tool_router(router = built_tools)]
    impl Counted {
        /// Say hello.
        #[tool]
        fn hello(&self) -> Result<String, ToolError> {
            Ok("hello".to_owned())
        }
    }

    impl Counted {
        fn counted_router() -> ToolRouter<Self> {
            BUILT.fetch_add(1, Ordering::Relaxed);
            Self::built_tools()
        }
    }

    #[tool_handler(router = Self::counted_router())]
    impl ServerHandler for Counted {}

    #[tokio::test]
    async fn a_router_built_by_a_call_is_built_once() {
        let client = connect(Counted, ()).await.unwrap();
        for _ in 0..3 {
            client.list_all_tools().await.unwrap();
            let result = client
                .call_tool(CallToolRequestParams::new("hello"))
                .await
                .unwrap();
            assert_eq!(result.is_error, Some(false));
        }
        assert_eq!(BUILT.load(Ordering::Relaxed), 1);
    }

    struct Restricted;

    #[tool_router(router = all_tools)]
    impl Restricted {
        /// Say hello.
        #[tool]
        fn hello(&self) -> Result<String, ToolError> {
            Ok("hello".to_owned())
        }

        /// Tell a secret.
        #[tool]
        fn secret(&self) -> Result<String, ToolError> {
            Ok("the secret".to_owned())
        }
    }

    impl Restricted {
        fn restricted_tools() -> ToolRouter<Self> {
            Self::all_tools().with_disabled("secret")
        }
    }

    #[tool_handler(router = Self::restricted_tools())]
    impl ServerHandler for Restricted {}

    /// The router built once knows it has a tool disabled, and finds that
    /// tool no more than rmcp's router would.
    #[tokio::test]
    async fn a_disabled_tool_of_a_router_built_once_is_not_found() {
        let client = connect(Restricted, ()).await.unwrap();
        let error = client
            .call_tool(CallToolRequestParams::new("secret"))
            .await
            .expect_err("a disabled tool is not found");
        let rmcp::service::ServiceError::McpError(error) = error else {
            panic!("expected a JSON-RPC error, got {error:?}");
        };
        assert_eq!(error.message, "tool not found");
        let result = client
            .call_tool(CallToolRequestParams::new("hello"))
            .await
            .unwrap();
        assert_eq!(result.is_error, Some(false));
    }

    /// A name the model sent, found by one lookup in the router built
    /// once: a real tool's name with an invisible character in it, a
    /// megabyte long, is no tool, and reaches the log escaped and cut.
    #[tokio::test]
    async fn a_hostile_name_is_not_found_by_a_router_built_once() {
        // `Counted` has no tool disabled: its calls take the one lookup.
        let session = outcome_tests::Session::connect(Counted, ()).await;
        let name: &'static str = Box::leak(format!("hello\u{200b}{}", "x".repeat(1 << 20)).into());
        let call = session.call(name, serde_json::json!({})).await;
        let Err(rmcp::service::ServiceError::McpError(error)) = &call.result else {
            panic!("expected a JSON-RPC error, got {:?}", call.result);
        };
        assert_eq!(error.message, "tool not found");
        let logged = call.record("tool_call_failed").field("tool").unwrap();
        assert!(logged.starts_with("hello\\u{200b}xxx"), "{logged}");
        assert!(logged.len() < 200, "{} bytes", logged.len());
    }
}

/// A tool that asks the client for input before it answers.
struct Asks;

#[tool_router]
impl Asks {
    /// Ask the client for input first.
    #[tool]
    fn ask(&self) -> Result<CallToolResponse, ToolError> {
        let asked = InputRequiredResult::new(None, Some("round-1".to_owned()));
        Ok(asked.into())
    }
}

#[tool_handler]
impl ServerHandler for Asks {}

/// The client of this session predates input requests, and rmcp answers it
/// with an error instead; the log says what the tool did.
#[tokio::test]
async fn a_call_that_asks_for_input_is_not_logged_as_completed() {
    let session = Session::connect(Asks, ()).await;
    let call = session.call("ask", serde_json::json!({})).await;
    assert_eq!(call.events(), ["INFO tool_call_deferred"]);
    assert_eq!(
        call.record("tool_call_deferred").field("outcome"),
        Some("input_required")
    );
}

/// The call's line says how the body ended: a panic as a panic, and an
/// error the body handed over (calling another tool's method) and then
/// recovered from does not stand for how it ended.
#[tokio::test]
async fn the_call_line_says_how_the_body_itself_ended() {
    let harness = Harness::start().await;
    let line = |records: &[outcome_runtime::testing::Record]| {
        let line = records
            .iter()
            .find(|r| r.name() == "tool_call_failed")
            .expect("a tool_call_failed line")
            .clone();
        (
            line.field("outcome").map(str::to_owned),
            line.field("error.type").map(str::to_owned),
        )
    };

    let (_, records) = harness.call("sync_panic").await;
    assert_eq!(
        line(&records),
        (Some("fault".to_owned()), Some("panic".to_owned()))
    );

    let (result, records) = harness.call("recover_then_panic").await;
    assert_eq!(text(&result.unwrap()), FAULT_MESSAGE);
    assert_eq!(
        events(&records),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
    assert_eq!(
        line(&records),
        (Some("fault".to_owned()), Some("panic".to_owned()))
    );

    // As a result built by hand with nothing before it: nobody classified it.
    let (result, records) = harness.call("recover_then_by_hand").await;
    assert_eq!(text(&result.unwrap()), "it broke");
    assert_eq!(events(&records), ["ERROR tool_call_failed"]);
    assert_eq!(line(&records), (Some("fault".to_owned()), None));
}
