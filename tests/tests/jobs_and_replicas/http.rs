//! The notes server over rmcp's streamable HTTP transport, many sessions at
//! once: each session reads its own answers and its own jobs, and the log
//! records of its calls carry its session id. One server value serves every
//! session, as the notes example deploys it, so the note store is shared.

use std::collections::BTreeMap;
use std::time::Duration;

use notes::{BACKLINKS_WORK, Notes};
use outcome_runtime::message::RETRY_MESSAGE;
use outcome_runtime::testing::Record;
use outcome_tests::{Call, Session};
use serde_json::{Value, json};

use outcome_tests::http_transport::{self, HttpServer};

/// A record as `LEVEL name tool outcome`.
fn line(record: &Record) -> String {
    format!(
        "{} {} {} {}",
        record.level,
        record.name(),
        record.field("tool").unwrap_or("-"),
        record.field("outcome").unwrap_or("-")
    )
}

/// The session ids of `sessions`, as their clients sent them; panics unless
/// each sent one, and no two the same.
fn session_ids(sessions: &[Session]) -> Vec<String> {
    let ids: Vec<String> = sessions
        .iter()
        .map(|session| session.session_id().expect("the client sent a session id"))
        .collect();
    for (at, id) in ids.iter().enumerate() {
        assert!(!id.is_empty());
        assert!(!ids[..at].contains(id), "two sessions share the id {id}");
    }
    ids
}

/// The runtime's records written inside a `tools/call`, as [`line`]s,
/// grouped by the session id of the call's span.
fn lines_by_session(records: &[Record]) -> BTreeMap<String, Vec<String>> {
    let mut by_session: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for record in in_calls(records) {
        let session = record
            .span_field("mcp.session.id")
            .unwrap_or_else(|| panic!("no session id on {record:?}"));
        // The span says how the call came.
        assert_eq!(record.span_field("network.transport"), Some("tcp"));
        assert_eq!(record.span_field("network.protocol.name"), Some("http"));
        assert_eq!(record.span_field("network.protocol.version"), Some("1.1"));
        by_session
            .entry(session.to_owned())
            .or_default()
            .push(line(record));
    }
    by_session
}

/// The runtime's records written inside the span of a `tools/call`.
fn in_calls(records: &[Record]) -> impl Iterator<Item = &Record> {
    records.iter().filter(|record| {
        record.target == "outcome_runtime"
            && record.span_field("mcp.method.name") == Some("tools/call")
    })
}

/// The job a deferred answer names.
fn job_of(call: &Call) -> String {
    call.text()
        .strip_prefix("The work goes on as job '")
        .and_then(|rest| rest.split('\'').next())
        .expect("the answer names the job")
        .to_owned()
}

/// Polls `job` in `session`, leaving the records in the capture.
async fn poll(session: &Session, job: &str) -> Call {
    session
        .call_leaving_records("job_status", json!({ "job": job }))
        .await
}

/// What the model reads when polling a job this session cannot see.
fn unknown_job(job: &str) -> String {
    format!(
        "No result is kept for job '{job}': a result is kept for 300 seconds after its work \
         ends, and the server may have lost this one. The work may have taken effect, so tell \
         the user before you call the tool that started it again."
    )
}

/// One session's part of the concurrent test: three calls on a note of its
/// own, then a call whose outcome no other session's call has. Returns the
/// lines the session's calls must log.
async fn script(session: &Session, index: usize) -> Vec<String> {
    let path = format!("s{index}.md");
    let text = format!("note {index}");
    let write = session
        .call_leaving_records("write_note", json!({ "path": path, "text": text }))
        .await;
    let version = write.ok().structured_content.as_ref().unwrap()["version"].clone();
    let read = session
        .call_leaving_records("read_note", json!({ "path": path }))
        .await;
    assert_eq!(
        read.ok().structured_content,
        Some(json!({ "text": text, "version": version })),
        "session {index} read another session's answer"
    );
    let search = session
        .call_leaving_records("search_notes", json!({ "query": text }))
        .await;
    assert_eq!(
        search.ok().structured_content,
        Some(json!({ "paths": [path] })),
        "session {index}"
    );

    let mut lines = vec![
        "INFO tool_call_completed write_note result".to_owned(),
        "INFO tool_call_completed read_note result".to_owned(),
        "INFO tool_call_completed search_notes result".to_owned(),
    ];
    let own: &[&str] = match index {
        0 => {
            let call = session
                .call_leaving_records("read_note", json!({ "path": "gone-0.md" }))
                .await;
            assert_eq!(
                call.text(),
                "No note at 'gone-0.md'. Find the path with search_notes."
            );
            &["INFO tool_call_failed read_note invalid"]
        }
        1 => {
            let stale = json!({ "path": path, "text": "x", "if_match": "v0" });
            let call = session.call_leaving_records("write_note", stale).await;
            assert!(
                call.text()
                    .starts_with("Note 's1.md' changed since version 'v0', so resending"),
                "{}",
                call.text()
            );
            &["INFO tool_call_failed write_note stale"]
        }
        2 => {
            let call = session.call_leaving_records("reindex", json!({})).await;
            assert!(call.text().starts_with("The search index is rebuilding"));
            &[
                "WARN tool_failed reindex fault",
                "WARN tool_call_failed reindex fault",
            ]
        }
        3 => {
            let call = session
                .call_leaving_records("sync_notes", json!({ "remote": "timeout" }))
                .await;
            assert_eq!(call.text(), RETRY_MESSAGE);
            &[
                "WARN tool_failed sync_notes fault",
                "WARN tool_call_failed sync_notes fault",
            ]
        }
        4 => {
            let call = session
                .call_leaving_records("export_notes", json!({}))
                .await;
            assert!(
                call.text()
                    .starts_with("Exporting notes is turned off in this deployment")
            );
            &["INFO tool_call_failed export_notes invalid"]
        }
        _ => {
            let call = session
                .call_leaving_records("sync_notes", json!({ "remote": "origin" }))
                .await;
            assert_eq!(call.ok().structured_content, Some(json!({ "pulled": 0 })));
            &["INFO tool_call_completed sync_notes result"]
        }
    };
    lines.extend(own.iter().map(|line| line.to_string()));
    lines
}

/// Six clients call one server at the same time: each reads the answers to
/// its own calls, and the log lines of each session's calls carry the
/// session id its client sent, and only those.
#[tokio::test]
async fn concurrent_sessions_each_get_their_own_answers_and_log_records() {
    let server = HttpServer::start(Notes::new(false)).await;
    let mut sessions = Vec::new();
    for _ in 0..6 {
        sessions.push(server.session().await);
    }
    let ids = session_ids(&sessions);
    let [a, b, c, d, e, f] = &sessions[..] else {
        unreachable!("six sessions")
    };

    let expected = tokio::join!(
        script(a, 0),
        script(b, 1),
        script(c, 2),
        script(d, 3),
        script(e, 4),
        script(f, 5),
    );
    let expected = [
        expected.0, expected.1, expected.2, expected.3, expected.4, expected.5,
    ];

    let records = server.capture.take();
    let mut by_session = lines_by_session(&records);
    for (id, lines) in ids.iter().zip(expected) {
        assert_eq!(by_session.remove(id), Some(lines), "session {id}");
    }
    assert!(
        by_session.is_empty(),
        "records of unknown sessions: {by_session:?}"
    );
    // Every record of the runtime was written inside a call.
    assert_eq!(
        in_calls(&records).count(),
        records
            .iter()
            .filter(|record| record.target == "outcome_runtime")
            .count()
    );
    // The calls interleaved: in the log, the sessions take turns more often
    // than once each.
    let sessions: Vec<_> = in_calls(&records)
        .map(|record| record.span_field("mcp.session.id"))
        .collect();
    let turns = 1 + sessions.windows(2).filter(|w| w[0] != w[1]).count();
    assert!(turns > ids.len(), "the calls ran one session after another");
    // Nothing, rmcp's HTTP transport included, logged an error.
    let errors: Vec<_> = records
        .iter()
        .filter(|record| record.level == tracing::Level::ERROR)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

/// The three sessions' jobs share one `Jobs`; `job_status` still reads a job
/// only in the session that started it, and another session reads the text
/// for an unknown job.
#[tokio::test]
async fn a_job_reads_only_in_the_session_that_started_it() {
    let server = HttpServer::start(Notes::new(false)).await;
    let sessions = [
        server.session().await,
        server.session().await,
        server.session().await,
    ];
    let ids = session_ids(&sessions);
    let [a, b, c] = &sessions;

    let started = tokio::join!(
        a.call_leaving_records("rebuild_backlinks", json!({})),
        b.call_leaving_records("rebuild_backlinks", json!({})),
        c.call_leaving_records("rebuild_backlinks", json!({})),
    );
    let jobs = [job_of(&started.0), job_of(&started.1), job_of(&started.2)];
    assert!(jobs[0] != jobs[1] && jobs[1] != jobs[2] && jobs[0] != jobs[2]);
    tokio::time::sleep(BACKLINKS_WORK * 2).await;

    // Each session polls the next one's job first: that must neither read
    // it nor take it away from its own session.
    let others = tokio::join!(poll(a, &jobs[1]), poll(b, &jobs[2]), poll(c, &jobs[0]));
    assert_eq!(others.0.text(), unknown_job(&jobs[1]));
    assert_eq!(others.1.text(), unknown_job(&jobs[2]));
    assert_eq!(others.2.text(), unknown_job(&jobs[0]));
    let owns = tokio::join!(poll(a, &jobs[0]), poll(b, &jobs[1]), poll(c, &jobs[2]));
    for own in [&owns.0, &owns.1, &owns.2] {
        assert_eq!(own.ok().structured_content, Some(json!({ "links": 0 })));
    }

    let records = server.capture.take();
    let by_session = lines_by_session(&records);
    for id in &ids {
        assert_eq!(
            by_session[id],
            [
                "INFO tool_call_deferred rebuild_backlinks deferred",
                // Another session's job reads as one the server lost.
                "WARN tool_failed job_status fault",
                "WARN tool_call_failed job_status fault",
                "INFO tool_call_completed job_status result",
            ],
            "session {id}"
        );
    }
    assert_eq!(by_session.len(), ids.len());
    // Each job wrote its call's own line when it ended, in the job's span,
    // which carries the session and the request that started it.
    let mut ended: Vec<(String, String)> = records
        .iter()
        .filter(|record| record.target == "outcome_runtime")
        .filter(|record| record.span_field("mcp.method.name").is_none())
        .map(|record| {
            assert_eq!(
                line(record),
                "INFO tool_call_completed rebuild_backlinks result"
            );
            let session = record.span_field("mcp.session.id");
            let request = record.span_field("jsonrpc.request.id");
            (
                session.expect("the job's session").to_owned(),
                request.expect("the job's request").to_owned(),
            )
        })
        .collect();
    ended.sort();
    let mut started: Vec<(String, String)> = records
        .iter()
        .filter(|record| record.name() == "tool_call_deferred")
        .map(|record| {
            let session = record.span_field("mcp.session.id").unwrap();
            let request = record.span_field("jsonrpc.request.id").unwrap();
            (session.to_owned(), request.to_owned())
        })
        .collect();
    started.sort();
    assert_eq!(ended.len(), 3);
    assert_eq!(ended, started);
}

/// The notes example serves one note store to every session: a note one
/// session writes, another reads, at the version the writer got, and a
/// write based on an older version is stale.
#[tokio::test]
async fn sessions_share_one_note_store_and_its_versions() {
    let server = HttpServer::start(Notes::new(false)).await;
    let (a, b) = (server.session().await, server.session().await);
    assert_ne!(a.session_id(), b.session_id());

    let write = a
        .call(
            "write_note",
            json!({ "path": "shared.md", "text": "from a" }),
        )
        .await;
    let version = write.ok().structured_content.as_ref().unwrap()["version"].clone();
    let read = b.call("read_note", json!({ "path": "shared.md" })).await;
    assert_eq!(
        read.ok().structured_content,
        Some(json!({ "text": "from a", "version": version }))
    );

    let rewrite = json!({ "path": "shared.md", "text": "from b", "if_match": version });
    let rewritten = b.call("write_note", rewrite).await;
    assert_eq!(rewritten.ok().is_error, Some(false));
    let stale = json!({ "path": "shared.md", "text": "from a again", "if_match": version });
    let stale = a.call("write_note", stale).await;
    assert_eq!(stale.events(), ["INFO tool_call_failed"]);
    assert_eq!(
        stale.record("tool_call_failed").field("outcome"),
        Some("stale")
    );
}

/// One row of the scenario: a call, or a wait for the job to end.
enum Row {
    /// Call a tool with these arguments.
    Tool(&'static str, Value),
    /// Poll the job the last `rebuild_backlinks` answered with.
    PollJob,
    /// Wait this long, then take what was logged meanwhile.
    Wait(Duration),
}

/// Every row of the scenario, in the order the tour makes them.
fn rows() -> Vec<Row> {
    use Row::{PollJob, Tool, Wait};
    vec![
        Tool("read_note", json!({ "path": "plan.md" })),
        Tool("read_note", json!({ "path": "inbox/todo.md" })),
        Tool("search_notes", json!({ "query": "zzz" })),
        Tool("write_note", json!({ "path": "new.md", "text": "x" })),
        Tool("write_note", json!({ "path": "plan.md", "text": "x" })),
        Tool(
            "write_note",
            json!({ "path": "plan.md", "text": "x", "if_match": "a1b2" }),
        ),
        Tool(
            "write_note",
            json!({ "path": "../etc/passwd", "text": "x" }),
        ),
        Tool("export_notes", json!({})),
        Tool("reindex", json!({})),
        Tool("sync_notes", json!({ "remote": "timeout" })),
        Tool("sync_notes", json!({ "remote": "rate-limited" })),
        Tool("sync_notes", json!({ "remote": "broken" })),
        Tool("sync_notes", json!({ "remote": "panic" })),
        Tool("sync_notes", json!({ "remote": "upstream" })),
        Tool("summarize_note", json!({ "path": "plan.md" })),
        Tool("read_note", json!({})),
        Tool("read_note", json!({ "path": 42 })),
        Tool("no_such_tool", json!({})),
        Tool("rebuild_backlinks", json!({})),
        PollJob,
        Wait(BACKLINKS_WORK * 2),
        PollJob,
    ]
}

/// What a row left: the answer (a result, or a JSON-RPC error) and the
/// records, both as text with the random and the timing parts taken out.
#[derive(Debug, PartialEq)]
struct Seen {
    answer: String,
    records: Vec<String>,
}

/// Makes every row in `session`, then ends it.
async fn run_rows(session: Session) -> Vec<Seen> {
    let mut job = String::new();
    let mut seen = Vec::new();
    for row in rows() {
        let (answer, records) = match row {
            Row::Tool(tool, arguments) => {
                let call = session.call(tool, arguments).await;
                if tool == "rebuild_backlinks" {
                    job = job_of(&call);
                }
                (answer(&call), call.records)
            }
            Row::PollJob => {
                let call = session.call("job_status", json!({ "job": job })).await;
                (answer(&call), call.records)
            }
            Row::Wait(duration) => {
                tokio::time::sleep(duration).await;
                (String::new(), session.capture.take())
            }
        };
        let records = records
            .iter()
            .map(|record| {
                // Its target and fields, without the duration and a
                // panic's backtrace (`RUST_BACKTRACE`), whose frames name
                // the transport; not the span's, which name it too.
                let mut record = record.clone();
                record
                    .fields
                    .retain(|(name, _)| name != "duration_ms" && name != "panic.backtrace");
                format!("{} {record}", record.target)
            })
            .collect();
        let answer = match job.as_str() {
            "" => answer,
            job => answer.replace(job, "<job>"),
        };
        seen.push(Seen { answer, records });
    }
    seen
}

/// The answer of a call as JSON text.
fn answer(call: &Call) -> String {
    match &call.result {
        Ok(result) => serde_json::to_string(result).unwrap(),
        Err(rmcp::service::ServiceError::McpError(error)) => {
            format!("error {}", serde_json::to_string(error).unwrap())
        }
        Err(other) => panic!("the call failed on the way: {other:?}"),
    }
}

/// Over HTTP the model reads the same answers, and the log gets the same
/// lines (rmcp's included), as in memory: every row of the scenario.
#[tokio::test]
async fn every_scenario_row_answers_and_logs_the_same_over_http_as_in_memory() {
    let in_memory = run_rows(Session::start(false).await).await;
    let over_http = run_rows(http_transport::start(false).await).await;
    assert_eq!(in_memory.len(), rows().len());
    for (at, (memory, http)) in in_memory.iter().zip(&over_http).enumerate() {
        assert!(!memory.records.is_empty(), "row {at} logged nothing");
        assert_eq!(memory, http, "row {at}");
    }
    assert_eq!(in_memory.len(), over_http.len());
}

/// One request of the stateless lifecycle (protocol 2026-07-28): no
/// `initialize`, no session, the client's context in the request's `_meta`.
/// Returns the tool result's single text.
async fn stateless_call(url: &str, id: u32, tool: &str, arguments: Value) -> String {
    let request = json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "tools/call",
        "params": {
            "name": tool,
            "arguments": arguments,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": { "name": "stateless", "version": "1" }
            }
        }
    });
    let response = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        // SEP-2243: the method and the tool, outside the body.
        .header("mcp-method", "tools/call")
        .header("mcp-name", tool)
        .body(request.to_string())
        .send()
        .await
        .expect("the server answers");
    let status = response.status();
    assert!(
        status.is_success(),
        "{status}: {}",
        response.text().await.unwrap_or_default()
    );
    assert_eq!(response.headers().get("mcp-session-id"), None);
    let body = response.text().await.expect("a body");
    // A JSON body, or an event stream whose data line is the response.
    let message = body
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .find(|data| data.contains("\"result\"") || data.contains("\"error\""))
        .unwrap_or(body.trim());
    let message: Value = serde_json::from_str(message).expect("a JSON-RPC response");
    message["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("a tool result: {message}"))
        .to_owned()
}

#[tokio::test]
async fn a_stateless_client_reads_its_job_from_the_next_request() {
    let server = HttpServer::start(Notes::new(false)).await;
    let started = stateless_call(&server.url, 1, "rebuild_backlinks", json!({})).await;
    let job = started
        .strip_prefix("The work goes on as job '")
        .and_then(|rest| rest.split('\'').next())
        .unwrap_or_else(|| panic!("a job: {started}"))
        .to_owned();
    tokio::time::sleep(BACKLINKS_WORK * 2).await;
    // Each request of this lifecycle is served as its own: without a
    // session, the job id alone reads the job.
    let poll = stateless_call(&server.url, 2, "job_status", json!({ "job": job })).await;
    assert_ne!(poll, unknown_job(&job));
    assert_eq!(poll, json!({ "links": 0 }).to_string());
}

#[tokio::test]
async fn in_memory_jobs_are_read_in_rmcps_stateless_mode() {
    // The default `Jobs`, in this process's memory, behind
    // `legacy_session_mode = false`: every request is served on its own,
    // with no session to bind the job to, so its id is the capability.
    let server = HttpServer::start_stateless(Notes::new(false)).await;
    let session = server.session().await;
    assert_eq!(session.session_id(), None);
    let started = session.call("rebuild_backlinks", json!({})).await;
    let job = job_of(&started);
    tokio::time::sleep(BACKLINKS_WORK * 2).await;
    let poll = session.call("job_status", json!({ "job": job })).await;
    assert_eq!(poll.text(), json!({ "links": 0 }).to_string());
    // Another client holding the id reads it too: there is no session to
    // tell them apart.
    let other = server.session().await;
    let poll = other.call("job_status", json!({ "job": job })).await;
    assert_eq!(poll.text(), json!({ "links": 0 }).to_string());
}
