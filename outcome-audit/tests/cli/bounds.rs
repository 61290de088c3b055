//! The audit's bounds against a server's schemas and its silences: a
//! schema that fans out, a length no machine allocates, an entry that is
//! no tool, a call or a whole audit that takes too long.

use std::time::Duration;

use super::{Reply, audit_within, hostile_server, listing};

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
