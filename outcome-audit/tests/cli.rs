//! The `outcome-audit` binary against real servers in other processes: the
//! notes example (built with this crate, so clean) over stdio and over
//! streamable HTTP, and a FastMCP server (whose answers to bad arguments
//! are pydantic's report, so not) over stdio.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

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

#[test]
fn the_notes_example_over_stdio_is_clean() {
    let notes = notes_example();
    let (output, report) = audit(&["--", notes.to_str().unwrap(), "--export"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        report.starts_with("outcome audit: clean: ") && report.contains("0 findings"),
        "{report}"
    );
    assert!(report.contains("(log records not checked)"), "{report}");
}

/// Ends the server when the test does, passed or not.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_notes_example_over_http_is_clean() {
    let notes = notes_example();
    let address = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let _server = Server(
        Command::new(notes)
            .args(["--http", &address.to_string()])
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let started = Instant::now();
    while std::net::TcpStream::connect(address).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the server listens"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let url = format!("http://{address}/mcp");
    let (output, report) = audit(&[&url]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(report.starts_with("outcome audit: clean: "), "{report}");
}

#[test]
fn a_fastmcp_server_is_reported_with_pydantic_s_wording() {
    let python = root().join("target/python-mcp/bin/python");
    assert!(
        python.exists(),
        "{} is missing: run scripts/install-python-mcp (scripts/test does) to create the \
         virtual environment with the pinned mcp package",
        python.display()
    );
    let server = root().join("tests/fixtures/python/notes_server.py");
    let (output, report) = audit(&["--", python.to_str().unwrap(), server.to_str().unwrap()]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        report.starts_with("outcome audit: NOT clean: 3 tools, 13 calls, "),
        "{report}"
    );
    // FastMCP answers isError with pydantic's report: the argument and
    // the value are there, a next step is not.
    for expected in [
        "[1] read_note: the required argument path left out\n  sent:   {\"arguments\":{},\"name\":\"read_note\"}\n  read:   Error executing tool read_note: 1 validation error for read_noteArguments\n",
        "Field required [type=missing",
        "broken: names-tool: the step \"For further information visit https://errors.pydantic.dev/2.14/v/missing\" names no tool",
        "search_notes: limit above its maximum\n  sent:   {\"arguments\":{\"limit\":51,\"query\":\"a\"},\"name\":\"search_notes\"}",
        "Input should be less than or equal to 50",
        "broken: quotes-value: the text does not quote the value sent, 51",
        "list_notes: order outside its enum",
        "Input should be 'newest' or 'oldest'",
    ] {
        assert!(report.contains(expected), "{expected:?} not in:\n{report}");
    }
    // Pydantic's answers are results with isError, never faults or
    // JSON-RPC errors.
    assert!(!report.contains("broken: is-error"), "{report}");
    assert!(!report.contains("broken: not-fault"), "{report}");
}

#[test]
fn usage_errors_and_unreachable_servers_exit_2() {
    let (output, _) = audit(&[]);
    assert_eq!(output.status.code(), Some(2));
    let (output, _) = audit(&["notes"]);
    assert_eq!(output.status.code(), Some(2));
    let (output, _) = audit(&["--", "/nonexistent/server"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cannot start /nonexistent/server"),
        "{stderr}"
    );
    let closed = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let (output, _) = audit(&[&format!("http://{closed}/mcp")]);
    assert_eq!(output.status.code(), Some(2));
    let (output, _) = audit(&[&format!("https://{closed}/mcp")]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("plain HTTP only"), "{stderr}");
    let (output, report) = audit(&["--help"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(report.contains("Exit status: 0 when"), "{report}");
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
    use std::io::{BufRead, BufReader, Read, Write};
    use std::sync::Arc;

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    let answer = Arc::new(answer);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let answer = Arc::clone(&answer);
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut request_line = String::new();
                if reader.read_line(&mut request_line).is_err() {
                    return;
                }
                let mut length = 0;
                loop {
                    let mut header = String::new();
                    if reader.read_line(&mut header).is_err() || header.trim().is_empty() {
                        break;
                    }
                    if let Some((name, value)) = header.split_once(':')
                        && name.eq_ignore_ascii_case("content-length")
                    {
                        length = value.trim().parse().unwrap_or(0);
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
                if !request_line.starts_with("POST") {
                    respond(&mut stream, "405 Method Not Allowed", "");
                    return;
                }
                let request: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
                let method = request["method"].as_str().unwrap_or_default();
                let Some(id) = request.get("id").cloned() else {
                    respond(&mut stream, "202 Accepted", "");
                    return;
                };
                let reply = answer(method).unwrap_or_else(|| {
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
    format!("http://{address}/mcp")
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

/// A megabyte of text with terminal escapes.
fn escapes() -> String {
    format!("\u{1b}]0;owned\u{7}\u{1b}[2J{}", "x".repeat(1 << 20))
}

/// What a server wrote that reaches stderr is bounded and escaped.
fn assert_escaped_and_bounded(output: &Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    for control in ['\u{1b}', '\u{7}'] {
        assert!(!stderr.contains(control), "{control:?} reached stderr");
    }
    assert!(stderr.len() < 4096, "{} bytes on stderr", stderr.len());
}

#[test]
fn a_hostile_initialize_error_reaches_stderr_escaped_and_bounded() {
    let url = hostile_server(|method| {
        (method == "initialize")
            .then(|| Reply::Error(serde_json::json!({"code": -32000, "message": escapes()})))
    });
    let (output, _) = audit(&["--timeout", "60", &url]);
    assert_eq!(output.status.code(), Some(2));
    assert_escaped_and_bounded(&output);
}

#[test]
fn a_hostile_tools_list_error_reaches_stderr_escaped_and_bounded() {
    let url = hostile_server(|method| {
        (method == "tools/list")
            .then(|| Reply::Error(serde_json::json!({"code": -32000, "message": escapes()})))
    });
    let (output, _) = audit(&["--timeout", "60", &url]);
    assert_eq!(output.status.code(), Some(2));
    assert_escaped_and_bounded(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("\\u{1b}"), "{stderr}");
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

/// Nested `anyOf`s of eight alternatives each, sixteen levels deep, none
/// of which the audit can build a value for.
fn fanning_out() -> serde_json::Value {
    let mut defs = serde_json::Map::new();
    defs.insert("l0".into(), serde_json::json!({"type": "no such type"}));
    for level in 1..=16 {
        let below = serde_json::json!({"$ref": format!("#/$defs/l{}", level - 1)});
        defs.insert(
            format!("l{level}"),
            serde_json::json!({"anyOf": vec![below; 8]}),
        );
    }
    serde_json::json!({
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/l16"}},
        "required": ["x"],
        "$defs": defs
    })
}

/// The schema walk is synchronous work no timer interrupts: its budget is
/// what keeps the audit within `--timeout`.
#[test]
fn a_schema_that_fans_out_is_audited_within_the_timeout() {
    let url = listing(serde_json::json!([
        {"name": "fan", "inputSchema": fanning_out()}
    ]));
    // The timeout, and then a generous margin for a slow machine.
    let (output, report) = audit_within(&["--timeout", "5", &url], Duration::from_secs(60));
    assert!(
        report.starts_with("outcome audit: NOT clean: 1 tools, 0 calls"),
        "{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(report.contains("not probed: fan: "), "{report}");
    assert_eq!(output.status.code(), Some(3), "{report}");
}

#[test]
fn a_min_length_no_machine_can_allocate_is_not_probed() {
    let url = listing(serde_json::json!([
        {"name": "big", "inputSchema": {"type": "object", "properties": {"x": {"type": "string", "minLength": 1u64 << 40}}, "required": ["x"]}}
    ]));
    let (output, report) = audit_within(&["--timeout", "60", &url], Duration::from_secs(90));
    assert_eq!(
        output.status.code(),
        Some(3),
        "{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(report.contains("not probed: big, argument x: "), "{report}");
}

/// One entry rmcp cannot read as a tool does not take the others with it.
#[test]
fn a_tool_whose_schema_is_not_an_object_is_reported_and_the_rest_audited() {
    let url = listing(serde_json::json!([
        {"name": "odd", "inputSchema": 5},
        {"name": "\u{1b}[2Jnameless"},
        {"name": "fine", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}
    ]));
    let (output, report) = audit_within(&["--timeout", "60", &url], Duration::from_secs(90));
    assert_eq!(
        output.status.code(),
        Some(1),
        "{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        report.starts_with("outcome audit: NOT clean: 3 tools, 3 calls"),
        "{report}"
    );
    assert!(
        report.contains("not probed: odd: its entry in the tool list is not a tool"),
        "{report}"
    );
    assert!(
        report.contains("not probed: \\u{1b}[2Jnameless: "),
        "{report}"
    );
}

/// A server that stops answering: at `--timeout` the audit stops, and
/// prints what it found so far.
#[test]
fn at_the_timeout_the_report_so_far_is_printed() {
    let url = hostile_server(|method| match method {
        "tools/list" => Some(Reply::Result(serde_json::json!({"tools": [
            {"name": "slow", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}
        ]}))),
        "tools/call" => Some(Reply::Never),
        _ => None,
    });
    let (output, report) = audit_within(&["--timeout", "3", &url], Duration::from_secs(60));
    assert_eq!(output.status.code(), Some(2), "{report}");
    assert!(
        report.starts_with("outcome audit: NOT clean: 1 tools, 0 calls"),
        "{report}"
    );
    assert!(
        report.contains("not probed: the tool list: the audit ran out of time"),
        "{report}"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("took longer than 3 seconds"), "{stderr}");
}
