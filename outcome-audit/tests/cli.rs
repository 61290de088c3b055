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
        "broken: names-server-tool: the text does not end with a next step that names a tool of this server",
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
