//! The `outcome-audit` binary against real servers in other processes: the
//! notes example (built with this crate, so clean) over stdio and over
//! streamable HTTP, a FastMCP server (whose answers to bad arguments are
//! pydantic's report, so not) over stdio, hand-written HTTP endpoints for
//! answers no SDK sends, and shell scripts for servers that misbehave as
//! processes (a grandchild left behind, no MCP at all).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
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
        report.starts_with("outcome audit: clean: ") && !report.contains(" defects ("),
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
    // the value are there, a next step is not. One template over every
    // call is one defect for each rule it breaks.
    for expected in [
        "\nby rule, defects (findings): names-tool 1 (13), ",
        "\nnot run (not annotated read-only, so called only with arguments that break the schema; to run them too, audit a disposable copy of the server with --run-every-tool): read_note, search_notes, list_notes\n",
        "] names-tool: the step \"For further information visit https://errors.pydantic.dev/2.14/v/missing\" names no tool",
        "  in:     13 calls of read_note, search_notes, list_notes\n  e.g.:   read_note: the required argument path left out\n  sent:   {\"arguments\":{},\"name\":\"read_note\"}\n  read:   Error executing tool read_note: 1 validation error for read_noteArguments\n",
        "Field required [type=missing",
        "] quotes-value: the text does not quote the value sent, ",
    ] {
        assert!(report.contains(expected), "{expected:?} not in:\n{report}");
    }
    assert_eq!(report.matches("\n  sent:   ").count(), 6, "{report}");
    // Pydantic's answers are results with isError, never faults or
    // JSON-RPC errors.
    assert!(!report.contains("] is-error: "), "{report}");
    assert!(!report.contains("] not-fault: "), "{report}");

    // Told to, the audit runs every tool with a call its schema accepts,
    // and reads the author's own words.
    let (output, report) = audit(&[
        "--run-every-tool",
        "--",
        python.to_str().unwrap(),
        server.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert!(
        report.starts_with("outcome audit: NOT clean: 3 tools, 16 calls, "),
        "{report}"
    );
    assert!(!report.contains("not run"), "{report}");
}

#[test]
fn usage_errors_exit_2_and_unreachable_servers_exit_4() {
    for args in [
        &[][..],
        &["notes"],
        &["--format", "xml", "http://127.0.0.1:1/mcp"],
        &["--call-timeout", "0", "http://127.0.0.1:1/mcp"],
        &["--init-timeout", "soon", "http://127.0.0.1:1/mcp"],
        &["--header", "X-Key", "http://127.0.0.1:1/mcp"],
        &["--header", "X-Key: a", "--", "server"],
        &["--server-stderr", "log", "http://127.0.0.1:1/mcp"],
    ] {
        let (output, report) = audit(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(report.is_empty(), "{args:?}: {report}");
    }
    let (output, _) = audit(&["--", "/nonexistent/server"]);
    assert_eq!(output.status.code(), Some(4));
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
    assert_eq!(output.status.code(), Some(4));
    let (output, _) = audit(&[&format!("https://{closed}/mcp")]);
    assert_eq!(output.status.code(), Some(4));
    let (output, report) = audit(&["--help"]);
    assert_eq!(output.status.code(), Some(0));
    for status in [
        "0    every tool was probed",
        "1    the report has findings",
        "2    the arguments are wrong",
        "3    no findings, but",
        "4    the server could not be",
        "130  interrupted",
    ] {
        assert!(report.contains(status), "{status:?} not in:\n{report}");
    }
}

/// A header value is a secret as often as not: a usage error names the
/// header, never its value.
#[test]
fn a_header_that_is_no_header_is_a_usage_error_that_hides_its_value() {
    for header in ["X-Key s3cret", "X Key: s3cret", "X-Key: s3cret\u{7f}"] {
        let (output, _) = audit(&["--header", header, "http://127.0.0.1:1/mcp"]);
        assert_eq!(output.status.code(), Some(2), "{header:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("--header"), "{stderr}");
        assert!(!stderr.contains("s3cret"), "{stderr}");
    }
    // The transport sets these itself.
    let (output, _) = audit(&["--header", "Mcp-Session-Id: 1", "http://127.0.0.1:1/mcp"]);
    assert_eq!(output.status.code(), Some(2));
    let (output, _) = audit(&[
        "--header",
        "X-Key: a",
        "--header",
        "x-key: b",
        "http://127.0.0.1:1/mcp",
    ]);
    assert_eq!(output.status.code(), Some(2));
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
    guarded_server(None, answer).0
}

/// [`hostile_server`], answering only requests that carry the header
/// `required` (its name in any case, its value exactly) and every other
/// request with 401; with the number of requests refused.
fn guarded_server(
    required: Option<(&'static str, &'static str)>,
    answer: impl Fn(&str) -> Option<Reply> + Send + Sync + 'static,
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
    assert_eq!(output.status.code(), Some(4));
    assert_escaped_and_bounded(&output);
}

#[test]
fn a_hostile_tools_list_error_reaches_stderr_escaped_and_bounded() {
    let url = hostile_server(|method| {
        (method == "tools/list")
            .then(|| Reply::Error(serde_json::json!({"code": -32000, "message": escapes()})))
    });
    let (output, _) = audit(&["--timeout", "60", &url]);
    assert_eq!(output.status.code(), Some(4));
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
        {"name": "fan", "description": "Return the text x.", "inputSchema": fanning_out()}
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
        {"name": "big", "description": "Return the text x.", "inputSchema": {"type": "object", "properties": {"x": {"type": "string", "minLength": 1u64 << 40}}, "required": ["x"]}}
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
        {"name": "fine", "description": "Return the text x.", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}
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
            {"name": "slow", "description": "Return the text x.", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}
        ]}))),
        "tools/call" => Some(Reply::Never),
        _ => None,
    });
    let (output, report) = audit_within(&["--timeout", "3", &url], Duration::from_secs(60));
    assert_eq!(output.status.code(), Some(4), "{report}");
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

/// The report as one JSON document: the report's fields, the server's
/// words as it wrote them, every character that does not show as itself
/// written as a `\u` escape.
#[test]
fn format_json_prints_one_document() {
    let url = hostile_server(move |method| match method {
        "tools/list" => Some(Reply::Result(serde_json::json!({"tools": [
            {"name": "odd", "inputSchema": 5},
            {"name": "fine", "description": "Return the text x.", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}
        ]}))),
        "tools/call" => Some(Reply::Result(serde_json::json!({
            "content": [{"type": "text", "text": "Wrong\u{202e}.\u{1b}[2J\u{7f}"}],
            "isError": true
        }))),
        _ => None,
    });
    let (output, report) = audit_within(
        &["--format", "json", "--timeout", "60", &url],
        Duration::from_secs(90),
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for hidden in ['\u{202e}', '\u{1b}', '\u{7f}'] {
        assert!(!report.contains(hidden), "{hidden:?} in {report}");
    }
    let json: serde_json::Value = serde_json::from_str(&report).expect("one JSON document");
    assert_eq!(json["format"], 1);
    assert_eq!(json["clean"], false);
    assert_eq!(json["counts"]["tools"], 2);
    assert_eq!(json["counts"]["calls"], 3);
    assert_eq!(json["counts"]["not_probed"], 1);
    let findings = json["findings"].as_array().unwrap();
    assert_eq!(json["counts"]["findings"], findings.len());
    assert!(findings.len() >= 3, "{json}");
    let first = &findings[0];
    assert_eq!(first["tool"], "fine");
    assert_eq!(first["mistake"], "the required argument x left out");
    assert_eq!(
        first["call"],
        serde_json::json!({"name": "fine", "arguments": {}})
    );
    assert_eq!(first["answer"], "Wrong\u{202e}.\u{1b}[2J\u{7f}");
    assert!(
        findings
            .iter()
            .any(|f| f["rule"] == "names-argument" && f["detail"].as_str().unwrap().contains('x')),
        "{json}"
    );
    // The same findings as defects, each with its calls and an example.
    let defects = json["defects"].as_array().unwrap();
    assert_eq!(json["counts"]["defects"], defects.len());
    assert!(
        !defects.is_empty() && defects.len() <= findings.len(),
        "{json}"
    );
    let counted: u64 = defects
        .iter()
        .map(|d| d["findings"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, findings.len() as u64, "{json}");
    let first = &defects[0];
    assert_eq!(first["tools"], serde_json::json!(["fine"]));
    assert_eq!(first["example"]["tool"], "fine");
    assert_eq!(first["example"]["answer"], "Wrong\u{202e}.\u{1b}[2J\u{7f}");
    assert!(first["calls"].as_u64().unwrap() >= 1, "{json}");
    assert_eq!(json["not_run"], serde_json::json!(["fine"]));
    assert_eq!(json["not_judged"], serde_json::json!([]));
    let not_probed = json["not_probed"].as_array().unwrap();
    assert_eq!(not_probed[0]["tool"], "odd");
    assert_eq!(not_probed[0]["argument"], serde_json::Value::Null);
    assert!(
        not_probed[0]["why"]
            .as_str()
            .unwrap()
            .contains("not a tool"),
        "{json}"
    );
}

#[test]
fn format_json_of_a_clean_server() {
    let notes = notes_example();
    let (output, report) = audit(&[
        "--format",
        "json",
        "--",
        notes.to_str().unwrap(),
        "--export",
    ]);
    assert_eq!(output.status.code(), Some(0), "{report}");
    let json: serde_json::Value = serde_json::from_str(&report).expect("one JSON document");
    assert_eq!(json["clean"], true);
    assert_eq!(json["counts"]["findings"], 0);
    assert_eq!(json["findings"], serde_json::json!([]));
    assert_eq!(json["not_probed"], serde_json::json!([]));
}

/// A call that gets no answer is not probed, after `--call-timeout`, and
/// the audit goes on to the next.
#[test]
fn a_call_without_an_answer_is_not_probed_and_the_audit_goes_on() {
    let url = hostile_server(|method| match method {
        "tools/list" => Some(Reply::Result(serde_json::json!({"tools": [
            {"name": "slow", "description": "Return the text x.", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}
        ]}))),
        "tools/call" => Some(Reply::Never),
        _ => None,
    });
    let (output, report) = audit_within(
        &["--call-timeout", "1", "--timeout", "60", &url],
        Duration::from_secs(45),
    );
    assert_eq!(
        output.status.code(),
        Some(3),
        "{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        report.starts_with("outcome audit: NOT clean: 1 tools, 3 calls, 3 not probed, 1 not run"),
        "{report}"
    );
    assert_eq!(
        report
            .matches("not probed: slow, argument x: the call with ")
            .count(),
        3,
        "{report}"
    );
    assert!(report.contains("got no answer within 1 second"), "{report}");
}

/// A scratch directory of its own for one test, removed when the test
/// ends.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("outcome-audit-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A server as a shell script in `dir`: it starts a grandchild that
/// outlives it unless killed, writes its pid and its own to files, writes
/// a line to stderr, then runs `server` in its place (`exec`: the same
/// process).
fn script(dir: &Path, server: &str) -> PathBuf {
    let path = dir.join("server.sh");
    std::fs::write(
        &path,
        format!(
            "sleep 1000 &\necho $! > '{dir}/grandchild.pid'\necho $$ > '{dir}/server.pid'\n\
             echo 'the server says hello on stderr' >&2\nexec {server}\n",
            dir = dir.display()
        ),
    )
    .unwrap();
    path
}

/// Whether the process `pid` is gone (or a zombie no one reaped yet).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|state| state.trim_start().starts_with('Z')),
    }
}

/// The pids the script in `dir` wrote, once it wrote them.
fn pids(dir: &Path) -> Vec<u32> {
    ["server.pid", "grandchild.pid"]
        .iter()
        .map(|file| {
            let text =
                std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            text.trim().parse().unwrap()
        })
        .collect()
}

/// Runs the audit with its stdout and stderr in files in `dir`, failing
/// the test if it is still running after `bound`: a process left behind
/// with a pipe of the audit's open would keep a reader of the pipe
/// waiting.
fn audit_in(dir: &Path, args: &[&str], bound: Duration) -> (Output, String) {
    let stdout = dir.join("audit.out");
    let stderr = dir.join("audit.err");
    let mut child = Command::new(AUDIT)
        .args(args)
        .stdout(std::fs::File::create(&stdout).unwrap())
        .stderr(std::fs::File::create(&stderr).unwrap())
        .spawn()
        .expect("outcome-audit runs");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > bound {
            let _ = child.kill();
            let _ = child.wait();
            panic!("outcome-audit {args:?} still ran after {bound:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = Output {
        status,
        stdout: std::fs::read(&stdout).unwrap(),
        stderr: std::fs::read(&stderr).unwrap(),
    };
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    (output, report)
}

/// Fails unless the server of the script in `dir`, and its grandchild,
/// are gone within a few seconds.
fn assert_server_gone(dir: &Path) {
    let pids = pids(dir);
    let started = Instant::now();
    while !pids.iter().all(|&pid| gone(pid)) {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "processes left: {:?}",
            pids.iter().filter(|&&pid| !gone(pid)).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The server runs in a process group of its own, ended when the audit
/// ends: a grandchild it leaves behind goes too. Its stderr is dropped.
#[test]
fn the_server_s_process_group_ends_with_a_clean_audit() {
    let dir = scratch("clean");
    let notes = notes_example();
    let server = script(&dir, &format!("'{}' --export", notes.display()));
    let (output, report) = audit_in(
        &dir,
        &["--", "sh", server.to_str().unwrap()],
        Duration::from_secs(60),
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_server_gone(&dir);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("hello on stderr"), "{stderr}");
    assert!(!report.contains("hello on stderr"), "{report}");
}

#[test]
fn the_server_s_stderr_goes_to_the_file_asked_for() {
    let dir = scratch("stderr");
    let notes = notes_example();
    let server = script(&dir, &format!("'{}' --export", notes.display()));
    let log = dir.join("server.log");
    let (output, report) = audit_in(
        &dir,
        &[
            "--server-stderr",
            log.to_str().unwrap(),
            "--",
            "sh",
            server.to_str().unwrap(),
        ],
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(0), "{report}");
    let written = std::fs::read_to_string(&log).unwrap();
    assert!(
        written.contains("the server says hello on stderr"),
        "{written}"
    );
    assert!(!String::from_utf8_lossy(&output.stderr).contains("hello"));
    assert_server_gone(&dir);
}

/// A command that speaks no MCP fails within seconds, and is stopped.
#[test]
fn a_command_that_is_no_mcp_server_fails_within_seconds() {
    let dir = scratch("silent");
    let server = script(&dir, "sleep 1000");
    // The default `--init-timeout`: ten seconds.
    let started = Instant::now();
    let (output, _) = audit_in(
        &dir,
        &["--", "sh", server.to_str().unwrap()],
        Duration::from_secs(30),
    );
    assert_eq!(output.status.code(), Some(4));
    assert!(
        started.elapsed() >= Duration::from_secs(9),
        "{:?}",
        started.elapsed()
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("did not answer initialize within 10 seconds"),
        "{stderr}"
    );
    assert_server_gone(&dir);
    // One that echoes what it reads: its own request is no answer.
    let (output, _) = audit_in(
        &dir,
        &["--init-timeout", "2", "--", "cat"],
        Duration::from_secs(10),
    );
    assert_eq!(output.status.code(), Some(4));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cat did not answer initialize within 2 seconds"),
        "{stderr}"
    );
    // One that exits at once fails at once.
    let (output, _) = audit_in(
        &dir,
        &["--init-timeout", "20", "--", "true"],
        Duration::from_secs(10),
    );
    assert_eq!(output.status.code(), Some(4));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("true did not start an MCP session"),
        "{stderr}"
    );
}

/// Ctrl-C (SIGINT) or SIGTERM stops the audit and the server's whole
/// process group, and exits 130.
#[test]
fn an_interrupted_audit_stops_the_server() {
    for signal in ["-INT", "-TERM"] {
        let dir = scratch(&format!("interrupted{signal}"));
        let server = script(&dir, "sleep 1000");
        let mut child = Command::new(AUDIT)
            .args(["--init-timeout", "60", "--", "sh", server.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("audit.err")).unwrap())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while !dir.join("grandchild.pid").exists() || !dir.join("server.pid").exists() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the script ran"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        // The script writes a pid file in two steps: let it finish.
        std::thread::sleep(Duration::from_millis(200));
        let killed = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let stopped = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if stopped.elapsed() > Duration::from_secs(10) {
                let _ = child.kill();
                panic!("outcome-audit still ran after {signal}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(130), "{signal}");
        let stderr = std::fs::read_to_string(dir.join("audit.err")).unwrap();
        assert!(stderr.contains("interrupted"), "{stderr}");
        assert_server_gone(&dir);
    }
}

/// `--header` is sent on every request: the server answers nothing
/// without it.
#[test]
fn headers_are_sent_on_every_request() {
    let tools = serde_json::json!([
        {"name": "fine", "description": "Return the text x.", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}
    ]);
    let answer = move |method: &str| match method {
        "tools/list" => Some(Reply::Result(serde_json::json!({"tools": tools}))),
        "tools/call" => Some(Reply::Result(serde_json::json!({
            "content": [{"type": "text", "text": "Wrong."}],
            "isError": true
        }))),
        _ => None,
    };
    let (url, refused) = guarded_server(Some(("x-audit-key", "s3cret value")), answer.clone());
    let (output, report) = audit_within(&["--timeout", "60", &url], Duration::from_secs(90));
    assert_eq!(output.status.code(), Some(4), "{report}");
    assert!(refused.load(Ordering::SeqCst) > 0);
    let (url, refused) = guarded_server(Some(("x-audit-key", "s3cret value")), answer);
    let (output, report) = audit_within(
        &[
            "--header",
            "X-Audit-Key:  s3cret value ",
            "--timeout",
            "60",
            &url,
        ],
        Duration::from_secs(90),
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        report.starts_with("outcome audit: NOT clean: 1 tools, 3 calls"),
        "{report}"
    );
    assert_eq!(refused.load(Ordering::SeqCst), 0);
}

/// The build speaks TLS: an https URL is read, and a handshake with a port
/// that answers plain HTTP fails at once.
#[test]
fn https_to_a_plain_port_fails_fast() {
    use std::io::{Read, Write};

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut hello = [0; 512];
            let _ = stream.read(&mut hello);
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        }
    });
    let url = format!("https://{address}/mcp");
    let started = Instant::now();
    let (output, report) = audit_within(&["--init-timeout", "30", &url], Duration::from_secs(20));
    assert_eq!(output.status.code(), Some(4), "{report}");
    assert!(started.elapsed() < Duration::from_secs(10));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no MCP session"), "{stderr}");
    assert!(!stderr.contains("plain HTTP only"), "{stderr}");
}
