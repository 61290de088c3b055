//! The command's arguments, its headers, and the errors of a server that
//! cannot be audited: each with its exit status, and what a server wrote
//! reaching stderr bounded and escaped.

use std::net::TcpListener;
use std::process::Output;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::{Reply, audit, audit_within, guarded_server, hostile_server};

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
    // Given where it does not belong, or twice, it is named alone too.
    for args in [
        &["--header", "X-Key: s3cret", "--", "server"][..],
        &["--header=X-Key: s3cret", "--", "server"],
        &[
            "--header",
            "X-Key: s3cret",
            "--header",
            "x-key: s3cret",
            "http://127.0.0.1:1/mcp",
        ],
    ] {
        let (output, _) = audit(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
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

/// `--header` is sent on every request: the server answers nothing
/// without it.
#[test]
fn headers_are_sent_on_every_request() {
    let tools = serde_json::json!([
        {"name": "fine", "description": "Return the text x.", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}
    ]);
    let answer = move |request: &serde_json::Value| match request["method"].as_str() {
        Some("tools/list") => Some(Reply::Result(serde_json::json!({"tools": tools}))),
        Some("tools/call") => Some(Reply::Result(serde_json::json!({
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
