//! The text the model reads: safe quoting of values it sent, and the fixed
//! messages of outcome 4.
//!
//! Every message the runtime writes follows the same rules: it is written to
//! the model, it stands on its own, it is one or two sentences, and it never
//! names a type, a server path, an error code or a log line.

use std::fmt::{self, Display, Write};

/// The longest quoted value, in characters, before it is cut.
///
/// A model can send a megabyte in one argument; echoing it back would flood
/// its context. Eighty characters keep a path or an identifier whole and a
/// pasted document recognisable.
pub const QUOTE_LIMIT: usize = 80;

/// The message every unclassified fault sends.
///
/// The request was fine, so the model must not change it; the fault is the
/// server's, so the model retries later and involves the user if it persists.
pub const FAULT_MESSAGE: &str = "The server failed while handling this request, and the request itself \
     was fine, so do not change it. Retry later, and if it keeps failing, tell the user.";

/// The message a fault that heals itself sends when the tool did not name the
/// condition more precisely (an upstream timeout or rate limit).
pub const RETRY_MESSAGE: &str = "A service this server depends on is busy or did not answer in time, \
     and the request itself was fine. Retry the same call in a minute.";

/// Quotes a value the model sent, for use inside a message.
///
/// The result displays as the value between single quotes, with `'` and `\`
/// escaped; newlines, tabs, every other control character and the invisible
/// characters that reorder or hide text (bidirectional overrides,
/// zero-width spaces) written as escapes; and cut, marked with `...`, once
/// the escaped text would pass [`QUOTE_LIMIT`] characters. Formatting it
/// allocates nothing.
///
/// ```
/// use outcome_runtime::quote;
///
/// assert_eq!(quote("inbox/todo.md").to_string(), "'inbox/todo.md'");
/// assert_eq!(quote("it's\nfine").to_string(), r"'it\'s\nfine'");
/// assert_eq!(quote(42).to_string(), "'42'");
/// ```
pub fn quote<T: Display>(value: T) -> Quoted<T> {
    Quoted(value)
}

/// A value the model sent, quoted for a message; made by [`quote`].
#[derive(Clone, Copy, Debug)]
pub struct Quoted<T>(T);

impl<T: Display> Display for Quoted<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('\'')?;
        let mut escaper = Escaper {
            out: f,
            written: 0,
            cut: false,
        };
        // `Escaper` stops writing at the limit without failing, so an error
        // here comes from the formatter itself.
        write!(escaper, "{}", self.0)?;
        let cut = escaper.cut;
        if cut {
            f.write_str("...")?;
        }
        f.write_char('\'')
    }
}

/// Writes escaped characters through to a formatter and stops at the limit.
struct Escaper<'a, 'b> {
    out: &'a mut fmt::Formatter<'b>,
    written: usize,
    cut: bool,
}

impl Write for Escaper<'_, '_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            if self.cut {
                return Ok(());
            }
            let short = match c {
                '\'' => Some("\\'"),
                '\\' => Some("\\\\"),
                '\n' => Some("\\n"),
                '\r' => Some("\\r"),
                '\t' => Some("\\t"),
                _ => None,
            };
            // `\u{hex}`: four characters around the hex digits.
            let hex_digits = (32 - (c as u32 | 1).leading_zeros()).div_ceil(4) as usize;
            let length = match short {
                Some(escape) => escape.len(),
                None if needs_escape(c) => hex_digits + 4,
                None => 1,
            };
            if self.written + length > QUOTE_LIMIT {
                self.cut = true;
                return Ok(());
            }
            self.written += length;
            match short {
                Some(escape) => self.out.write_str(escape)?,
                None if needs_escape(c) => write!(self.out, "\\u{{{:x}}}", c as u32)?,
                None => self.out.write_char(c)?,
            }
        }
        Ok(())
    }
}

/// Characters that would change how the text around them reads, or hide:
/// control characters, line and paragraph separators, bidirectional
/// overrides and isolates, and zero-width characters.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00ad}'
                | '\u{061c}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206f}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
        )
}

/// The longest text the model reads in one message built from a server
/// author's parts, in characters. (Stub: to be documented with its reason.)
pub const MESSAGE_LIMIT: usize = 1000;

/// Whether `c` must never reach the model or a log line raw: control
/// characters, line and paragraph separators, and every invisible or
/// default-ignorable code point. (Stub: to be completed.)
pub(crate) fn is_invisible(c: char) -> bool {
    needs_escape(c)
}

/// `text` as one clean line of at most `limit` characters: every run of
/// whitespace (newlines included) becomes one space, invisible characters
/// are written as `\u{..}` escapes, the ends are trimmed, and a text past
/// the limit is cut and ends in `...`. (Stub: to be completed.)
pub(crate) fn one_line(text: &str, limit: usize) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(limit)
        .collect()
}

/// Joins two parts into sentences: a full stop after each unless it already
/// ends in one.
pub(crate) fn sentences(first: &dyn Display, second: &dyn Display) -> String {
    let mut text = first.to_string();
    end_sentence(&mut text);
    let second = second.to_string();
    let second = second.trim();
    if !second.is_empty() {
        text.push(' ');
        text.push_str(second);
        end_sentence(&mut text);
    }
    text
}

/// Composes an outcome 3 message: the problem, the fixed clause that says the
/// same call fails again, and the refresh step.
pub(crate) fn stale_sentences(problem: &dyn Display, refresh: &dyn Display) -> String {
    let mut text = problem.to_string();
    let trimmed = text.trim_end().trim_end_matches(['.', '!', '?']).len();
    text.truncate(trimmed);
    text.push_str(", so resending this call fails again");
    sentences(&text, refresh)
}

fn end_sentence(text: &mut String) {
    let trimmed = text.trim_end().len();
    text.truncate(trimmed);
    if !text.ends_with(['.', '!', '?']) {
        text.push('.');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_escape_quotes_backslashes_and_controls() {
        assert_eq!(quote("a'b\\c").to_string(), r"'a\'b\\c'");
        assert_eq!(
            quote("x\u{0}y\u{7f}\r\t").to_string(),
            r"'x\u{0}y\u{7f}\r\t'"
        );
        assert_eq!(quote("a\u{2028}b").to_string(), r"'a\u{2028}b'");
        assert_eq!(quote("evil\u{202e}txt").to_string(), r"'evil\u{202e}txt'");
        assert_eq!(
            quote("a\u{200b}\u{feff}b").to_string(),
            r"'a\u{200b}\u{feff}b'"
        );
    }

    #[test]
    fn the_limit_counts_escaped_characters() {
        let quoted = quote("\n".repeat(100)).to_string();
        assert!(quoted.chars().count() <= QUOTE_LIMIT + 2 + 3, "{quoted}");
        assert!(quoted.ends_with("...'"));
    }

    #[test]
    fn quotes_are_cut_at_the_limit() {
        let long = "é".repeat(QUOTE_LIMIT + 20);
        let quoted = quote(&long).to_string();
        assert_eq!(quoted.chars().count(), QUOTE_LIMIT + 2 + 3);
        assert!(quoted.ends_with("...'"));
        let exact = "a".repeat(QUOTE_LIMIT);
        assert!(!quote(&exact).to_string().contains("..."));
    }

    #[test]
    fn sentences_add_one_full_stop() {
        assert_eq!(sentences(&"No note", &"Look it up"), "No note. Look it up.");
        assert_eq!(
            sentences(&"No note.", &"Look it up!  "),
            "No note. Look it up!"
        );
    }
}
