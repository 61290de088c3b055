//! The report as one JSON document, `--format json`'s: its format is
//! stable, and within format 1 fields are added, never renamed or
//! removed (the README's table says what each holds).

use outcome_audit::AuditReport;
use serde_json::{Value, json};

/// The version of `--format json`'s document: a new version only for a
/// change that is not an added field.
const JSON_FORMAT: u32 = 1;

/// The report as `--format json` prints it (format 1): the counts, every
/// defect with an example, every finding, everything not probed, not
/// run or not judged, each tool of the tool list under its heading, and
/// why the report is not clean, from the report's fields. The
/// strings are the server's words as it wrote them, with every character
/// that does not show as itself written as a `\u` escape, so the document
/// is safe to print and reads back to the same text.
pub(crate) fn json(report: &AuditReport) -> String {
    let findings: Vec<Value> = report
        .findings
        .iter()
        .map(|finding| {
            json!({
                "tool": finding.tool,
                "mistake": finding.mistake,
                "rule": finding.broken.name(),
                "call": finding.call,
                "answer": finding.text,
                "detail": finding.detail,
            })
        })
        .collect();
    let not_probed: Vec<Value> = report
        .not_probed
        .iter()
        .map(|not| {
            json!({
                "tool": not.tool,
                "argument": not.argument,
                "why": not.why,
            })
        })
        .collect();
    let defects: Vec<Value> = report
        .defects()
        .iter()
        .map(|defect| {
            let example = defect.findings[0];
            json!({
                "rule": defect.broken.name(),
                "detail": example.detail,
                "template": defect.template,
                "tools": defect.tools,
                "calls": defect.calls(),
                "findings": defect.findings.len(),
                "example": {
                    "tool": example.tool,
                    "mistake": example.mistake,
                    "call": example.call,
                    "answer": example.text,
                },
            })
        })
        .collect();
    let not_judged: Vec<Value> = report
        .not_judged
        .iter()
        .map(|not| {
            json!({
                "tool": not.tool,
                "mistake": not.mistake,
                "call": not.call,
                "answer": not.text,
                "why": not.why,
            })
        })
        .collect();
    let tools: Vec<Value> = report
        .by_tool
        .iter()
        .map(|tool| {
            json!({
                "name": tool.name,
                "heading": tool.heading.name(),
                "why": tool.why,
                "arguments": tool.arguments,
                "calls": tool.calls,
                "judged": tool.judged,
                "findings": tool.findings,
                "not_probed": tool.not_probed,
            })
        })
        .collect();
    let document = json!({
        "format": JSON_FORMAT,
        "clean": report.is_clean(),
        "counts": {
            "tools": report.tools,
            "calls": report.calls,
            "judged": report.judged,
            "defects": defects.len(),
            "findings": report.findings.len(),
            "not_probed": report.not_probed.len(),
            "not_run": report.not_run.len(),
            "not_judged": report.not_judged.len(),
        },
        "defects": defects,
        "findings": findings,
        "not_probed": not_probed,
        "not_run": report.not_run,
        "not_judged": not_judged,
        "tools": tools,
        "why_not_clean": report.why_not_clean(),
    });
    let text = serde_json::to_string_pretty(&document).unwrap_or_default();
    // JSON escapes the controls below U+0020 inside a string already, and
    // a newline outside one is the layout's.
    let mut out = String::with_capacity(text.len() + 1);
    for c in text.chars() {
        if c != '\n' && outcome_rules::is_invisible(c) {
            let mut units = [0; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out.push('\n');
    out
}
