//! The tests of `sentences`.

use super::*;

/// An error's text read outside a call: no arguments to read values from.
fn invalid_params(message: &str, tool: Option<&str>) -> Built {
    super::invalid_params(message, None, tool, Sent::default())
}

fn resource_not_found(message: &str, uri: Option<&str>, tool: Option<&str>) -> Built {
    super::resource_not_found(message, uri, tool, Sent::default())
}

fn stale(problem: &dyn Display, refresh: &dyn Display) -> Built {
    Parts::stale(problem, refresh).stale_message()
}

#[test]
fn the_seed_messages_are_reproduced() {
    let built = invalid(
        &"No note at 'inbox/todo.md'",
        &"Find the path with search_notes",
    );
    assert_eq!(
        built.text,
        "No note at 'inbox/todo.md'. Find the path with search_notes."
    );
    let built = stale(
        &"Note 'plan.md' changed since version 'a1b2'",
        &"Call read_note for the current text and version, reapply the edit, and pass the \
          new version as if_match",
    );
    assert_eq!(
        built.text,
        "Note 'plan.md' changed since version 'a1b2', so resending this call fails again. \
         Call read_note for the current text and version, reapply the edit, and pass the new \
         version as if_match."
    );
}

#[test]
fn empty_parts_never_make_an_empty_sentence() {
    assert_eq!(invalid(&"", &"Call x").text, "Call x.");
    let mut built = invalid(&"No note", &" \n ");
    assert_eq!(
        built.text,
        "No note. Correct the request, then call the tool again."
    );
    built
        .fallback
        .unwrap()
        .name_tool(&mut built.text, "read_note");
    assert_eq!(
        built.text,
        "No note. Correct the request, then call read_note again."
    );
    assert_eq!(
        invalid(&"", &"").text,
        "The request cannot be carried out as sent. Correct the request, then call the \
         tool again."
    );
    assert_eq!(
        stale(&"", &"").text,
        "What this call relies on has changed, so resending this call fails again. Read \
         the current state again, then call the tool with it."
    );
    assert_eq!(retry(&"  ").text, RETRY_MESSAGE);
}

#[test]
fn long_parts_are_cut_and_the_step_is_kept() {
    let long = "word ".repeat(20_000);
    let built = invalid(&long, &"Call x with a shorter name");
    assert!(built.text.chars().count() <= MESSAGE_LIMIT);
    assert!(built.text.ends_with("Call x with a shorter name."));
    let built = stale(&"Changed", &long);
    assert!(built.text.chars().count() <= MESSAGE_LIMIT);
    let mut built = invalid(&long, &"");
    built
        .fallback
        .unwrap()
        .name_tool(&mut built.text, &"t".repeat(TOOL_NAME_LIMIT));
    assert!(built.text.chars().count() <= MESSAGE_LIMIT);
    assert!(retry(&long).text.chars().count() <= MESSAGE_LIMIT);
}

#[test]
fn invalid_params_texts_lose_the_protocol_words() {
    let cases = [
        ("File not found: x", "File not found: x"),
        (
            "Invalid params: path must be relative",
            "path must be relative",
        ),
        (
            "invalid_params: path must be relative",
            "path must be relative",
        ),
        (
            "INVALID_PARAMS path must be relative",
            "path must be relative",
        ),
        (
            "JSON-RPC error -32602: Invalid params: path must be relative (code -32602)",
            "path must be relative",
        ),
        ("MCP error -32602: No note at 'x'", "No note at 'x'"),
        ("JSON-RPC error -32602 - No note at 'x'", "No note at 'x'"),
        ("[-32602] No note at 'x'.", "No note at 'x'."),
        ("No note at 'x' (-32602).", "No note at 'x'."),
        (
            "No note at 'x', error -32602, retry with y",
            "No note at 'x', retry with y",
        ),
        (
            "Invalid params: Error reading the index",
            "Error reading the index",
        ),
        (
            "The JSON-RPC request named no path",
            "The request named no path",
        ),
        ("Error code 7 is unknown", "Error code 7 is unknown"),
        ("Pick (a) or (b)", "Pick (a) or (b)"),
        ("Send [ids] (jsonrpc) again", "Send [ids] again"),
        (
            "failed to deserialize parameters: missing field `path`",
            "missing field `path`",
        ),
        ("-31999 is a fine number", "-31999 is a fine number"),
        ("invalid params", ""),
        ("Invalid params:", ""),
        ("-32602", ""),
        ("", ""),
    ];
    for (text, clean) in cases {
        assert_eq!(without_jargon(text), clean, "{text:?}");
    }
}

#[test]
fn a_step_that_names_a_tool_is_not_repeated() {
    let built = invalid_params(
        "Access denied: path outside allowed directories. \
         Call list_allowed_directories to see them.",
        None,
    );
    assert_eq!(
        built.text,
        "Access denied: path outside allowed directories. \
         Call list_allowed_directories to see them."
    );
    assert!(built.fallback.is_none());
    // A last sentence that is no step, or names no tool, gets the step.
    for text in [
        "The file is too large. The limit is max_size bytes.",
        "Call the tool with less.",
        "Use _private.",
    ] {
        let built = invalid_params(text, None);
        assert!(built.fallback.is_some(), "{text}");
        assert!(
            built
                .text
                .ends_with("Correct the request, then call the tool again."),
            "{}",
            built.text
        );
    }
}

#[test]
fn invalid_params_always_ends_with_a_step() {
    let mut built = invalid_params("File not found: x", None);
    assert_eq!(
        built.text,
        "File not found: x. Correct the request, then call the tool again."
    );
    built
        .fallback
        .unwrap()
        .name_tool(&mut built.text, "read_file");
    assert_eq!(
        built.text,
        "File not found: x. Correct the request, then call read_file again."
    );
    assert_eq!(
        invalid_params(" Invalid params: \n", None).text,
        "The request cannot be carried out as sent. Correct the request, then call the \
         tool again."
    );
    // The step of a `ToolError` that came back as an `ErrorData` is
    // not repeated.
    let stand_in = invalid(&"No note at 'x'", &"").text;
    assert_eq!(invalid_params(&stand_in, None).text, stand_in);
    let long = invalid_params(&"word\n".repeat(100_000), None);
    assert!(long.text.chars().count() <= MESSAGE_LIMIT);
    assert!(
        long.text
            .ends_with("... Correct the request, then call the tool again.")
    );
}

#[test]
fn a_step_naming_a_tool_without_an_underscore_is_not_repeated() {
    // The tool called, named in the step.
    let text = "The page is longer than max_length allows. Call fetch again with a larger \
                start_index.";
    let built = invalid_params(text, Some("fetch"));
    assert_eq!(built.text, text);
    assert!(built.fallback.is_none());
    let text = "That page is not cached. Use fetch with its address first.";
    assert!(invalid_params(text, Some("fetch")).fallback.is_none());
    // A step after "!" or "?", or without a full stop, is still one.
    for (text, read) in [
        (
            "Denied! Call list_allowed_directories to see them.",
            "Denied! Call list_allowed_directories to see them.",
        ),
        (
            "Denied? Call list_allowed_directories to see them",
            "Denied? Call list_allowed_directories to see them.",
        ),
    ] {
        let built = invalid_params(text, Some("read_file"));
        assert_eq!(built.text, read);
        assert!(built.fallback.is_none());
    }
}

#[test]
fn a_step_that_names_no_tool_is_joined_by_the_call() {
    // A step the server wrote, naming no tool: the call to make goes
    // after it, in the same sentence, so the message stays two.
    for (text, read) in [
        (
            "Rate limited. Call less often.",
            "Rate limited. Call less often, then call fetch again.",
        ),
        (
            "The range is past the end. Set start_index to 0.",
            "The range is past the end. Set start_index to 0, then call fetch again.",
        ),
        (
            "Too large. Call search to find a smaller one",
            "Too large. Call search to find a smaller one, then call fetch again.",
        ),
    ] {
        let mut built = invalid_params(text, None);
        built.fallback.unwrap().name_tool(&mut built.text, "fetch");
        assert_eq!(built.text, read, "{text}");
    }
    // Not a step: a sentence alone, a word such as "Read" or "Check"
    // that starts a problem, or "Use of": the step is a sentence of
    // its own.
    for text in [
        "Call support.",
        "Too large. Call it again later.",
        "Read error: permission denied.",
        "Denied. Check failed for that path.",
        "Denied. Use of absolute paths is not allowed.",
        "The fetch of that page was refused.",
    ] {
        let built = invalid_params(text, Some("fetch"));
        assert!(
            built
                .text
                .ends_with(". Correct the request, then call the tool again."),
            "{text}: {}",
            built.text
        );
    }
    // A question, "Try again", an abbreviation's full stop: still one
    // step, joined.
    for (text, read) in [
        (
            "Too large. Try a different path?",
            "Too large. Try a different path, then call fetch again.",
        ),
        (
            "Too large. Try again with a smaller limit.",
            "Too large. Try again with a smaller limit, then call fetch again.",
        ),
        (
            "Invalid date. Use ISO 8601, e.g. 2024-01-31.",
            "Invalid date. Use ISO 8601, e.g. 2024-01-31, then call fetch again.",
        ),
    ] {
        let mut built = invalid_params(text, None);
        built.fallback.unwrap().name_tool(&mut built.text, "fetch");
        assert_eq!(built.text, read, "{text}");
    }
    // "Call" as a noun: no step.
    let built = invalid_params("Quota reached. Call limit is 100 per hour.", None);
    assert!(
        built
            .text
            .ends_with("hour. Correct the request, then call the tool again."),
        "{}",
        built.text
    );
    // A step cut at the bound keeps the dots that show the cut.
    let step = format!("Use one of {}", "notes/a, ".repeat(200));
    let built = invalid_params(&format!("Denied. {step}"), None);
    assert!(
        built.text.ends_with("..., then call the tool again."),
        "{}",
        built.text
    );
    // The joined call of a message that travelled as an `ErrorData`
    // is not said twice.
    let travelled = invalid_params("Too large. Set limit to 10.", None).text;
    assert_eq!(
        travelled,
        "Too large. Set limit to 10, then call the tool again."
    );
    assert_eq!(invalid_params(&travelled, None).text, travelled);
}

#[test]
fn a_code_name_for_a_message_is_said_in_words() {
    for (code, words) in [
        ("invalid_args", "Invalid args."),
        ("INVALID_PATH", "Invalid path."),
        ("path_outside_root.", "Path outside root."),
        ("Invalid params: bad_request", "Bad request."),
    ] {
        let built = invalid_params(code, None);
        assert_eq!(
            built.text,
            format!("{words} Correct the request, then call the tool again."),
            "{code}"
        );
    }
    // A name that reads as a value, a name inside
    // a sentence, or a lone word without an underscore is the author's
    // and stays as written.
    for text in [
        "meeting_notes",
        "path must be under notes_root.",
        "Forbidden.",
        "_private",
        "a__b",
    ] {
        let built = invalid_params(text, None);
        assert!(
            built.text.starts_with(text.trim_end_matches('.')),
            "{text}: {}",
            built.text
        );
    }
    // A code with digits is one to look up, which the model cannot.
    assert!(invalid_params("ERR_404", None).text.starts_with(CANNOT));
    // Nothing but punctuation or invisible characters is no problem at
    // all.
    for text in ["?", "\u{feff}", "\u{200b} \u{202e}."] {
        assert_eq!(
            invalid_params(text, None).text,
            "The request cannot be carried out as sent. Correct the request, then call \
             the tool again.",
            "{text:?}"
        );
    }
}

#[test]
fn resource_not_found_says_so_and_keeps_the_uri_it_carries() {
    let fallback = "Correct the request, then call the tool again.";
    for (message, uri, read) in [
        (
            "resource_not_found",
            Some("notes://inbox/todo"),
            "Resource not found: 'notes://inbox/todo'.",
        ),
        (
            "Resource not found",
            Some("notes://x"),
            "Resource not found: 'notes://x'.",
        ),
        ("no such note", None, "Not found: no such note."),
        (
            "No such note.",
            Some("notes://x"),
            "Not found: No such note: 'notes://x'.",
        ),
        (
            "Note notes://x not found",
            Some("notes://x"),
            "Note notes://x not found.",
        ),
        (
            "Note notes://xy not found",
            Some("notes://x"),
            "Note notes://xy not found: 'notes://x'.",
        ),
        ("meeting_notes", None, "Not found: meeting_notes."),
        ("", Some("notes://x"), "Not found: 'notes://x'."),
        ("?", Some("notes://x"), "Not found: 'notes://x'."),
        ("", None, "Not found."),
    ] {
        let built = resource_not_found(message, uri, None);
        assert_eq!(
            built.text,
            format!("{read} {fallback}"),
            "{message:?} {uri:?}"
        );
    }
    // A step the text ends with stays last, after the URI.
    let built = resource_not_found(
        "No such note. Call search_notes to find its path.",
        Some("notes://x"),
        None,
    );
    assert_eq!(
        built.text,
        "Not found: No such note: 'notes://x'. Call search_notes to find its path."
    );
    // A long step leaves the problem its room; a URI the cut takes out
    // of the text is added.
    let step = format!("Use one of {}", "notes://a, ".repeat(200));
    let built = resource_not_found(
        &format!("Resource not found. {step}"),
        Some("notes://x"),
        None,
    );
    assert!(
        built
            .text
            .starts_with("Resource not found: 'notes://x'. Use one of"),
        "{}",
        built.text
    );
    let long = format!("No note {}at notes://x", "word ".repeat(300));
    let built = resource_not_found(&long, Some("notes://x"), None);
    assert!(built.text.contains("...: 'notes://x'."), "{}", built.text);
    // The URI is the model's value: quoted, so escaped and bounded.
    let hostile = format!("notes://\u{202e}x\n{}", "y".repeat(10_000_000));
    let built = resource_not_found("Not found", Some(&hostile), None);
    assert!(
        built.text.starts_with(r"Not found: 'notes://\u{202e}x\ny"),
        "{}",
        built.text
    );
    assert!(built.text.chars().count() <= MESSAGE_LIMIT);
    assert!(built.text.ends_with(fallback));
    // A long text is cut where it leaves room for the URI.
    let long = format!("No note {} here", "word ".repeat(5_000));
    let built = resource_not_found(&long, Some("notes://kept"), None);
    assert!(built.text.chars().count() <= MESSAGE_LIMIT);
    assert!(
        built.text.contains("...: 'notes://kept'."),
        "{}",
        built.text
    );
    for (step, end) in [
        (
            "Call search_notes to find it.",
            "...: 'notes://kept'. Call search_notes to find it.",
        ),
        (
            "Use a shorter path.",
            "...: 'notes://kept'. Use a shorter path, then call the tool again.",
        ),
    ] {
        // Within the bound as sent, past it with the URI.
        let words = "word ".repeat((MESSAGE_LIMIT - step.len()) / 5 - 4);
        let text = format!("No note {words}here. {step}");
        assert!(text.chars().count() <= MESSAGE_LIMIT);
        let built = resource_not_found(&text, Some("notes://kept"), None);
        assert!(built.text.chars().count() <= MESSAGE_LIMIT);
        assert!(built.text.ends_with(end), "{}", built.text);
    }
}

#[test]
fn line_breaks_become_spaces() {
    let built = invalid(&"No note\nat 'x'", &"Find it\r\nwith search_notes");
    assert_eq!(built.text, "No note at 'x'. Find it with search_notes.");
}
