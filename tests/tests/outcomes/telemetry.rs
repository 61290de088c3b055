//! The `tools/call` spans as an OpenTelemetry pipeline records them: one per
//! call, named and attributed after the MCP conventions, an error status
//! for outcome 4 only, and the client's trace context as the parent.

use notes::Notes;
use opentelemetry::trace::{SpanId, SpanKind, Status, TraceId, TracerProvider as _};
use opentelemetry::{KeyValue, Value};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use outcome_runtime::testing::connect;
use rmcp::model::{CallToolRequestParams, RequestMetaObject};
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value as Json, json};
use tracing::subscriber::DefaultGuard;
use tracing_subscriber::layer::SubscriberExt;

/// A notes server and a client in memory, with every span recorded by an
/// OpenTelemetry SDK with an in-memory exporter.
struct Traced {
    client: RunningService<RoleClient, ()>,
    provider: SdkTracerProvider,
    exporter: InMemorySpanExporter,
    _guard: DefaultGuard,
}

impl Traced {
    async fn start() -> Traced {
        let exporter = InMemorySpanExporter::default();
        let provider = SdkTracerProvider::builder()
            .with_simple_exporter(exporter.clone())
            .build();
        let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("tests"));
        let guard = tracing::subscriber::set_default(tracing_subscriber::registry().with(layer));
        let client = connect(Notes::new(false), ())
            .await
            .expect("the client connects");
        Traced {
            client,
            provider,
            exporter,
            _guard: guard,
        }
    }

    async fn call(&self, tool: &'static str, arguments: Json) {
        self.call_with(tool, arguments, None).await;
    }

    async fn call_with(
        &self,
        tool: &'static str,
        arguments: Json,
        meta: Option<RequestMetaObject>,
    ) {
        let mut params = CallToolRequestParams::new(tool);
        if let Json::Object(arguments) = arguments {
            params = params.with_arguments(arguments);
        }
        params.meta = meta;
        // The answer itself is checked by the scenario tests.
        let _ = self.client.call_tool(params).await;
    }

    /// The `tools/call` spans that ended so far.
    fn calls(&self) -> Vec<SpanData> {
        self.provider.force_flush().expect("the spans are flushed");
        self.exporter
            .get_finished_spans()
            .expect("the exporter holds the spans")
            .into_iter()
            .filter(|span| attribute(span, "mcp.method.name").is_some())
            .collect()
    }

    /// The one `tools/call` span of the one call made so far.
    fn only_call(&self) -> SpanData {
        let mut calls = self.calls();
        assert_eq!(calls.len(), 1, "one span per call: {calls:#?}");
        calls.remove(0)
    }
}

fn attribute(span: &SpanData, key: &str) -> Option<String> {
    span.attributes
        .iter()
        .find(|KeyValue { key: k, .. }| k.as_str() == key)
        .map(|KeyValue { value, .. }| match value {
            Value::String(text) => text.to_string(),
            other => format!("{other}"),
        })
}

/// Checks the attributes every `tools/call` span carries, on stdio-like
/// transports.
fn assert_call_span(span: &SpanData, tool: &str) {
    assert_eq!(span.name, format!("tools/call {tool}"));
    assert_eq!(span.span_kind, SpanKind::Server);
    assert_eq!(
        attribute(span, "mcp.method.name").as_deref(),
        Some("tools/call")
    );
    assert_eq!(
        attribute(span, "gen_ai.operation.name").as_deref(),
        Some("execute_tool")
    );
    assert_eq!(attribute(span, "gen_ai.tool.name").as_deref(), Some(tool));
    assert!(
        attribute(span, "jsonrpc.request.id").is_some_and(|id| id.parse::<u64>().is_ok()),
        "{span:#?}"
    );
    // The version this client and server agreed on.
    assert_eq!(
        attribute(span, "mcp.protocol.version").as_deref(),
        Some("2025-11-25")
    );
    assert_eq!(
        attribute(span, "network.transport").as_deref(),
        Some("pipe")
    );
    assert_eq!(attribute(span, "mcp.session.id"), None);
    // tracing's own bookkeeping fields stay out of the attributes.
    assert_eq!(attribute(span, "otel.name"), None);
    assert_eq!(attribute(span, "otel.kind"), None);
}

/// How a call ended, as its span says.
struct Ended {
    outcome: &'static str,
    error_type: Option<&'static str>,
    red: bool,
}

fn assert_ended(span: &SpanData, ended: Ended) {
    assert_eq!(
        attribute(span, "outcome_runtime.outcome").as_deref(),
        Some(ended.outcome),
        "{span:#?}"
    );
    assert_eq!(attribute(span, "error.type").as_deref(), ended.error_type);
    if ended.red {
        assert!(matches!(span.status, Status::Error { .. }), "{span:#?}");
    } else {
        assert_eq!(span.status, Status::Unset, "{span:#?}");
    }
}

fn event_names(span: &SpanData) -> Vec<String> {
    span.events
        .events
        .iter()
        .map(|event| event.name.to_string())
        .collect()
}

#[tokio::test]
async fn a_result_is_a_server_span_with_the_conventions_attributes_and_no_status() {
    let traced = Traced::start().await;
    traced.call("read_note", json!({ "path": "plan.md" })).await;
    let span = traced.only_call();
    assert_call_span(&span, "read_note");
    assert_ended(
        &span,
        Ended {
            outcome: "result",
            error_type: None,
            red: false,
        },
    );
    assert_eq!(attribute(&span, "rpc.response.status_code"), None);
    // The request log stays, inside the span.
    assert_eq!(event_names(&span), ["tool_call_completed"]);
}

#[tokio::test]
async fn outcomes_two_and_three_are_tool_errors_that_are_not_painted_red() {
    for (tool, arguments, outcome) in [
        ("read_note", json!({ "path": "inbox/todo.md" }), "invalid"),
        (
            "write_note",
            json!({ "path": "plan.md", "text": "x", "if_match": "a1b2" }),
            "stale",
        ),
        ("export_notes", json!({}), "invalid"),
    ] {
        let traced = Traced::start().await;
        traced.call(tool, arguments).await;
        let span = traced.only_call();
        assert_call_span(&span, tool);
        assert_ended(
            &span,
            Ended {
                outcome,
                error_type: Some("tool_error"),
                red: false,
            },
        );
        assert_eq!(event_names(&span), ["tool_call_failed"]);
    }
}

#[tokio::test]
async fn outcome_four_is_red_whether_it_heals_itself_or_not() {
    for (tool, arguments, events) in [
        (
            "sync_notes",
            json!({ "remote": "broken" }),
            &["tool_failed", "tool_call_failed"][..],
        ),
        (
            "sync_notes",
            json!({ "remote": "timeout" }),
            &["tool_failed", "tool_call_failed"][..],
        ),
        (
            "sync_notes",
            json!({ "remote": "panic" }),
            &["tool_failed", "tool_call_failed"][..],
        ),
        (
            "reindex",
            json!({}),
            &["tool_failed", "tool_call_failed"][..],
        ),
    ] {
        let traced = Traced::start().await;
        traced.call(tool, arguments.clone()).await;
        let span = traced.only_call();
        assert_call_span(&span, tool);
        assert_ended(
            &span,
            Ended {
                outcome: "fault",
                error_type: Some("tool_error"),
                red: true,
            },
        );
        // The fault's record, with its cause, is an event of the span.
        assert_eq!(event_names(&span), events, "{tool} {arguments}");
    }
}

#[tokio::test]
async fn a_call_that_fails_before_its_body_runs_has_its_span() {
    let traced = Traced::start().await;
    traced.call("read_note", json!({ "path": 42 })).await;
    let span = traced.only_call();
    assert_call_span(&span, "read_note");
    assert_ended(
        &span,
        Ended {
            outcome: "invalid",
            error_type: Some("tool_error"),
            red: false,
        },
    );
}

#[tokio::test]
async fn a_protocol_error_carries_its_code_and_is_not_red() {
    let traced = Traced::start().await;
    traced.call("no_such_tool", json!({})).await;
    traced
        .call("summarize_note", json!({ "path": "plan.md" }))
        .await;
    let calls = traced.calls();
    assert_eq!(calls.len(), 2, "{calls:#?}");
    for (span, tool, code) in [
        (&calls[0], "no_such_tool", "-32602"),
        (&calls[1], "summarize_note", "-32021"),
    ] {
        assert_call_span(span, tool);
        assert_ended(
            span,
            Ended {
                outcome: "protocol",
                error_type: Some(code),
                red: false,
            },
        );
        assert_eq!(
            attribute(span, "rpc.response.status_code").as_deref(),
            Some(code)
        );
    }
}

#[tokio::test]
async fn every_call_has_exactly_one_span() {
    let traced = Traced::start().await;
    let calls = [
        ("read_note", json!({ "path": "plan.md" })),
        ("read_note", json!({})),
        ("search_notes", json!({ "query": "zzz" })),
        ("sync_notes", json!({ "remote": "panic" })),
        ("no_such_tool", json!({})),
        ("write_note", json!({ "path": "new.md", "text": "x" })),
    ];
    for (tool, arguments) in calls.clone() {
        traced.call(tool, arguments).await;
    }
    let spans = traced.calls();
    let tools: Vec<String> = spans
        .iter()
        .map(|span| attribute(span, "gen_ai.tool.name").unwrap())
        .collect();
    assert_eq!(tools, calls.clone().map(|(tool, _)| tool));
    let mut ids: Vec<String> = spans
        .iter()
        .map(|span| attribute(span, "jsonrpc.request.id").unwrap())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), calls.len(), "each span has its own request id");
    // Each call starts a trace of its own when the client sends none.
    let traces: std::collections::HashSet<TraceId> = spans
        .iter()
        .map(|span| span.span_context.trace_id())
        .collect();
    assert_eq!(traces.len(), calls.len());
}

#[tokio::test]
async fn the_clients_traceparent_is_the_parent_of_the_call() {
    let traced = Traced::start().await;
    let mut meta = RequestMetaObject::new();
    meta.set_traceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
    meta.set_tracestate("vendor=opaque");
    traced
        .call_with("read_note", json!({ "path": "plan.md" }), Some(meta))
        .await;
    let span = traced.only_call();
    assert_eq!(
        span.span_context.trace_id(),
        TraceId::from_hex("0af7651916cd43dd8448eb211c80319c").unwrap()
    );
    assert_eq!(
        span.parent_span_id,
        SpanId::from_hex("b7ad6b7169203331").unwrap()
    );
    assert!(span.parent_span_is_remote);
    assert!(span.span_context.is_sampled());
    assert_eq!(
        span.span_context.trace_state().get("vendor"),
        Some("opaque")
    );
}

#[tokio::test]
async fn a_malformed_traceparent_starts_a_trace_of_its_own() {
    let traced = Traced::start().await;
    let mut meta = RequestMetaObject::new();
    meta.set_traceparent("00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01");
    traced
        .call_with("read_note", json!({ "path": "plan.md" }), Some(meta))
        .await;
    let span = traced.only_call();
    assert_ne!(
        span.span_context.trace_id(),
        TraceId::from_hex("0af7651916cd43dd8448eb211c80319c").unwrap()
    );
    assert_eq!(span.parent_span_id, SpanId::INVALID);
    assert_ended(
        &span,
        Ended {
            outcome: "result",
            error_type: None,
            red: false,
        },
    );
}

#[tokio::test]
async fn a_job_works_in_a_child_span_that_ends_with_the_work_not_the_call() {
    let traced = Traced::start().await;
    traced.call("rebuild_backlinks", json!({})).await;
    let call = traced.only_call();
    assert_ended(
        &call,
        Ended {
            outcome: "deferred",
            error_type: None,
            red: false,
        },
    );
    tokio::time::sleep(notes::BACKLINKS_WORK * 2).await;
    traced.provider.force_flush().unwrap();
    let spans = traced.exporter.get_finished_spans().unwrap();
    let job = spans
        .iter()
        .find(|span| span.name == "job rebuild_backlinks")
        .unwrap_or_else(|| panic!("a job span: {spans:#?}"));
    assert_eq!(job.span_kind, SpanKind::Internal);
    assert_eq!(
        attribute(job, "jsonrpc.request.id"),
        attribute(&call, "jsonrpc.request.id")
    );
    assert_eq!(job.span_context.trace_id(), call.span_context.trace_id());
    assert_eq!(job.parent_span_id, call.span_context.span_id());
    assert!(job.end_time > call.end_time, "the call answered first");
    assert_ended(
        job,
        Ended {
            outcome: "result",
            error_type: None,
            red: false,
        },
    );
    assert_eq!(event_names(job), ["tool_call_completed"]);
}
