//! A domain hook that a tool runs ends by the tool's rules: a `ToolError`
//! from it passes with its outcome, anything else, a panic included, is a
//! fault. Shown on the notes server's path hook for `write_note`.

use notes::Notes;
use outcome_runtime::{ToolError, message::FAULT_MESSAGE};
use outcome_tests::Session;
use rmcp::model::CallToolResult;
use serde_json::json;

async fn write(notes: Notes, path: &str) -> (CallToolResult, Vec<String>) {
    let session = Session::connect(notes, ()).await;
    let call = session
        .call("write_note", json!({ "path": path, "text": "x" }))
        .await;
    (call.ok().clone(), call.events())
}

fn text(result: &CallToolResult) -> &str {
    &result.content[0].as_text().unwrap().text
}

#[tokio::test]
async fn the_path_hook_rejects_a_path_outside_the_store_as_outcome_2() {
    for path in ["../etc/passwd", "/srv/notes/plan.md", "inbox//x.md"] {
        let (result, events) = write(Notes::new(false), path).await;
        assert_eq!(result.is_error, Some(true));
        assert!(
            text(&result).starts_with("The path '")
                && text(&result)
                    .contains("outside the note store. Call write_note again with a relative path"),
            "{}",
            text(&result)
        );
        assert_eq!(events, ["INFO tool_call_failed"]);
    }
    let (result, events) = write(Notes::new(false), "inbox/todo.md").await;
    assert_eq!(result.is_error, Some(false));
    assert_eq!(events, ["INFO tool_call_completed"]);
}

#[tokio::test]
async fn an_error_of_another_type_from_a_hook_is_a_fault() {
    let notes = Notes::new(false).with_path_hook(|_| {
        Err(std::io::Error::other(
            "policy file /etc/notes/policy unreadable",
        ))?
    });
    let (result, events) = write(notes, "plan2.md").await;
    assert_eq!(text(&result), FAULT_MESSAGE);
    assert_eq!(events, ["ERROR tool_failed", "ERROR tool_call_failed"]);
}

#[tokio::test]
async fn a_panic_in_a_hook_is_a_fault_and_a_tool_error_keeps_its_level() {
    let notes = Notes::new(false).with_path_hook(|path| {
        assert!(!path.is_empty(), "unreachable");
        panic!("the policy hook panicked on {path}")
    });
    let (result, events) = write(notes, "plan2.md").await;
    assert_eq!(text(&result), FAULT_MESSAGE);
    assert_eq!(events, ["ERROR tool_failed", "ERROR tool_call_failed"]);

    let notes = Notes::new(false).with_path_hook(|_| {
        Err(ToolError::retry_later(
            "The note store is being backed up, and the request itself was fine. Call \
             write_note again in a minute.",
        ))
    });
    let (_, events) = write(notes, "plan2.md").await;
    assert_eq!(events, ["WARN tool_failed", "WARN tool_call_failed"]);
}
