//! Servers of real SDKs: the notes example, clean over stdio and over
//! streamable HTTP, and a FastMCP server, reported in pydantic's words.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::{audit, notes_example, root};

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
    // Five defects: names-tool, short, no-type-name ("validation error
    // for read_noteArguments"), no-lookup (the URL after "visit", the
    // issue's code) and quotes-value; pydantic's `[type=missing, ..]` is
    // a dump of fields, not a log line.
    assert_eq!(report.matches("\n  sent:   ").count(), 5, "{report}");
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
