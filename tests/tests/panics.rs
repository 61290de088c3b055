//! No panic is silent, and a call logs one `tool_failed` however many
//! panics it holds: a panic caught before another, an error or a body that
//! panics when dropped (after the answer, or cancelled), a panic message of
//! megabytes, cut; and what reaches stderr when nothing records the
//! runtime's events, and when a panic aborts the process.
//!
//! Each stderr case runs in a child process (this test binary, started
//! again with the case in an environment variable), since the panic hook is
//! process-wide and an abort ends the process.

use std::process::{Command, Output};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use outcome_runtime::testing::{LogCapture, Record, connect};
use outcome_runtime::{ToolError, message::FAULT_MESSAGE, tool, tool_handler, tool_router};
use outcome_tests::events;
use outcome_tests::hostile::{RECORD_BOUND, SECOND_PANIC_LINE, WAITING, failed, session};
use rmcp::ServerHandler;
use rmcp::model::CallToolRequestParams;
use serde_json::json;

const CASE: &str = "OUTCOME_PANICS_CASE";

struct Fragile;

/// Panics when dropped, as a value of a body that is unwinding.
struct PanicsOnDrop;

impl Drop for PanicsOnDrop {
    fn drop(&mut self) {
        panic!("a drop panicked while unwinding")
    }
}

#[tool_router]
impl Fragile {
    /// Panic.
    #[tool]
    fn explode(&self) -> Result<String, ToolError> {
        panic!("the tool panicked here")
    }

    /// Panic, with a value that panics when dropped.
    #[tool]
    fn explode_twice(&self) -> Result<String, ToolError> {
        let _value = PanicsOnDrop;
        panic!("the root cause")
    }
}

#[tool_handler]
impl ServerHandler for Fragile {}

/// A subscriber that records nothing from the runtime, as
/// `RUST_LOG=my_server=info` would set it up.
struct OtherTargetsOnly;

impl tracing::Subscriber for OtherTargetsOnly {
    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        !metadata.target().starts_with("outcome_runtime")
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, _: &tracing::Event<'_>) {}
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

/// Calls `tool` on a fresh server and prints the answer to stdout.
fn call(tool: &'static str) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = connect(Fragile, ()).await.unwrap();
        let result = client
            .call_tool(CallToolRequestParams::new(tool))
            .await
            .unwrap();
        println!("answered: is_error={:?}", result.is_error);
    });
}

/// The child's side: runs the case named in the environment. In the parent
/// it does nothing; the tests below start it.
#[test]
fn child() {
    let Ok(case) = std::env::var(CASE) else {
        return;
    };
    match case.as_str() {
        "none" => call("explode"),
        "filtered" => {
            let _guard = tracing::subscriber::set_default(OtherTargetsOnly);
            call("explode");
        }
        "recorded" => {
            let capture = LogCapture::new();
            let _guard = capture.set_default();
            call("explode");
            let failed = capture
                .records()
                .iter()
                .filter(|record| record.name() == "tool_failed")
                .count();
            println!("tool_failed records: {failed}");
        }
        "abort" => {
            let capture = LogCapture::new();
            let _guard = capture.set_default();
            call("explode_twice");
        }
        other => panic!("no case {other}"),
    }
}

fn run(case: &str) -> (Output, String, String) {
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child", "--nocapture", "--test-threads", "1"])
        .env(CASE, case)
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output, stdout, stderr)
}

#[test]
fn with_no_subscriber_a_caught_panic_reaches_stderr_once() {
    let (output, stdout, stderr) = run("none");
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("answered: is_error=Some(true)"), "{stdout}");
    assert_eq!(
        stderr.matches("the tool panicked here").count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("panics.rs:"), "the location: {stderr}");
}

#[test]
fn with_a_filter_that_leaves_the_runtime_out_a_caught_panic_reaches_stderr_once() {
    let (output, stdout, stderr) = run("filtered");
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("answered: is_error=Some(true)"), "{stdout}");
    assert_eq!(
        stderr.matches("the tool panicked here").count(),
        1,
        "{stderr}"
    );
}

#[test]
fn a_recorded_panic_stays_off_stderr() {
    let (output, stdout, stderr) = run("recorded");
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("tool_failed records: 1"), "{stdout}");
    assert!(!stderr.contains("the tool panicked here"), "{stderr}");
}

#[test]
fn a_panic_that_aborts_shows_its_root_cause_first() {
    let (output, stdout, stderr) = run("abort");
    assert!(!output.status.success(), "the process aborts: {stdout}");
    let root = stderr.find("the root cause").unwrap_or_else(|| {
        panic!("the root cause is shown: {stderr}");
    });
    let abort = stderr
        .find("panic in a destructor during cleanup")
        .unwrap_or_else(|| panic!("the abort is shown: {stderr}"));
    assert!(root < abort, "{stderr}");
    assert!(stderr.contains("panics.rs:"), "with its location: {stderr}");
}

// A call logs one tool_failed, however many panics it holds.

#[tokio::test]
async fn a_second_panic_after_a_caught_one_keeps_its_own_location() {
    let (session, _jobs) = session().await;
    let call = session.call("second_panic", json!({})).await;
    assert_eq!(call.text(), FAULT_MESSAGE);
    let failed = call.record("tool_failed");
    assert_eq!(failed.field("error"), Some("the second panic"));
    let line = SECOND_PANIC_LINE.load(Ordering::SeqCst);
    let location = failed.field("panic.location").expect("a location");
    assert!(
        location.contains(&format!("hostile.rs:{line}:")),
        "{location} is not line {line}"
    );
}

#[tokio::test]
async fn an_error_that_panics_when_dropped_is_logged_once() {
    let (session, _jobs) = session().await;
    let call = session.call("drop_panics", json!({})).await;
    assert_eq!(call.text(), FAULT_MESSAGE);
    assert_eq!(
        call.events(),
        ["ERROR tool_failed", "ERROR tool_call_failed"],
        "{:?}",
        call.records
    );
    let next = session.call("look_up", json!({ "path": "a" })).await;
    assert_eq!(next.ok().is_error, Some(true));
}

#[tokio::test]
async fn a_body_that_panics_when_dropped_after_answering_keeps_its_answer() {
    let (session, _jobs) = session().await;
    let call = session.call("answers_then_panics", json!({})).await;
    assert_eq!(call.text(), "done");
    assert_eq!(call.ok().is_error, Some(false));
    assert_eq!(
        call.events(),
        ["ERROR tool_failed", "INFO tool_call_completed"],
        "{:?}",
        call.records
    );
    let failed = failed(&call.records)[0];
    assert_eq!(
        failed.field("error"),
        Some("the finished body panicked when dropped")
    );
    assert_eq!(failed.field("tool"), Some("answers_then_panics"));
    let next = session.call("count", json!({ "limit": 1 })).await;
    assert_eq!(next.text(), "1");
}

#[tokio::test]
async fn a_cancelled_body_that_panics_when_dropped_is_logged_once() {
    let (session, _jobs) = session().await;
    let call = tokio::spawn({
        let peer = session.client.peer().clone();
        async move {
            peer.call_tool(CallToolRequestParams::new("wait_fragile"))
                .await
        }
    });
    let started = Instant::now();
    while !WAITING.load(Ordering::SeqCst) {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the body starts"
        );
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    // Dropping the request makes rmcp's client send a cancellation.
    call.abort();
    let mut records = Vec::new();
    while !records
        .iter()
        .any(|r: &Record| r.name() == "tool_call_cancelled")
    {
        assert!(started.elapsed() < Duration::from_secs(10), "{records:?}");
        tokio::time::sleep(Duration::from_millis(5)).await;
        records.extend(session.capture.take());
    }
    assert_eq!(
        events(&records),
        ["ERROR tool_failed", "INFO tool_call_cancelled"],
        "{records:?}"
    );
    let failed = failed(&records)[0];
    assert_eq!(
        failed.field("error"),
        Some("the cancelled body's value panicked when dropped")
    );
    let next = session.call("count", json!({ "limit": 1 })).await;
    assert_eq!(next.text(), "1");
}

#[tokio::test]
async fn a_ten_megabyte_panic_message_is_logged_cut() {
    let (session, _jobs) = session().await;
    let call = session.call("huge_panic", json!({})).await;
    assert_eq!(call.text(), FAULT_MESSAGE);
    let failed = call.record("tool_failed");
    assert_eq!(failed.field("error.type"), Some("panic"));
    let error = failed.field("error").unwrap();
    assert!(
        error.len() <= RECORD_BOUND,
        "a record of {} bytes",
        error.len()
    );
    assert!(
        error.starts_with("pppp") && error.contains("[cut"),
        "{}",
        &error[error.len() - 80..]
    );
}
