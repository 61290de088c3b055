//! A subscriber that panics, on the runtime's events or on a call's span at
//! any step of its life, leaves no call unanswered: each gets the answer
//! its outcome gives it.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use outcome_runtime::testing::connect;
use outcome_tests::hostile::{hostile, jobs};
use rmcp::model::CallToolRequestParams;
use serde_json::json;

/// A subscriber that panics on every event of the runtime, and records the
/// others.
#[derive(Clone, Default)]
struct Panicking {
    seen: Arc<Mutex<Vec<String>>>,
}

impl tracing::Subscriber for Panicking {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        if event.metadata().target() == "outcome_runtime" {
            self.seen
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(event.metadata().level().to_string());
            panic!("the subscriber panicked");
        }
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[tokio::test]
async fn a_subscriber_that_panics_does_not_leave_a_call_unanswered() {
    let subscriber = Panicking::default();
    let _guard = tracing::subscriber::set_default(subscriber.clone());
    let jobs = jobs();
    let client = connect(hostile(&jobs), ()).await.unwrap();
    for (tool, arguments, error) in [
        ("count", json!({ "limit": 3 }), false),
        ("look_up", json!({ "path": "x" }), true),
        ("unprintable", json!({}), true),
        ("second_panic", json!({}), true),
        ("count", json!({ "limit": "ten" }), true),
    ] {
        let params = CallToolRequestParams::new(tool)
            .with_arguments(arguments.as_object().cloned().unwrap());
        let result = tokio::time::timeout(Duration::from_secs(10), client.call_tool(params))
            .await
            .unwrap_or_else(|_| panic!("{tool} is answered"))
            .unwrap();
        assert_eq!(result.is_error, Some(error), "{tool}");
    }
    assert!(!subscriber.seen.lock().unwrap().is_empty());
}

/// A subscriber that panics when it handles the runtime's spans at `at`:
/// `new_span`, `record`, `enter`, `exit` or `close`.
#[derive(Clone)]
struct PanickingSpans {
    at: &'static str,
    ours: Arc<Mutex<Vec<u64>>>,
    next: Arc<AtomicU32>,
    panicked: Arc<AtomicBool>,
}

impl PanickingSpans {
    fn new(at: &'static str) -> Self {
        PanickingSpans {
            at,
            ours: Arc::default(),
            next: Arc::default(),
            panicked: Arc::default(),
        }
    }

    fn maybe_panic(&self, at: &str, id: &tracing::span::Id) {
        let ours = self.ours.lock().unwrap_or_else(|e| e.into_inner());
        if at == self.at && ours.contains(&id.into_u64()) {
            drop(ours);
            self.panicked.store(true, Ordering::SeqCst);
            panic!("the subscriber panicked at {at}");
        }
    }
}

impl tracing::Subscriber for PanickingSpans {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        let id = u64::from(self.next.fetch_add(1, Ordering::SeqCst)) + 1;
        if span.metadata().target() == "outcome_runtime" {
            if self.at == "new_span" {
                self.panicked.store(true, Ordering::SeqCst);
                panic!("the subscriber panicked at new_span");
            }
            self.ours.lock().unwrap_or_else(|e| e.into_inner()).push(id);
        }
        tracing::span::Id::from_u64(id)
    }
    fn record(&self, id: &tracing::span::Id, _: &tracing::span::Record<'_>) {
        self.maybe_panic("record", id);
    }
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, _: &tracing::Event<'_>) {}
    fn enter(&self, id: &tracing::span::Id) {
        self.maybe_panic("enter", id);
    }
    fn exit(&self, id: &tracing::span::Id) {
        self.maybe_panic("exit", id);
    }
    fn try_close(&self, id: tracing::span::Id) -> bool {
        self.maybe_panic("close", &id);
        true
    }
}

#[tokio::test]
async fn a_subscriber_that_panics_on_the_calls_span_does_not_leave_a_call_unanswered() {
    for at in ["new_span", "record", "enter", "exit", "close"] {
        let subscriber = PanickingSpans::new(at);
        let _guard = tracing::subscriber::set_default(subscriber.clone());
        let jobs = jobs();
        let client = connect(hostile(&jobs), ()).await.unwrap();
        for (tool, arguments, error) in [
            ("count", json!({ "limit": 3 }), false),
            ("look_up", json!({ "path": "x" }), true),
            ("second_panic", json!({}), true),
            ("count", json!({ "limit": "ten" }), true),
            ("no_such_tool", json!({}), true),
            ("job_fine", json!({}), false),
        ] {
            let params = CallToolRequestParams::new(tool)
                .with_arguments(arguments.as_object().cloned().unwrap());
            let result = tokio::time::timeout(Duration::from_secs(10), client.call_tool(params))
                .await
                .unwrap_or_else(|_| {
                    panic!("{tool} is answered when the subscriber panics at {at}")
                });
            match result {
                Ok(result) => assert_eq!(result.is_error, Some(error), "{tool} at {at}"),
                // An unknown tool is a JSON-RPC error.
                Err(_) => assert_eq!(tool, "no_such_tool", "{at}"),
            }
        }
        assert!(subscriber.panicked.load(Ordering::SeqCst), "{at}");
    }
}
