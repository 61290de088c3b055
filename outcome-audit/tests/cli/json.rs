//! `--format json`: one document, its fields, the server's words escaped,
//! and every tool of the tool list under exactly one heading.

use std::time::Duration;

use super::{Reply, audit, audit_within, hostile_server, hostile_server_by_request, notes_example};

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
    assert_eq!(json["why_not_clean"], serde_json::json!([]));
    assert_eq!(
        json["tools"].as_array().unwrap().len(),
        json["counts"]["tools"]
    );
}

/// The names under each heading of `json["tools"]`, and whether each
/// entry has the fields the README lists.
fn headings(json: &serde_json::Value) -> Vec<(String, String)> {
    json["tools"]
        .as_array()
        .expect("a list of tools")
        .iter()
        .map(|tool| {
            for field in ["arguments", "calls", "judged", "findings", "not_probed"] {
                assert!(tool[field].is_u64(), "{field} in {tool}");
            }
            let heading = tool["heading"].as_str().unwrap().to_owned();
            assert_eq!(tool["why"].is_string(), heading != "run", "{tool}");
            (tool["name"].as_str().unwrap().to_owned(), heading)
        })
        .collect()
}

/// Every tool of the tool list is in the document under exactly one
/// heading: run, not run, not probed or not judged. A tool without
/// arguments that answers a result is run, and has no finding.
#[test]
fn format_json_names_every_tool_under_exactly_one_heading() {
    let url = hostile_server_by_request(|request| {
        let params = &request["params"];
        let read_only = serde_json::json!({"readOnlyHint": true});
        let path = serde_json::json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]});
        match request["method"].as_str()? {
            "tools/list" => Some(Reply::Result(serde_json::json!({"tools": [
                {"name": "list_allowed_directories", "description": "List the directories this server may read.", "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}, "annotations": read_only},
                {"name": "read_file", "description": "Return a file's text.", "inputSchema": path, "annotations": read_only},
                {"name": "write_file", "description": "Write a file.", "inputSchema": path},
                {"name": "odd", "inputSchema": 5},
                {"name": "index", "description": "Index the files.", "inputSchema": path, "annotations": read_only},
                {"name": "summarize", "description": "Summarize a file.", "inputSchema": path, "annotations": read_only}
            ]}))),
            "tools/call" => Some(match params["name"].as_str()? {
                "list_allowed_directories" => Reply::Result(serde_json::json!({
                    "content": [{"type": "text", "text": "/srv/files"}]
                })),
                "index" => Reply::Error(
                    serde_json::json!({"code": -32601, "message": "Call it as a task"}),
                ),
                "summarize" => Reply::Error(
                    serde_json::json!({"code": -32021, "message": "Missing required client capability"}),
                ),
                tool => Reply::Result(serde_json::json!({
                    "content": [{"type": "text", "text": format!("The argument path is wrong. Call {tool} again with a path.")}],
                    "isError": true
                })),
            }),
            _ => None,
        }
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
    let json: serde_json::Value = serde_json::from_str(&report).expect("one JSON document");
    let headings = headings(&json);
    let listed = [
        "list_allowed_directories",
        "read_file",
        "write_file",
        "odd",
        "index",
        "summarize",
    ];
    let names: Vec<&str> = headings.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, listed, "{json}");
    assert_eq!(json["counts"]["tools"], listed.len());
    let under = |heading: &str| -> Vec<&str> {
        headings
            .iter()
            .filter(|(_, under)| under == heading)
            .map(|(name, _)| name.as_str())
            .collect()
    };
    assert_eq!(under("run"), ["list_allowed_directories", "read_file"]);
    assert_eq!(under("not_run"), ["write_file"]);
    assert_eq!(under("not_probed"), ["odd", "index"]);
    assert_eq!(under("not_judged"), ["summarize"]);
    let none = &json["tools"][0];
    assert_eq!(
        (&none["arguments"], &none["calls"], &none["findings"]),
        (
            &serde_json::json!(0),
            &serde_json::json!(1),
            &serde_json::json!(0)
        ),
        "{json}"
    );
    assert!(
        !json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["tool"] == "list_allowed_directories"),
        "{json}"
    );
    // Why it is not clean: its findings (the audit's calls to read_file
    // and write_file quote no value) and what it did not probe.
    let why: Vec<&str> = json["why_not_clean"]
        .as_array()
        .unwrap()
        .iter()
        .map(|why| why.as_str().unwrap())
        .collect();
    assert!(why.iter().any(|why| why.contains(" findings: ")), "{why:?}");
    assert!(
        why.iter().any(|why| why.starts_with("2 not probed: ")),
        "{why:?}"
    );
}
