//! The `outcome-audit` binary against real servers in other processes: the
//! notes example (built with this crate, so clean) over stdio and over
//! streamable HTTP, a FastMCP server (whose answers to bad arguments are
//! pydantic's report, so not) over stdio, hand-written HTTP endpoints for
//! answers no SDK sends, and shell scripts for servers that misbehave as
//! processes (a grandchild left behind, no MCP at all); and the command
//! line itself. One module a concern; the servers and the runs they share
//! are here.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

mod bounds;
mod command_line;
mod json;
mod process;
mod real_servers;
mod usage;

const AUDIT: &str = env!("CARGO_BIN_EXE_outcome-audit");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// The notes example's executable, built if it is not yet.
fn notes_example() -> PathBuf {
    outcome_redis_harness::notes_example(&[])
}

fn audit(args: &[&str]) -> (Output, String) {
    let output = Command::new(AUDIT)
        .args(args)
        .stderr(Stdio::piped())
        .output()
        .expect("outcome-audit runs");
    let report = String::from_utf8(output.stdout.clone()).unwrap();
    (output, report)
}

/// Runs the audit, failing the test if it is still running `bound` after
/// it started.
fn audit_within(args: &[&str], bound: Duration) -> (Output, String) {
    let mut child = Command::new(AUDIT)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("outcome-audit runs");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > bound {
            let _ = child.kill();
            let _ = child.wait();
            panic!("outcome-audit {args:?} still ran after {bound:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    (output, report)
}

/// How a hostile server answers one JSON-RPC request.
enum Reply {
    Result(serde_json::Value),
    Error(serde_json::Value),
    Never,
}

/// A streamable HTTP endpoint written by hand, for answers no SDK sends:
/// each POST is answered as `answer` says for its method (`initialize` is
/// answered as a server with tools, unless `answer` says otherwise), each
/// notification with 202, anything else with 405. The thread lives as
/// long as the test process.
fn hostile_server(answer: impl Fn(&str) -> Option<Reply> + Send + Sync + 'static) -> String {
    guarded_server(None, move |request| {
        answer(request["method"].as_str().unwrap_or_default())
    })
    .0
}

/// [`hostile_server`], answering as `answer` says for the whole request
/// (a call's tool is `request["params"]["name"]`).
fn hostile_server_by_request(
    answer: impl Fn(&serde_json::Value) -> Option<Reply> + Send + Sync + 'static,
) -> String {
    guarded_server(None, answer).0
}

/// [`hostile_server_by_request`], answering only requests that carry the
/// header `required` (its name in any case, its value exactly) and every
/// other request with 401; with the number of requests refused.
fn guarded_server(
    required: Option<(&'static str, &'static str)>,
    answer: impl Fn(&serde_json::Value) -> Option<Reply> + Send + Sync + 'static,
) -> (String, Arc<AtomicUsize>) {
    use std::io::{BufRead, BufReader, Read, Write};

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    let answer = Arc::new(answer);
    let refused = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&refused);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let answer = Arc::clone(&answer);
            let refused = Arc::clone(&counted);
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut request_line = String::new();
                if reader.read_line(&mut request_line).is_err() {
                    return;
                }
                let mut length = 0;
                let mut carried = required.is_none();
                loop {
                    let mut header = String::new();
                    if reader.read_line(&mut header).is_err() || header.trim().is_empty() {
                        break;
                    }
                    if let Some((name, value)) = header.split_once(':') {
                        if name.eq_ignore_ascii_case("content-length") {
                            length = value.trim().parse().unwrap_or(0);
                        }
                        if required.is_some_and(|(required, expected)| {
                            name.eq_ignore_ascii_case(required) && value.trim() == expected
                        }) {
                            carried = true;
                        }
                    }
                }
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body);
                let mut stream = stream;
                let respond = |stream: &mut std::net::TcpStream, status: &str, body: &str| {
                    let _ = write!(
                        stream,
                        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    );
                };
                if !carried {
                    refused.fetch_add(1, Ordering::SeqCst);
                    respond(&mut stream, "401 Unauthorized", "");
                    return;
                }
                if !request_line.starts_with("POST") {
                    respond(&mut stream, "405 Method Not Allowed", "");
                    return;
                }
                let request: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
                let Some(id) = request.get("id").cloned() else {
                    respond(&mut stream, "202 Accepted", "");
                    return;
                };
                let reply = answer(&request).unwrap_or_else(|| {
                    Reply::Result(serde_json::json!({
                        "protocolVersion": request["params"]["protocolVersion"],
                        "capabilities": {"tools": {}},
                        "serverInfo": {"name": "hostile", "version": "1"}
                    }))
                });
                let message = match reply {
                    Reply::Result(result) => {
                        serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result})
                    }
                    Reply::Error(error) => {
                        serde_json::json!({"jsonrpc": "2.0", "id": id, "error": error})
                    }
                    Reply::Never => {
                        std::thread::sleep(Duration::from_secs(3600));
                        return;
                    }
                };
                respond(&mut stream, "200 OK", &message.to_string());
            });
        }
    });
    (format!("http://{address}/mcp"), refused)
}

/// A server listing `tools`, answering every call with an error that
/// names no argument.
fn listing(tools: serde_json::Value) -> String {
    hostile_server(move |method| match method {
        "tools/list" => Some(Reply::Result(serde_json::json!({"tools": tools}))),
        "tools/call" => Some(Reply::Result(serde_json::json!({
            "content": [{"type": "text", "text": "Wrong."}],
            "isError": true
        }))),
        _ => None,
    })
}
