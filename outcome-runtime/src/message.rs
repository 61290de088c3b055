//! The text the model reads: safe quoting of values it sent, and the fixed
//! messages of outcome 4.
//!
//! Every message the runtime writes follows the same rules: it is written to
//! the model, it stands on its own, it is one or two sentences, and it never
//! names a type, a server path, an error code or a log line.

use std::fmt::{self, Display};

// The quoting, the invisible characters and the fixed messages are written
// once, in `outcome-rules`, for the macros, this crate and the audit.
pub(crate) use outcome_rules::one_line;
pub use outcome_rules::{FAULT_MESSAGE, MESSAGE_LIMIT, QUOTE_LIMIT, RETRY_MESSAGE, is_invisible};

/// Quotes a value the model sent, for use inside a message.
///
/// The result displays as the value between single quotes, with `'` and `\`
/// escaped; newlines and tabs written as `\n`, `\r`, `\t`; every character
/// that does not show as itself written as a `\u{..}` escape; and cut, marked
/// with `...`, once the escaped text would pass [`QUOTE_LIMIT`] characters.
/// The escaped set is every control, format character (Unicode category Cf:
/// bidirectional overrides, zero-width spaces, tag characters) and line or
/// paragraph separator, plus Unicode's default-ignorable code points
/// (variation selectors, Hangul fillers), so the model reads what a human
/// reviewer would see. Formatting it allocates nothing.
///
/// ```
/// use outcome_runtime::quote;
///
/// assert_eq!(quote("inbox/todo.md").to_string(), "'inbox/todo.md'");
/// assert_eq!(quote("it's\nfine").to_string(), r"'it\'s\nfine'");
/// assert_eq!(quote("a\u{e0041}b").to_string(), r"'a\u{e0041}b'");
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
        outcome_rules::write_quoted(f, &self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quote_displays_as_the_rules_write_it() {
        for value in [
            "inbox/todo.md",
            "it's\n\u{202e}",
            &"é".repeat(QUOTE_LIMIT + 20),
        ] {
            assert_eq!(quote(value).to_string(), outcome_rules::quote(value));
        }
        assert_eq!(quote(42).to_string(), "'42'");
    }
}
