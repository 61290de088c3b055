//! One test per row of the notes scenario: the wire result the client gets
//! and the log records of that call, the same over each transport. Every
//! test runs twice: `memory::<test>` in memory, `http::<test>` over rmcp's
//! streamable HTTP transport on a loopback port.

use outcome_runtime::{message::FAULT_MESSAGE, message::RETRY_MESSAGE};
use outcome_tests::{Session, http_transport};
use rmcp::model::ErrorCode;
use rmcp::service::ServiceError;
use serde_json::json;

/// How the test's client reaches the notes server.
#[derive(Clone, Copy, Debug)]
enum Transport {
    /// An in-memory pipe.
    Memory,
    /// Streamable HTTP on a loopback port.
    Http,
}

impl Transport {
    /// Starts a notes server (`export` as `--export`) and connects a client
    /// to it over this transport.
    async fn start(self, export: bool) -> Session {
        match self {
            Transport::Memory => Session::start(export).await,
            Transport::Http => http_transport::start(export).await,
        }
    }
}

/// Runs each scenario test, an `async fn(Transport)`, once per transport:
/// as `memory::<test>` and as `http::<test>`.
macro_rules! over_each_transport {
    ($($test:ident),* $(,)?) => {
        /// The scenario in memory.
        mod memory {
            $(
                #[tokio::test]
                async fn $test() {
                    super::$test(super::Transport::Memory).await;
                }
            )*
        }

        /// The scenario over streamable HTTP.
        mod http {
            $(
                #[tokio::test]
                async fn $test() {
                    super::$test(super::Transport::Http).await;
                }
            )*
        }
    };
}

over_each_transport![
    read_note_returns_the_note,
    read_note_of_a_missing_path_says_how_to_find_it,
    an_empty_search_is_a_result,
    write_note_creates_a_note_with_a_new_version,
    overwriting_without_if_match_names_if_match_and_read_note,
    a_stale_if_match_says_resending_fails_and_where_to_refresh,
    export_is_off_by_default_and_the_model_learns_what_to_do_instead,
    reindex_heals_itself_and_says_to_retry_in_a_minute,
    an_upstream_timeout_heals_itself,
    an_upstream_rate_limit_heals_itself,
    a_broken_upstream_is_an_operator_fault_and_its_cause_stays_in_the_log,
    a_panic_after_an_await_is_a_fault_and_the_next_call_is_served,
    summarize_without_sampling_passes_the_missing_capability_through,
    read_note_without_a_string_path_names_path_and_what_it_must_be,
    rebuild_backlinks_answers_with_a_job_and_the_poll_reads_its_result,
];

async fn read_note_returns_the_note(transport: Transport) {
    let session = transport.start(false).await;
    let call = session
        .call("read_note", json!({ "path": "plan.md" }))
        .await;
    assert_eq!(call.ok().is_error, Some(false));
    assert_eq!(
        call.ok().structured_content,
        Some(json!({ "text": "# Plan", "version": "v1" }))
    );
    assert_eq!(call.events(), ["INFO tool_call_completed"]);
    let record = call.record("tool_call_completed");
    assert_eq!(record.field("tool"), Some("read_note"));
    assert_eq!(record.field("outcome"), Some("result"));
    assert!(record.field("duration_ms").is_some());
    assert!(!call.has_error());
}

async fn read_note_of_a_missing_path_says_how_to_find_it(transport: Transport) {
    let session = transport.start(false).await;
    let call = session
        .call("read_note", json!({ "path": "inbox/todo.md" }))
        .await;
    assert_eq!(call.ok().is_error, Some(true));
    assert_eq!(
        call.text(),
        "No note at 'inbox/todo.md'. Find the path with search_notes."
    );
    assert_eq!(call.events(), ["INFO tool_call_failed"]);
    assert_eq!(
        call.record("tool_call_failed").field("outcome"),
        Some("invalid")
    );
    assert!(!call.has_error());
}

async fn an_empty_search_is_a_result(transport: Transport) {
    let session = transport.start(false).await;
    let call = session
        .call("search_notes", json!({ "query": "zzz" }))
        .await;
    assert_eq!(call.ok().is_error, Some(false));
    assert_eq!(call.ok().structured_content, Some(json!({ "paths": [] })));
    assert_eq!(call.events(), ["INFO tool_call_completed"]);
    assert!(!call.has_error());
}

async fn write_note_creates_a_note_with_a_new_version(transport: Transport) {
    let session = transport.start(false).await;
    let call = session
        .call("write_note", json!({ "path": "new.md", "text": "x" }))
        .await;
    assert_eq!(call.ok().is_error, Some(false));
    let version = call.ok().structured_content.as_ref().unwrap()["version"].clone();
    assert!(version.is_string() && version != "v1", "{version}");
    assert_eq!(call.events(), ["INFO tool_call_completed"]);

    let read = session.call("read_note", json!({ "path": "new.md" })).await;
    assert_eq!(
        read.ok().structured_content,
        Some(json!({ "text": "x", "version": version }))
    );
}

async fn overwriting_without_if_match_names_if_match_and_read_note(transport: Transport) {
    let session = transport.start(false).await;
    let call = session
        .call("write_note", json!({ "path": "plan.md", "text": "x" }))
        .await;
    assert_eq!(call.ok().is_error, Some(true));
    assert_eq!(
        call.text(),
        "Note 'plan.md' exists, and replacing it needs its version. Call read_note for the \
         current version, then call write_note again with it as if_match."
    );
    assert_eq!(call.events(), ["INFO tool_call_failed"]);
    assert_eq!(
        call.record("tool_call_failed").field("outcome"),
        Some("invalid")
    );
    assert!(!call.has_error());
}

async fn a_stale_if_match_says_resending_fails_and_where_to_refresh(transport: Transport) {
    let session = transport.start(false).await;
    let call = session
        .call(
            "write_note",
            json!({ "path": "plan.md", "text": "x", "if_match": "a1b2" }),
        )
        .await;
    assert_eq!(call.ok().is_error, Some(true));
    assert_eq!(
        call.text(),
        "Note 'plan.md' changed since version 'a1b2', so resending this call fails again. \
         Call read_note for the current text and version, reapply the edit, and pass the \
         new version as if_match."
    );
    assert_eq!(call.events(), ["INFO tool_call_failed"]);
    assert_eq!(
        call.record("tool_call_failed").field("outcome"),
        Some("stale")
    );
    assert!(!call.has_error());
}

async fn export_is_off_by_default_and_the_model_learns_what_to_do_instead(transport: Transport) {
    let session = transport.start(false).await;
    let call = session.call("export_notes", json!({})).await;
    assert_eq!(call.ok().is_error, Some(true));
    assert_eq!(
        call.text(),
        "Exporting notes is turned off in this deployment. List the paths with search_notes \
         and read each note with read_note instead."
    );
    assert_eq!(call.events(), ["INFO tool_call_failed"]);
    assert_eq!(
        call.record("tool_call_failed").field("outcome"),
        Some("invalid")
    );

    let session = transport.start(true).await;
    let call = session.call("export_notes", json!({})).await;
    assert_eq!(call.ok().structured_content, Some(json!({ "count": 2 })));
}

async fn reindex_heals_itself_and_says_to_retry_in_a_minute(transport: Transport) {
    let session = transport.start(false).await;
    let call = session.call("reindex", json!({})).await;
    assert_eq!(call.ok().is_error, Some(true));
    assert_eq!(
        call.text(),
        "The search index is rebuilding, and the request itself was fine. Call reindex again \
         in a minute."
    );
    assert_eq!(call.events(), ["WARN tool_failed", "WARN tool_call_failed"]);
    assert_eq!(
        call.record("tool_call_failed").field("outcome"),
        Some("fault")
    );
    assert!(!call.has_error());
}

async fn an_upstream_timeout_heals_itself(transport: Transport) {
    let session = transport.start(false).await;
    let call = session
        .call("sync_notes", json!({ "remote": "timeout" }))
        .await;
    assert_eq!(call.ok().is_error, Some(true));
    assert_eq!(call.text(), RETRY_MESSAGE);
    assert_eq!(call.events(), ["WARN tool_failed", "WARN tool_call_failed"]);
    let failed = call.record("tool_failed");
    assert_eq!(failed.field("tool"), Some("sync_notes"));
    assert!(
        failed
            .field("error")
            .unwrap()
            .contains("did not answer within 30s")
    );
    assert!(!call.has_error());
}

async fn an_upstream_rate_limit_heals_itself(transport: Transport) {
    let session = transport.start(false).await;
    let call = session
        .call("sync_notes", json!({ "remote": "rate-limited" }))
        .await;
    assert_eq!(call.ok().is_error, Some(true));
    assert_eq!(call.text(), RETRY_MESSAGE);
    assert_eq!(call.events(), ["WARN tool_failed", "WARN tool_call_failed"]);
    assert!(
        call.record("tool_failed")
            .field("error")
            .unwrap()
            .contains("HTTP 429")
    );
    assert!(!call.has_error());
}

async fn a_broken_upstream_is_an_operator_fault_and_its_cause_stays_in_the_log(
    transport: Transport,
) {
    let session = transport.start(false).await;
    let call = session
        .call("sync_notes", json!({ "remote": "broken" }))
        .await;
    assert_eq!(call.ok().is_error, Some(true));
    assert_eq!(call.text(), FAULT_MESSAGE);
    for secret in ["/srv/notes", ".secrets", "token", "sk-live", "permission"] {
        assert!(!call.text().contains(secret), "{secret} reached the model");
    }
    assert_eq!(
        call.events(),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
    let failed = call.record("tool_failed");
    assert_eq!(failed.field("outcome"), Some("fault"));
    assert_eq!(
        failed.field("error"),
        Some(
            "pulling from remote broken failed: open /srv/notes/.secrets/token: permission \
             denied (token=sk-live-7f3a9c)"
        )
    );
    assert_eq!(failed.field("error.type"), Some("notes::server::SyncError"));
    let call_failed = call.record("tool_call_failed");
    assert_eq!(call_failed.field("outcome"), Some("fault"));
    assert_eq!(call_failed.field("error.type"), failed.field("error.type"));
}

async fn a_panic_after_an_await_is_a_fault_and_the_next_call_is_served(transport: Transport) {
    let session = transport.start(false).await;
    let call = session
        .call("sync_notes", json!({ "remote": "panic" }))
        .await;
    assert_eq!(call.ok().is_error, Some(true));
    assert_eq!(call.text(), FAULT_MESSAGE);
    assert_eq!(
        call.events(),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
    let failed = call.record("tool_failed");
    assert_eq!(failed.field("error.type"), Some("panic"));
    assert_eq!(
        failed.field("error"),
        Some("sync state for remote \"panic\" is corrupt")
    );
    let line = outcome_tests::line_of(notes::SERVER_SOURCE, r#""panic" => panic!("#);
    let location = failed.field("panic.location").unwrap();
    assert!(
        location.contains(&format!("notes/src/server.rs:{line}:")),
        "{location} is not the notes server's line {line}"
    );

    let next = session
        .call("read_note", json!({ "path": "plan.md" }))
        .await;
    assert_eq!(next.ok().is_error, Some(false));
    assert_eq!(next.events(), ["INFO tool_call_completed"]);
}

async fn summarize_without_sampling_passes_the_missing_capability_through(transport: Transport) {
    let session = transport.start(false).await;
    let call = session
        .call("summarize_note", json!({ "path": "plan.md" }))
        .await;
    let Err(ServiceError::McpError(error)) = &call.result else {
        panic!("expected a JSON-RPC error, got {:?}", call.result);
    };
    assert_eq!(error.code, ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY);
    assert_eq!(call.events(), ["INFO tool_call_failed"]);
    let record = call.record("tool_call_failed");
    assert_eq!(record.field("outcome"), Some("protocol"));
    assert_eq!(record.field("error.code"), Some("-32021"));
    assert!(!call.has_error());
}

async fn read_note_without_a_string_path_names_path_and_what_it_must_be(transport: Transport) {
    let session = transport.start(false).await;
    let missing = session.call("read_note", json!({})).await;
    assert_eq!(missing.ok().is_error, Some(true));
    assert_eq!(
        missing.text(),
        "The argument path of read_note is missing, and it must be a string. Call read_note \
         again with path set."
    );
    assert_eq!(missing.events(), ["INFO tool_call_failed"]);
    assert_eq!(
        missing.record("tool_call_failed").field("outcome"),
        Some("invalid")
    );

    let number = session.call("read_note", json!({ "path": 42 })).await;
    assert_eq!(
        number.text(),
        "The argument path of read_note was '42', but it must be a string. Call read_note \
         again with path as a string."
    );
    assert_eq!(number.events(), ["INFO tool_call_failed"]);
    for text in [missing.text(), number.text()] {
        for leak in ["deserialize", "String", "invalid type", "expected"] {
            assert!(!text.contains(leak), "{leak} in {text}");
        }
    }
    assert!(!missing.has_error() && !number.has_error());
}

/// Not a row of the table: the notes server's long-running tool, answered
/// with a job past its deadline and read back through `job_status`.
async fn rebuild_backlinks_answers_with_a_job_and_the_poll_reads_its_result(transport: Transport) {
    let session = transport.start(false).await;
    let call = session.call("rebuild_backlinks", json!({})).await;
    assert_eq!(call.ok().is_error, Some(false));
    // The job id is random: read it back, then check the whole text.
    let job = call
        .text()
        .strip_prefix("The work goes on as job '")
        .and_then(|rest| rest.split('\'').next())
        .expect("the answer names the job")
        .to_owned();
    assert!(job.starts_with("j-") && job.len() == 34, "{job}");
    assert_eq!(
        call.text(),
        format!(
            "The work goes on as job '{job}'. Call job_status with job set to '{job}' in a \
             few seconds for its result."
        )
    );
    assert_eq!(call.events(), ["INFO tool_call_deferred"]);

    tokio::time::sleep(notes::BACKLINKS_WORK * 2).await;
    let poll = session.call("job_status", json!({ "job": job })).await;
    assert_eq!(poll.ok().structured_content, Some(json!({ "links": 0 })));
    assert_eq!(
        poll.events(),
        ["INFO tool_call_completed", "INFO tool_call_completed"]
    );
    assert!(!poll.has_error());
}
