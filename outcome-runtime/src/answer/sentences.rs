//! Messages built from a server author's parts: the problem and the next
//! step of outcomes 2 and 3, and the text of a fault that heals itself.
//!
//! Parts often hold what the model sent, so may be anything (lines,
//! megabytes, nothing); the message is still one line of whole sentences,
//! at most [`MESSAGE_LIMIT`] characters. An empty part is left out or
//! replaced by a documented fallback, never made a sentence.

use std::fmt::{self, Display, Write};

use outcome_rules::{Rule, Step};

use crate::base::message::{MESSAGE_LIMIT, RETRY_MESSAGE, one_line};

mod jargon;
mod passed_on;
use jargon::{code_in_words, without_jargon};
pub(crate) use passed_on::{Sent, data_reason};

/// The longest next step, in characters: the step is the part the model
/// acts on, so it is kept whole before the problem is.
const STEP_LIMIT: usize = 400;

/// Room kept for a fallback step that names the tool.
const FALLBACK_ROOM: usize = 200;

/// The longest tool name a fallback step names; past it, "the tool".
const TOOL_NAME_LIMIT: usize = 128;

/// How much of an author's part is formatted at all: enough that cutting
/// to [`MESSAGE_LIMIT`] after collapsing whitespace still has text to cut.
const FORMAT_LIMIT: usize = 64 * 1024;

/// A built message, and where its fallback step starts if it has one.
pub(crate) struct Built {
    pub(crate) text: String,
    pub(crate) fallback: Option<Fallback>,
}

/// A fallback step ending a message, to name the tool once it is known.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fallback {
    at: usize,
    kind: FallbackKind,
}

#[derive(Clone, Copy, Debug)]
enum FallbackKind {
    Change,
    Refresh,
    /// The end of a step the author wrote that names no tool.
    ThenCall,
}

impl FallbackKind {
    fn sentence(self, tool: &str) -> String {
        match self {
            FallbackKind::Change => format!("Correct the request, then call {tool} again."),
            FallbackKind::Refresh => {
                format!("Read the current state again, then call {tool} with it.")
            }
            FallbackKind::ThenCall => format!("then call {tool} again."),
        }
    }
}

impl Fallback {
    pub(crate) fn name_tool(self, text: &mut String, tool: &str) {
        let clean = tool.chars().count() <= TOOL_NAME_LIMIT
            && !tool.chars().any(crate::base::message::is_invisible)
            && !tool.trim().is_empty();
        if clean && text.is_char_boundary(self.at) {
            text.truncate(self.at);
            text.push_str(&self.kind.sentence(tool));
        }
    }
}

/// The author's two parts of an outcome 2 or 3, each one bounded line.
#[derive(Clone, Debug)]
pub(crate) struct Parts {
    problem: String,
    step: String,
}

impl Parts {
    pub(crate) fn invalid(problem: &dyn Display, step: &dyn Display) -> Parts {
        let step = part(step, STEP_LIMIT);
        let problem = part(problem, problem_room(&step));
        Parts { problem, step }
    }

    /// Outcome 3's parts, leaving room for the `RESENDING` clause.
    pub(crate) fn stale(problem: &dyn Display, refresh: &dyn Display) -> Parts {
        let step = part(refresh, STEP_LIMIT);
        let room = problem_room(&step).saturating_sub(RESENDING.len() + 1);
        let problem = part(problem, room);
        Parts { problem, step }
    }

    /// The parts without their sentences that tell what the server is made
    /// of, by a rule `waives` does not allow; `None` when none does. The
    /// compiler checked only the literal words; quotes mark the model's
    /// values, as [`crate::quote`] writes them.
    ///
    /// A value the model sent in this call's arguments (`sent`), written
    /// into a part without [`crate::quote`], is still the model's: it
    /// stays, quoted; a path it did not send is masked where it stands.
    pub(crate) fn withheld(&self, waives: impl Fn(Rule) -> bool, sent: Sent<'_>) -> Option<Parts> {
        let problem = without_leaks(&self.problem, &waives, sent);
        let step = without_leaks(&self.step, &waives, sent);
        if problem.is_none() && step.is_none() {
            return None;
        }
        let mut problem = problem.unwrap_or_else(|| self.problem.clone());
        if problem.is_empty() && !self.problem.is_empty() {
            problem = CANNOT.to_owned();
        }
        Some(Parts {
            problem,
            step: step.unwrap_or_else(|| self.step.clone()),
        })
    }

    /// Outcome 2: the problem, then the next step.
    pub(crate) fn invalid_message(&self) -> Built {
        let Parts { problem, step } = self;
        let mut text = String::new();
        if !problem.is_empty() {
            push_sentence(&mut text, problem);
        } else if step.is_empty() {
            push_sentence(&mut text, CANNOT);
        }
        finish(text, step, FallbackKind::Change)
    }

    /// Outcome 3: the problem, the resending clause, then the refresh step.
    pub(crate) fn stale_message(&self) -> Built {
        let mut problem = self.problem.clone();
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
        finish(text, &self.step, FallbackKind::Refresh)
    }
}

/// What outcome 2 says when nothing of its problem can be said.
const CANNOT: &str = "The request cannot be carried out as sent";

/// The clause outcome 3 adds to its problem.
const RESENDING: &str = ", so resending this call fails again";

/// Outcome 2 from parts this crate wrote or already checked.
fn invalid(problem: &dyn Display, step: &dyn Display) -> Built {
    Parts::invalid(problem, step).invalid_message()
}

/// Outcome 2 from a JSON-RPC invalid-params text, written for a protocol,
/// not the model: without the protocol's words, then the step it ends with
/// (which may name `tool`, the tool called) or, as a rule, the fallback.
pub(crate) fn invalid_params(
    message: &str,
    reason: Option<&str>,
    tool: Option<&str>,
    sent: Sent<'_>,
) -> Built {
    let text = params_text(message, reason, sent);
    let step = last_step(&text, tool);
    let problem = step.as_ref().map_or(text.as_str(), |step| step.problem);
    with_step(problem, step)
}

/// Outcome 2 from a resource-not-found error (-32002), read as
/// [`invalid_params`] reads one, prefixed "Not found" unless it says so,
/// with the error's URI, quoted, when the text leaves it out.
pub(crate) fn resource_not_found(
    message: &str,
    uri: Option<&str>,
    tool: Option<&str>,
    sent: Sent<'_>,
) -> Built {
    const NOT_FOUND: &str = "Not found";
    let text = params_text(message, None, sent);
    let step = last_step(&text, tool);
    let problem = step.as_ref().map_or(text.as_str(), |step| step.problem);
    let problem = problem.trim_end();
    // A full stop goes, so that the URI can follow; the dots of a cut stay.
    let problem = match problem.strip_suffix(['.', '!']) {
        Some(stripped) if !problem.ends_with("...") => stripped,
        _ => problem,
    };
    // Written by whoever answered: a path of theirs is not the model's,
    // unless the model sent it.
    let uri =
        uri.filter(|uri| outcome_rules::leaks(uri).is_empty() || sent.value_in(uri) == Some(*uri));
    let quoted = uri
        .filter(|uri| !uri.is_empty())
        .map(|uri| format!(": {}", crate::base::message::quote(uri)))
        .unwrap_or_default();
    let says_not_found = problem
        .as_bytes()
        .windows(9)
        .any(|word| word.eq_ignore_ascii_case(b"not found"));
    // Cut here, not in `invalid`, so that the URI after it is kept; the
    // step is cut to its own bound.
    let step_len = step
        .as_ref()
        .map_or(0, |step| step.step.chars().count().min(STEP_LIMIT));
    let room = MESSAGE_LIMIT
        .saturating_sub(step_len + FALLBACK_ROOM + 8)
        .saturating_sub(NOT_FOUND.len() + 2 + quoted.chars().count());
    let problem = one_line(problem, room);
    // Said once: the URI is added only when the text, as cut, leaves it out.
    let quoted = match uri {
        Some(uri) if mentions(&problem, uri) => "",
        _ => quoted.as_str(),
    };
    let said = match (says_not_found, problem.is_empty()) {
        (true, _) => format!("{problem}{quoted}"),
        (false, true) => format!("{NOT_FOUND}{quoted}"),
        (false, false) => format!("{NOT_FOUND}: {problem}{quoted}"),
    };
    with_step(&said, step)
}

/// Whether `text` holds `value` as a whole, not as the start of a longer
/// name (`notes://x` in `notes://xy`): what follows it ends a word.
fn mentions(text: &str, value: &str) -> bool {
    text.match_indices(value).any(|(at, _)| {
        let rest = &text[at + value.len()..];
        match rest.chars().next() {
            None => true,
            // A full stop ends the sentence unless a name goes on after it.
            Some('.') => !rest[1..].starts_with(char::is_alphanumeric),
            Some(c) => {
                c.is_whitespace()
                    || matches!(c, ',' | ';' | ':' | ')' | ']' | '\'' | '"' | '!' | '?')
            }
        }
    })
}

/// `problem` and its text's last step: the message's step if it names a
/// tool, joined to the call if it is an imperative naming none, else the
/// fallback.
fn with_step(problem: &str, step: Option<Step<'_>>) -> Built {
    match step {
        Some(Step {
            step,
            names_tool: true,
            ..
        }) => invalid(&problem, &step),
        Some(Step {
            step,
            names_tool: false,
            imperative: true,
            ..
        }) => invalid_then_call(problem, step),
        Some(Step { step, .. }) => {
            let text = match problem.is_empty() {
                true => step.to_owned(),
                false => format!("{} {step}", problem.trim_end()),
            };
            invalid(&text, &"")
        }
        None => invalid(&problem, &""),
    }
}

/// Outcome 2 whose author's step names no tool: the step, then ", then
/// call <tool> again", in one sentence.
fn invalid_then_call(problem: &str, step: &str) -> Built {
    // The step's own end goes, but not the dots that show it was cut.
    let step = part(&step, STEP_LIMIT);
    let step = match step.strip_suffix("...") {
        Some(_) => step.as_str(),
        None => step.trim_end_matches(['.', '!', '?', ',', ';', ':', ' ']),
    };
    let room = problem_room(step).saturating_sub(FALLBACK_ROOM);
    let problem = part(&problem, room);
    let mut text = String::new();
    if !problem.is_empty() {
        push_sentence(&mut text, &problem);
        text.push(' ');
    }
    text.push_str(step);
    text.push_str(", ");
    let at = text.len();
    text.push_str(&FallbackKind::ThenCall.sentence("the tool"));
    Built {
        text,
        fallback: Some(Fallback {
            at,
            kind: FallbackKind::ThenCall,
        }),
    }
}

/// An error's problem for the model: one bounded line without the
/// protocol's words or an OS error's number, a code name in words (with
/// `reason`, from the error's `data`, after it), its leaks dealt with as
/// [`passed_on::read_back`] says; empty without letter or digit.
fn params_text(message: &str, reason: Option<&str>, sent: Sent<'_>) -> String {
    // Bounded first, so a megabyte of text costs no more than a line.
    let line = one_line(message, MESSAGE_LIMIT);
    // A `ToolError` made into an `ErrorData` outside a call ends with a
    // step naming no tool; it is added again, naming the tool.
    let generic = FallbackKind::Change.sentence("the tool");
    let joined = format!(", {}", FallbackKind::ThenCall.sentence("the tool"));
    let line = match line.strip_suffix(&generic) {
        Some(rest) => rest.to_owned(),
        None => match line.strip_suffix(&joined) {
            Some(rest) => format!("{rest}."),
            None => line,
        },
    };
    let text = passed_on::without_os_error_numbers(&without_jargon(&line));
    // Escaped, an invisible character reads as letters (`\u{feff}`): what
    // counts is the text as sent, as far as the line reaches.
    let shows_something = message
        .chars()
        .take(FORMAT_LIMIT)
        .any(|c| c.is_alphanumeric() && !crate::base::message::is_invisible(c));
    if !shows_something || !text.chars().any(char::is_alphanumeric) {
        return String::new();
    }
    let text = match code_in_words(&text) {
        // Only a code: the reason, if `data` gives one, says the rest.
        Some(code) => match reason.map(|reason| one_line(reason, MESSAGE_LIMIT)) {
            Some(reason) => format!("{code}: {}", without_jargon(&reason)),
            None => code,
        },
        None => text,
    };
    // From elsewhere: no compiler checked it, and its quotes mark no value.
    passed_on::read_back(&text, sent).unwrap_or(text)
}

/// `text` without what tells what the server is made of (a path, stack
/// frame, type, env variable, log line, command) outside the values it
/// quotes, by a rule `waives` does not allow: a value the model sent kept,
/// quoted; a path masked; any other such word left out with its sentence.
/// `None` when it has none.
fn without_leaks(text: &str, waives: &dyn Fn(Rule) -> bool, sent: Sent<'_>) -> Option<String> {
    let leaks: Vec<_> = outcome_rules::leaks_outside_values(text)
        .into_iter()
        .filter(|leak| !waives(leak.rule))
        .collect();
    if leaks.is_empty() {
        return None;
    }
    passed_on::amended(text, leaks, sent, false)
}

/// See [`outcome_rules::last_step`]; `tool` is the tool called, the only
/// one a step is known to name: the writing rule reads the step strictly.
fn last_step<'t>(text: &'t str, tool: Option<&str>) -> Option<Step<'t>> {
    let tools = match tool {
        Some(tool) => outcome_rules::Tools::new().tool(tool),
        None => outcome_rules::Tools::new(),
    };
    outcome_rules::last_step(text, &tools)
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

/// Ends a message with its step, or the fallback step when there is none.
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

/// Appends `sentence`, with a full stop unless it already ends one.
fn push_sentence(text: &mut String, sentence: &str) {
    if !text.is_empty() {
        text.push(' ');
    }
    text.push_str(sentence);
    if !sentence.ends_with(['.', '!', '?']) {
        text.push('.');
    }
}

/// A part as one clean line of at most `limit` characters; empty if blank.
fn part(part: &dyn Display, limit: usize) -> String {
    let mut text = Capped(String::new());
    // A `Display` that fails, or that `Capped` stops, leaves what it wrote.
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
mod tests;
