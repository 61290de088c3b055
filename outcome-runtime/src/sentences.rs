//! Messages built from a server author's parts: the problem and the next
//! step of outcomes 2 and 3, and the text of a fault that heals itself.
//!
//! The parts are the author's, and often hold what the model sent, so they
//! may be anything: lines, megabytes, nothing at all. What the model reads
//! is still one line of at most [`MESSAGE_LIMIT`] characters made of whole
//! sentences, and never a sentence built from nothing: an empty part is
//! left out or replaced by a documented fallback.

use std::fmt::{self, Display, Write};

use crate::message::{MESSAGE_LIMIT, RETRY_MESSAGE, one_line};

/// The longest next step, in characters: the step is the part the model
/// acts on, so it is kept whole before the problem is.
const STEP_LIMIT: usize = 400;

/// Room kept for a fallback step that names the tool.
const FALLBACK_ROOM: usize = 200;

/// The longest tool name a fallback step names; longer names are left
/// generic ("the tool").
const TOOL_NAME_LIMIT: usize = 128;

/// How much of an author's part is formatted at all: enough that cutting
/// to [`MESSAGE_LIMIT`] after collapsing whitespace still has text to cut.
const FORMAT_LIMIT: usize = 64 * 1024;

/// A built message, and where its fallback step starts if it has one.
pub(crate) struct Built {
    pub(crate) text: String,
    pub(crate) fallback: Option<Fallback>,
}

/// A fallback step at the end of a message, to be made to name the tool
/// once the call is known.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fallback {
    at: usize,
    kind: FallbackKind,
}

#[derive(Clone, Copy, Debug)]
enum FallbackKind {
    Change,
    Refresh,
}

impl FallbackKind {
    fn sentence(self, tool: &str) -> String {
        match self {
            FallbackKind::Change => format!("Correct the request, then call {tool} again."),
            FallbackKind::Refresh => {
                format!("Read the current state again, then call {tool} with it.")
            }
        }
    }
}

impl Fallback {
    /// Rewrites the fallback step of `text` to name `tool`.
    pub(crate) fn name_tool(self, text: &mut String, tool: &str) {
        let clean = tool.chars().count() <= TOOL_NAME_LIMIT
            && !tool.chars().any(crate::message::is_invisible)
            && !tool.trim().is_empty();
        if clean && text.is_char_boundary(self.at) {
            text.truncate(self.at);
            text.push_str(&self.kind.sentence(tool));
        }
    }
}

/// Outcome 2: the problem, then the next step.
pub(crate) fn invalid(problem: &dyn Display, step: &dyn Display) -> Built {
    let step = part(step, STEP_LIMIT);
    let problem = part(problem, problem_room(&step));
    let mut text = String::new();
    if !problem.is_empty() {
        push_sentence(&mut text, &problem);
    } else if step.is_empty() {
        push_sentence(&mut text, "The request cannot be carried out as sent");
    }
    finish(text, &step, FallbackKind::Change)
}

/// Outcome 3: the problem, the clause that says resending fails, then the
/// refresh step.
pub(crate) fn stale(problem: &dyn Display, refresh: &dyn Display) -> Built {
    const RESENDING: &str = ", so resending this call fails again";
    let refresh = part(refresh, STEP_LIMIT);
    let room = problem_room(&refresh).saturating_sub(RESENDING.len() + 1);
    let mut problem = part(problem, room);
    // A sentence end of the author's would stand before the clause; the
    // dots of a cut part stay, to show the cut.
    if !problem.ends_with("...") && problem.ends_with(['.', '!', '?']) {
        problem.pop();
    }
    if problem.trim().is_empty() {
        problem = "What this call relies on has changed".to_owned();
    }
    problem.push_str(RESENDING);
    let mut text = String::new();
    push_sentence(&mut text, &problem);
    finish(text, &refresh, FallbackKind::Refresh)
}

/// Outcome 4 that heals itself, in the tool's words.
pub(crate) fn retry(message: &dyn Display) -> Built {
    let message = part(message, MESSAGE_LIMIT - 1);
    let mut text = String::new();
    if message.is_empty() {
        text.push_str(RETRY_MESSAGE);
    } else {
        push_sentence(&mut text, &message);
    }
    Built {
        text,
        fallback: None,
    }
}

/// Ends a message with its step, or with the fallback step when the author
/// gave none.
fn finish(mut text: String, step: &str, kind: FallbackKind) -> Built {
    if !step.is_empty() {
        push_sentence(&mut text, step);
        return Built {
            text,
            fallback: None,
        };
    }
    if !text.is_empty() {
        text.push(' ');
    }
    let at = text.len();
    text.push_str(&kind.sentence("the tool"));
    Built {
        text,
        fallback: Some(Fallback { at, kind }),
    }
}

/// How many characters the problem may take beside `step`.
fn problem_room(step: &str) -> usize {
    let step = match step.chars().count() {
        0 => FALLBACK_ROOM,
        n => n + 2,
    };
    // One more for the full stop the problem may need.
    MESSAGE_LIMIT.saturating_sub(step + 2)
}

/// Appends `sentence` to `text`, with a space before it and a full stop
/// after it unless it already ends a sentence.
fn push_sentence(text: &mut String, sentence: &str) {
    if !text.is_empty() {
        text.push(' ');
    }
    text.push_str(sentence);
    if !sentence.ends_with(['.', '!', '?']) {
        text.push('.');
    }
}

/// One author's part as one clean line of at most `limit` characters; empty
/// when it holds nothing but space.
fn part(part: &dyn Display, limit: usize) -> String {
    let mut text = Capped(String::new());
    // The author's `Display` failing (or `Capped` stopping it) leaves what
    // was written so far, which is what the model can use.
    let _ = write!(text, "{part}");
    one_line(&text.0, limit)
}

/// A string that stops taking text at [`FORMAT_LIMIT`] bytes.
struct Capped(String);

impl Write for Capped {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = FORMAT_LIMIT.saturating_sub(self.0.len());
        if s.len() <= room {
            self.0.push_str(s);
            return Ok(());
        }
        let mut end = room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.0.push_str(&s[..end]);
        Err(fmt::Error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn line_breaks_become_spaces() {
        let built = invalid(&"No note\nat 'x'", &"Find it\r\nwith search_notes");
        assert_eq!(built.text, "No note at 'x'. Find it with search_notes.");
    }
}
