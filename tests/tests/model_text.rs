//! What the model reads is one clean line, bounded, whatever the parts a
//! tool builds it from, and the values quoted in it hide nothing.

use outcome_tests::hostile::{assert_clean, session};
use serde_json::json;

#[tokio::test]
async fn built_messages_are_one_bounded_line_whatever_the_parts() {
    let (session, _jobs) = session().await;
    let long = "word ".repeat(20_000);
    let cases = [
        ("line one\nline two\r\n\tthree", "Call refuse\nagain"),
        (long.as_str(), "Call refuse again"),
        ("No such thing", long.as_str()),
        ("", "Call refuse with a name"),
        ("No such thing", ""),
        ("", ""),
        ("   ", " \n "),
    ];
    for tool in ["refuse", "outdated", "later"] {
        for (problem, next) in cases {
            let call = session
                .call(tool, json!({ "problem": problem, "next": next }))
                .await;
            let text = call.text();
            assert_clean(text);
            let expected = if tool == "later" {
                "WARN tool_failed"
            } else {
                "INFO tool_call_failed"
            };
            assert!(
                call.events().contains(&expected.to_owned()),
                "{tool}({problem:.20?}, {next:.20?}): {:?}",
                call.records
            );
            assert!(!call.has_error(), "{tool}: {:?}", call.records);
            if tool != "later" && next.trim().is_empty() {
                assert!(text.contains(tool), "the fallback names the tool: {text}");
            }
        }
    }
}

#[tokio::test]
async fn quoted_values_hide_nothing() {
    let (session, _jobs) = session().await;
    let smuggled = "a\u{e0049}\u{e0067}\u{fe0f}\u{3164}\u{200d}\u{202e}b";
    let call = session.call("look_up", json!({ "path": smuggled })).await;
    let text = call.text();
    assert!(
        text.chars().all(|c| c.is_ascii_graphic() || c == ' '),
        "{text:?}"
    );
    assert!(text.contains("\\u{e0049}"), "{text}");
}
