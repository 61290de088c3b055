//! A text passed on from an `ErrorData` (the author's own, an upstream's),
//! read with the call's arguments: what the model sent is its own to read
//! back, quoted; a path of the server is masked where it stands; what only
//! the operator can read (a type, a stack frame, a command) takes its
//! sentence with it.

use std::ops::Range;

use outcome_rules::Rule;
use rmcp::model::JsonObject;
use serde_json::Value;

/// What stands in the text for a path of the server the model did not send.
pub(crate) const SERVER_PATH: &str = "a path on the server";

/// How many of the arguments' strings are compared, and how deep: enough
/// for any tool's input, bounded for a client's megabyte of them.
const STRINGS_LIMIT: usize = 256;
const DEPTH_LIMIT: usize = 8;

/// The string values of the call's arguments, at any depth.
#[derive(Clone, Copy, Default)]
pub(crate) struct Sent<'a>(Option<&'a JsonObject>);

impl<'a> Sent<'a> {
    /// The values of `arguments`.
    pub(crate) fn new(arguments: Option<&'a JsonObject>) -> Self {
        Sent(arguments)
    }

    /// The value the model sent that `word` is, or that `word` ends with
    /// as the last part of a path (`/srv/root/notes/a.md` for `notes/a.md`:
    /// the server's resolution of the model's path).
    pub(crate) fn value_in(&self, word: &str) -> Option<&'a str> {
        let mut found = None;
        self.each(&mut |value| {
            let value_trimmed = value.strip_prefix("./").unwrap_or(value);
            if value == word {
                found = Some(value);
                return true;
            }
            let tail = !matches!(value_trimmed, "" | "." | "..")
                && word.len() > value_trimmed.len()
                && word.ends_with(value_trimmed)
                && {
                    let before = &word[..word.len() - value_trimmed.len()];
                    before.ends_with(['/', '\\']) || value_trimmed.starts_with(['/', '\\'])
                };
            if tail {
                found = Some(value_trimmed);
                return true;
            }
            false
        });
        found
    }

    /// Calls `f` on each string value, until it returns `true`.
    fn each(&self, f: &mut dyn FnMut(&'a str) -> bool) {
        let Some(arguments) = self.0 else {
            return;
        };
        let mut left = STRINGS_LIMIT;
        for value in arguments.values() {
            if visit(value, DEPTH_LIMIT, &mut left, f) {
                return;
            }
        }
    }
}

/// Walks `value`'s strings; `true` once `f` found what it looks for.
fn visit<'a>(
    value: &'a Value,
    depth: usize,
    left: &mut usize,
    f: &mut dyn FnMut(&'a str) -> bool,
) -> bool {
    if *left == 0 || depth == 0 {
        return false;
    }
    match value {
        Value::String(text) => {
            *left -= 1;
            f(text)
        }
        Value::Array(items) => items.iter().any(|item| visit(item, depth - 1, left, f)),
        Value::Object(map) => map.values().any(|item| visit(item, depth - 1, left, f)),
        _ => false,
    }
}

/// `text` with what the model sent read back, and its words that tell
/// what the server is made of dealt with: a value the model sent kept,
/// quoted; a path of the server masked in place; any other such word (a
/// type, a frame, a command, an environment variable, a log line) left out
/// with its sentence. `None` when nothing changes.
pub(crate) fn read_back(text: &str, sent: Sent<'_>) -> Option<String> {
    amended(text, outcome_rules::leaks(text), sent, true)
}

/// `text` with `leaks` dealt with as [`read_back`] says; the model's values
/// that are no leak quoted too when `quote_values`. `None` when nothing
/// changes.
pub(crate) fn amended(
    text: &str,
    leaks: Vec<outcome_rules::Broken>,
    sent: Sent<'_>,
    quote_values: bool,
) -> Option<String> {
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let mut dropped: Vec<Range<usize>> = Vec::new();
    for leak in leaks {
        let at = leak.at.clone();
        // Two rules on the same words: the first reading stands.
        if edits.iter().any(|(edit, _)| overlaps(edit, &at)) {
            continue;
        }
        let word = &text[at.clone()];
        match sent.value_in(word) {
            Some(value) if value == word && is_quoted(text, &at) => {}
            Some(value) => edits.push((at, crate::base::message::quote(value).to_string())),
            // The mask is no value: the quotes around the path go too.
            None if leak.rule == Rule::NoPath && is_quoted(text, &at) => {
                edits.push((at.start - 1..at.end + 1, SERVER_PATH.to_owned()));
            }
            None if leak.rule == Rule::NoPath => edits.push((at, SERVER_PATH.to_owned())),
            None => dropped.push(at),
        }
    }
    // The model's other values, where the text says them as they were sent.
    sent.each(&mut |value| {
        if !quote_values || value.chars().count() < VALUE_MIN {
            return false;
        }
        for (start, _) in text.match_indices(value) {
            let at = start..start + value.len();
            if stands_alone(text, &at)
                && !is_quoted(text, &at)
                && !edits.iter().any(|(edit, _)| overlaps(edit, &at))
            {
                edits.push((at, crate::base::message::quote(value).to_string()));
            }
        }
        false
    });
    if edits.is_empty() && dropped.is_empty() {
        return None;
    }
    edits.sort_by_key(|(at, _)| at.start);
    let mut kept = String::with_capacity(text.len() + 16);
    for sentence in outcome_rules::sentences(text) {
        if dropped.iter().any(|at| overlaps(at, &sentence)) {
            continue;
        }
        if !kept.is_empty() {
            kept.push(' ');
        }
        let mut from = sentence.start;
        for (at, with) in edits.iter().filter(|(at, _)| overlaps(at, &sentence)) {
            // Words across a sentence's end, or read twice, stay as written.
            if at.start < from || at.end > sentence.end {
                continue;
            }
            kept.push_str(&text[from..at.start]);
            kept.push_str(with);
            from = at.end;
        }
        kept.push_str(&text[from..sentence.end]);
    }
    Some(kept)
}

/// The shortest value quoted where the text says it: shorter ones ("a",
/// "10") are words and numbers of the text as often as the model's.
const VALUE_MIN: usize = 3;

/// Whether `at` is a whole word or words of `text`: what stands around it
/// is a space, the text's end, or punctuation that is no part of a name.
fn stands_alone(text: &str, at: &Range<usize>) -> bool {
    let before = text[..at.start].chars().next_back();
    let after = text[at.end..].chars().next();
    let rest = &text[at.end..];
    let open = |c: Option<char>| match c {
        None => true,
        Some(c) => c.is_whitespace() || matches!(c, '(' | '[' | '{' | ':' | ',' | '='),
    };
    let close = match after {
        None => true,
        // A full stop ends the sentence unless a name goes on after it.
        Some('.') => !rest[1..].starts_with(|c: char| c.is_alphanumeric() || c == '_'),
        Some(c) => c.is_whitespace() || matches!(c, ')' | ']' | '}' | ':' | ',' | ';' | '!' | '?'),
    };
    open(before) && close
}

/// Whether `at` stands between quotes already.
fn is_quoted(text: &str, at: &Range<usize>) -> bool {
    let before = text[..at.start].chars().next_back();
    let after = text[at.end..].chars().next();
    matches!(
        (before, after),
        (Some('\''), Some('\'')) | (Some('"'), Some('"')) | (Some('`'), Some('`'))
    )
}

fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

/// The reason an error's `data` gives, where its message says nothing
/// (only a code name): a string, or the string under a key that names a
/// reason.
pub(crate) fn data_reason(data: Option<&Value>) -> Option<&str> {
    const KEYS: &[&str] = &[
        "reason",
        "message",
        "detail",
        "details",
        "error",
        "description",
        "cause",
    ];
    match data? {
        Value::String(reason) => Some(reason.as_str()),
        Value::Object(map) => KEYS
            .iter()
            .find_map(|key| map.get(*key).and_then(Value::as_str)),
        _ => None,
    }
    .filter(|reason| reason.chars().any(char::is_alphanumeric))
}

/// `text` without an operating system's error number, which the model
/// cannot act on: "File exists (os error 17)" reads "File exists", and
/// "[Errno 2] No such file" reads "No such file".
pub(crate) fn without_os_error_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let next = [" (os error ", "(os error ", "[Errno "]
            .iter()
            .filter_map(|open| rest.find(open).map(|at| (at, *open)))
            .min_by_key(|(at, _)| *at);
        let Some((at, open)) = next else {
            out.push_str(rest);
            return out;
        };
        let close = if open.starts_with('[') { ']' } else { ')' };
        let after = &rest[at + open.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || !after[digits..].starts_with(close) {
            out.push_str(&rest[..at + open.len()]);
            rest = after;
            continue;
        }
        out.push_str(&rest[..at]);
        rest = &after[digits + 1..];
        // "[Errno 2] No such file": the space after it goes too.
        if close == ']' {
            rest = rest.strip_prefix(' ').unwrap_or(rest);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn arguments(value: Value) -> JsonObject {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn the_models_path_is_kept_quoted_and_the_servers_masked() {
        let args = arguments(json!({ "path": "/etc/passwd" }));
        let text = "Access denied - path outside allowed directories: /etc/passwd not in \
                    [/home/ada/projects, /srv/share]";
        assert_eq!(
            read_back(text, Sent::new(Some(&args))).unwrap(),
            "Access denied - path outside allowed directories: '/etc/passwd' not in \
             [a path on the server, a path on the server]"
        );
        // Without the arguments nothing tells the two apart.
        assert_eq!(
            read_back(text, Sent::default()).unwrap(),
            "Access denied - path outside allowed directories: a path on the server not in \
             [a path on the server, a path on the server]"
        );
    }

    #[test]
    fn the_servers_resolution_of_the_models_path_reads_as_the_models() {
        let args = arguments(json!({ "paths": ["notes/a.md"] }));
        let text = "No such file: /srv/root/notes/a.md.";
        assert_eq!(
            read_back(text, Sent::new(Some(&args))).unwrap(),
            "No such file: 'notes/a.md'."
        );
        // Part of a name is no path's end.
        let args = arguments(json!({ "path": "a.md" }));
        assert_eq!(
            read_back("No such file: /srv/root/data.md.", Sent::new(Some(&args))).unwrap(),
            "No such file: a path on the server."
        );
    }

    #[test]
    fn a_value_already_quoted_is_not_quoted_twice() {
        let args = arguments(json!({ "path": "/tmp/x" }));
        assert_eq!(
            read_back("Cannot open '/tmp/x'.", Sent::new(Some(&args))),
            None
        );
    }

    #[test]
    fn the_models_values_are_quoted_where_they_stand_alone() {
        let args = arguments(json!({ "path": "notes/plan.md", "old": "Budget", "n": "ab" }));
        assert_eq!(
            read_back(
                "oldText not found in notes/plan.md: Budget. Budgets, ab.",
                Sent::new(Some(&args))
            )
            .unwrap(),
            "oldText not found in 'notes/plan.md': 'Budget'. Budgets, ab."
        );
        // Part of a longer name is not the value.
        let args = arguments(json!({ "path": "plan.md" }));
        assert_eq!(
            read_back("No notes/plan.md.bak here.", Sent::new(Some(&args))),
            None
        );
    }

    #[test]
    fn other_leaks_take_their_sentence() {
        let args = arguments(json!({ "path": "a" }));
        let text = "Could not read it. Set NOTES_ROOT to the notes folder.";
        assert_eq!(
            read_back(text, Sent::new(Some(&args))).unwrap(),
            "Could not read it."
        );
    }

    #[test]
    fn a_reason_comes_from_data_only_where_it_is_one() {
        assert_eq!(
            data_reason(Some(&json!({ "reason": "oldText not found" }))),
            Some("oldText not found")
        );
        assert_eq!(data_reason(Some(&json!("gone"))), Some("gone"));
        assert_eq!(data_reason(Some(&json!({ "path": "x" }))), None);
        assert_eq!(data_reason(Some(&json!({ "reason": "  " }))), None);
        assert_eq!(data_reason(None), None);
    }

    #[test]
    fn os_error_numbers_go_and_the_rest_stays() {
        assert_eq!(
            without_os_error_numbers("File exists (os error 17)"),
            "File exists"
        );
        assert_eq!(
            without_os_error_numbers("[Errno 2] No such file or directory"),
            "No such file or directory"
        );
        assert_eq!(
            without_os_error_numbers("Not a directory (os error 20). Try again."),
            "Not a directory. Try again."
        );
        assert_eq!(without_os_error_numbers("(os error x)"), "(os error x)");
        assert_eq!(without_os_error_numbers("[Errno 2"), "[Errno 2");
    }
}
