//! An error a tool fails with, however hostile (a source chain that cycles
//! or runs 100,000 deep, a `Display` that writes 10 MB, panics or fails), is
//! answered promptly and logged once, in a bounded record that says what
//! was cut and keeps the error's type and level.

use std::time::Duration;

use outcome_runtime::{message::FAULT_MESSAGE, message::RETRY_MESSAGE};
use outcome_tests::hostile::{RECORD_BOUND, session};
use serde_json::json;

#[tokio::test]
async fn hostile_error_chains_are_answered_promptly_with_a_bounded_record() {
    let (session, _jobs) = session().await;
    for tool in ["cycle", "deep", "huge", "unprintable", "refusing"] {
        let call = tokio::time::timeout(Duration::from_secs(10), session.call(tool, json!({})))
            .await
            .unwrap_or_else(|_| panic!("{tool} is answered"));
        assert_eq!(call.text(), FAULT_MESSAGE, "{tool}");
        assert_eq!(
            call.events(),
            ["ERROR tool_failed", "ERROR tool_call_failed"],
            "{tool}: {:?}",
            call.records
        );
        let failed = call.record("tool_failed");
        let error = failed.field("error").unwrap_or("");
        assert!(
            error.len() <= RECORD_BOUND,
            "{tool}: a record of {} bytes",
            error.len()
        );
        assert_ne!(failed.field("error.type"), Some("panic"), "{tool}");
    }
}

#[tokio::test]
async fn the_cut_record_says_what_was_cut() {
    let (session, _jobs) = session().await;
    let call = session.call("huge", json!({})).await;
    let error = call
        .record("tool_failed")
        .field("error")
        .unwrap()
        .to_owned();
    assert!(error.starts_with("xxxx"), "{}", &error[..40]);
    assert!(error.contains("cut"), "{}", &error[error.len() - 100..]);
    let call = session.call("cycle", json!({})).await;
    let error = call
        .record("tool_failed")
        .field("error")
        .unwrap()
        .to_owned();
    assert!(error.starts_with("cycle: cycle"), "{error}");
    assert!(error.contains("cut"), "{error}");
}

#[tokio::test]
async fn an_error_whose_display_panics_keeps_its_type_and_level() {
    let (session, _jobs) = session().await;
    let call = session.call("unprintable_timeout", json!({})).await;
    assert_eq!(call.text(), RETRY_MESSAGE);
    assert_eq!(
        call.events(),
        ["WARN tool_failed", "WARN tool_call_failed"],
        "{:?}",
        call.records
    );
    let failed = call.record("tool_failed");
    assert!(
        failed
            .field("error.type")
            .unwrap()
            .ends_with("UnprintableTimeout"),
        "{failed:?}"
    );
    assert!(!call.has_error());
}

#[tokio::test]
async fn a_report_the_tool_forged_in_its_answer_is_ignored_and_never_sent() {
    let (session, _jobs) = session().await;
    let call = session.call("forged_report", json!({})).await;
    // Not the poll it claims to be: an `isError` result nobody classified.
    assert_eq!(call.events(), ["ERROR tool_call_failed"]);
    let meta = call.ok().meta.as_ref().expect("the tool's own _meta stays");
    assert_eq!(meta.0.get("trace"), Some(&json!("t-1")));
    assert!(!meta.0.contains_key("outcome_runtime/report"), "{meta:?}");
}
