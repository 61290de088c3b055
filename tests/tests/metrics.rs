//! The `mcp.server.operation.duration` histogram, as an OpenTelemetry SDK
//! with an in-memory exporter records it. One test in a binary of its own:
//! the histogram comes from the global meter provider, set once.

use notes::Notes;
use opentelemetry::{KeyValue, Value};
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, HistogramDataPoint, MetricData};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
use outcome_runtime::testing::connect;
use rmcp::model::CallToolRequestParams;
use serde_json::json;

fn attribute(point: &HistogramDataPoint<f64>, key: &str) -> Option<String> {
    point
        .attributes()
        .find(|KeyValue { key: k, .. }| k.as_str() == key)
        .map(|KeyValue { value, .. }| match value {
            Value::String(text) => text.to_string(),
            other => format!("{other}"),
        })
}

#[tokio::test]
async fn every_call_is_recorded_in_seconds_with_the_conventions_attributes() {
    let exporter = InMemoryMetricExporter::default();
    let provider = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(exporter.clone()).build())
        .build();
    opentelemetry::global::set_meter_provider(provider.clone());

    let client = connect(Notes::new(false), ()).await.unwrap();
    // A flood of made-up names, past the SDK's 2,000 series an instrument
    // keeps: an unknown tool is one series, and the real tools after it
    // keep their own.
    for n in 0..2_100 {
        let _ = client
            .call_tool(CallToolRequestParams::new(format!("made_up_{n}")))
            .await;
    }
    let calls = [
        ("read_note", json!({ "path": "plan.md" })),
        ("read_note", json!({ "path": "plan.md" })),
        ("read_note", json!({ "path": "inbox/todo.md" })),
        ("sync_notes", json!({ "remote": "broken" })),
        ("no_such_tool", json!({})),
    ];
    for (tool, arguments) in calls {
        let mut params = CallToolRequestParams::new(tool);
        if let serde_json::Value::Object(arguments) = arguments {
            params = params.with_arguments(arguments);
        }
        let _ = client.call_tool(params).await;
    }
    provider.force_flush().unwrap();

    let metrics = exporter.get_finished_metrics().unwrap();
    let histogram = metrics
        .iter()
        .flat_map(|resource| resource.scope_metrics())
        .filter(|scope| scope.scope().name() == "outcome-runtime")
        .flat_map(|scope| scope.metrics())
        .find(|metric| metric.name() == "mcp.server.operation.duration")
        .unwrap_or_else(|| panic!("the duration histogram: {metrics:#?}"));
    assert_eq!(histogram.unit(), "s");
    let AggregatedMetrics::F64(MetricData::Histogram(histogram)) = histogram.data() else {
        panic!("a histogram of f64: {histogram:#?}");
    };

    // One series per tool and ending; the two equal calls share one.
    let mut series: Vec<(String, String, Option<String>, u64)> = histogram
        .data_points()
        .map(|point| {
            assert_eq!(
                attribute(point, "mcp.method.name").as_deref(),
                Some("tools/call")
            );
            assert_eq!(
                attribute(point, "gen_ai.operation.name").as_deref(),
                Some("execute_tool")
            );
            assert_eq!(
                attribute(point, "network.transport").as_deref(),
                Some("pipe")
            );
            assert_eq!(
                attribute(point, "mcp.protocol.version").as_deref(),
                Some("2025-11-25")
            );
            // Request and session ids would make a series per call.
            assert_eq!(attribute(point, "jsonrpc.request.id"), None);
            assert_eq!(attribute(point, "mcp.session.id"), None);
            // Seconds: no in-memory call takes a second.
            assert!(point.sum() < point.count() as f64, "{point:?}");
            assert!(point.bounds().any(|bound| bound == 300.0));
            (
                attribute(point, "gen_ai.tool.name").unwrap(),
                attribute(point, "outcome_runtime.outcome").unwrap(),
                attribute(point, "error.type"),
                point.count(),
            )
        })
        .collect();
    series.sort();
    let expected = [
        ("_OTHER", "protocol", Some("-32602"), 2_101),
        ("read_note", "invalid", Some("tool_error"), 1),
        ("read_note", "result", None, 2),
        ("sync_notes", "fault", Some("tool_error"), 1),
    ]
    .map(|(tool, outcome, error, count)| {
        (
            tool.to_owned(),
            outcome.to_owned(),
            error.map(str::to_owned),
            count,
        )
    });
    assert_eq!(series, expected);
}
