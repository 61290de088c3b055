//! A subscriber whose filter keeps every target's ERROR and the server's
//! own INFO, as servers had one before they migrated, drops this crate's
//! INFO records: the runtime says so once, in a record the filter keeps,
//! with the directive that fixes it. In a binary of its own: the check runs
//! once per process.

use notes::Notes;
use outcome_tests::raw::{RawSession, TextLog};
use serde_json::json;
use tracing_subscriber::filter::{LevelFilter, Targets};

#[tokio::test(flavor = "current_thread")]
async fn a_filter_that_drops_the_crates_info_records_is_told_once_with_the_fix() {
    let filter = Targets::new()
        .with_default(LevelFilter::ERROR)
        .with_target("my_server", LevelFilter::INFO);
    let log = TextLog::filtered(filter);
    let mut session = RawSession::start(Notes::new(false)).await;
    for id in 0..3 {
        let answer = session
            .call(
                json!(id),
                json!({ "name": "read_note", "arguments": { "path": "plan.md" } }),
            )
            .await;
        assert!(answer.get("result").is_some(), "{answer}");
    }
    let plain = log.plain.take();
    let told: Vec<&str> = plain
        .lines()
        .filter(|line| line.contains("log_filter_drops_tool_calls"))
        .collect();
    // ERROR: the filter drops WARNING from this target too.
    assert_eq!(told.len(), 1, "{plain}");
    assert!(told[0].contains(" ERROR "), "{plain}");
    assert!(told[0].contains("add outcome_runtime=info"), "{plain}");
    // And nothing else of this crate's: the calls' lines are what it drops.
    assert!(
        !plain.contains("outcome_runtime: tool_call_completed"),
        "{plain}"
    );
}

#[test]
fn assert_records_kept_fails_under_that_filter_and_passes_with_the_directive() {
    use tracing_subscriber::layer::SubscriberExt;
    let before = Targets::new()
        .with_default(LevelFilter::ERROR)
        .with_target("my_server", LevelFilter::INFO);
    let after = before
        .clone()
        .with_target("outcome_runtime", LevelFilter::INFO);
    let dropped =
        tracing::subscriber::with_default(tracing_subscriber::registry().with(before), || {
            std::panic::catch_unwind(outcome_runtime::testing::assert_records_kept)
        });
    let message = dropped.expect_err("the filter drops the crate's INFO records");
    let message = match message.downcast_ref::<&str>() {
        Some(text) => (*text).to_owned(),
        None => message
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default(),
    };
    assert!(message.contains("add outcome_runtime=info"), "{message}");
    tracing::subscriber::with_default(tracing_subscriber::registry().with(after), || {
        outcome_runtime::testing::assert_records_kept();
    });
}
