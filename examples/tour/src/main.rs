//! The tour: runs the notes server in memory with a real rmcp client, makes
//! every call of the scenario, and prints for each how it ended, what the
//! model read and the log lines it left.
//!
//! `cargo run -p tour`: the package alone, so that Cargo builds only
//! what the tour needs (at the workspace's root, without `-p`, it would
//! build every crate with the features the whole workspace asks for).

#![forbid(unsafe_code)]

use std::fmt::Write;

use std::time::Duration;

use outcome_runtime::testing::{LogCapture, Record, connect};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use serde_json::{Value, json};

/// The notes server in memory, and a real rmcp client connected to it; the
/// capture holds the log records of the call in flight.
struct Session {
    client: RunningService<RoleClient, ()>,
    capture: LogCapture,
    /// Keeps the capture the thread's subscriber while the tour runs.
    _guard: tracing::subscriber::DefaultGuard,
}

/// One call: what the client got back, and the log records it left.
struct Call {
    result: Result<CallToolResult, ServiceError>,
    records: Vec<Record>,
}

impl Session {
    async fn start() -> Session {
        let capture = LogCapture::new();
        let guard = capture.set_default();
        let client = connect(notes::Notes::new(false), ())
            .await
            .expect("the client connects to the in-memory server");
        client
            .list_all_tools()
            .await
            .expect("the server lists its tools");
        capture.take();
        Session {
            client,
            capture,
            _guard: guard,
        }
    }

    async fn call(&self, tool: &'static str, arguments: Value) -> Call {
        let mut params = CallToolRequestParams::new(tool);
        if let Value::Object(arguments) = arguments {
            params = params.with_arguments(arguments);
        }
        let result = self.client.call_tool(params).await;
        Call {
            result,
            records: self.capture.take(),
        }
    }
}

struct Row {
    tool: &'static str,
    arguments: Value,
    note: &'static str,
    /// Wait this long instead of calling a tool.
    wait: Option<Duration>,
}

fn wait(duration: Duration) -> Row {
    Row {
        tool: "",
        arguments: Value::Null,
        note: "",
        wait: Some(duration),
    }
}

/// Stands for the job the last long-running call answered with: job ids
/// are random.
const JOB: &str = "<the job rebuild_backlinks answered with>";

fn rows() -> Vec<Row> {
    let row = |tool, arguments, note| Row {
        tool,
        arguments,
        note,
        wait: None,
    };
    vec![
        row("read_note", json!({ "path": "plan.md" }), ""),
        row("read_note", json!({ "path": "inbox/todo.md" }), ""),
        row("search_notes", json!({ "query": "zzz" }), ""),
        row("write_note", json!({ "path": "new.md", "text": "x" }), ""),
        row(
            "write_note",
            json!({ "path": "plan.md", "text": "x" }),
            "no if_match",
        ),
        row(
            "write_note",
            json!({ "path": "plan.md", "text": "x", "if_match": "a1b2" }),
            "",
        ),
        row(
            "write_note",
            json!({ "path": "../etc/passwd", "text": "x" }),
            "the path hook refuses it",
        ),
        row("export_notes", json!({}), "without --export"),
        row("reindex", json!({}), ""),
        row(
            "rebuild_backlinks",
            json!({}),
            "long-running: past its deadline",
        ),
        row("job_status", json!({ "job": JOB }), "polled at once"),
        wait(notes::BACKLINKS_WORK * 2),
        row("job_status", json!({ "job": JOB }), "polled after the work"),
        row(
            "sync_notes",
            json!({ "remote": "timeout" }),
            "upstream times out",
        ),
        row(
            "sync_notes",
            json!({ "remote": "rate-limited" }),
            "upstream answers HTTP 429",
        ),
        row(
            "sync_notes",
            json!({ "remote": "broken" }),
            "I/O error naming a path and a secret",
        ),
        row(
            "sync_notes",
            json!({ "remote": "panic" }),
            "the body panics",
        ),
        row(
            "read_note",
            json!({ "path": "plan.md" }),
            "the call after the panic",
        ),
        row(
            "summarize_note",
            json!({ "path": "plan.md" }),
            "client without sampling",
        ),
        row("read_note", json!({}), "path missing"),
        row("read_note", json!({ "path": 42 }), "path not a string"),
    ]
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let session = Session::start().await;
    println!("The notes server, in memory, called by a real rmcp client.\n");
    let mut number = 0;
    let mut job = String::new();
    for mut row in rows() {
        if let Some(duration) = row.wait {
            println!("    (waiting {} ms)\n", duration.as_millis());
            tokio::time::sleep(duration).await;
            continue;
        }
        number += 1;
        if row.arguments.get("job").and_then(Value::as_str) == Some(JOB) {
            row.arguments = json!({ "job": job });
        }
        let call = session.call(row.tool, row.arguments.clone()).await;
        if let Ok(result) = &call.result
            && let Some(text) = result.content.first().and_then(|c| c.as_text())
            && let Some(rest) = text.text.strip_prefix("The work goes on as job '")
        {
            job = rest.split('\'').next().unwrap_or_default().to_owned();
        }
        print!("{}", describe(number, &row, &call));
    }
}

fn describe(number: usize, row: &Row, call: &Call) -> String {
    let mut out = String::new();
    let arguments = row
        .arguments
        .as_object()
        .map(|object| {
            object
                .iter()
                .map(|(name, value)| format!("{name}={value}"))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    let note = if row.note.is_empty() {
        String::new()
    } else {
        format!("   ({})", row.note)
    };
    let _ = writeln!(out, "{number:>2}. {}({arguments}){note}", row.tool);

    let outcome = call
        .records
        .iter()
        .find(|r| r.name().starts_with("tool_call_"))
        .and_then(|r| r.field("outcome"))
        .unwrap_or("?");
    let outcome = match outcome {
        "result" => "1 result",
        "invalid" => "2 change the request",
        "stale" => "3 refresh, then retry",
        "fault"
            if call
                .records
                .iter()
                .any(|r| r.level == tracing::Level::ERROR) =>
        {
            "4 server fault: an operator acts"
        }
        "fault" => "4 server fault: heals itself",
        "protocol" => "protocol error, passed through",
        "deferred" => "1 result, later: a job to poll",
        other => other,
    };
    let _ = writeln!(out, "    outcome  {outcome}");

    let read = match &call.result {
        Ok(result) => {
            let text = result
                .structured_content
                .as_ref()
                .map(Value::to_string)
                .or_else(|| {
                    result
                        .content
                        .first()
                        .and_then(|c| c.as_text())
                        .map(|t| t.text.clone())
                })
                .unwrap_or_default();
            let marker = if result.is_error == Some(true) {
                "isError  "
            } else {
                ""
            };
            format!("{marker}{text}")
        }
        Err(ServiceError::McpError(error)) => {
            format!("JSON-RPC error {}: {}", error.code.0, error.message)
        }
        Err(other) => format!("client error: {other}"),
    };
    let _ = writeln!(out, "    model    {read}");
    for record in &call.records {
        let prefix = if record.target == "outcome_runtime" {
            String::new()
        } else {
            format!("[{}] ", record.target)
        };
        let fields: Vec<String> = record
            .fields
            .iter()
            .filter(|(name, _)| name != "duration_ms")
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        let _ = writeln!(
            out,
            "    log      {:<5} {prefix}{} {}",
            record.level,
            record.name(),
            fields.join(" ")
        );
    }
    out.push('\n');
    out
}
