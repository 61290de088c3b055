//! The text the model reads: safe quoting of values it sent, and the fixed
//! messages of outcome 4. Every message the runtime writes is addressed to
//! the model, stands on its own in one or two sentences, and never names a
//! type, a server path, an error code or a log line.

use std::fmt::{self, Display};

// Written once, in `outcome-rules`, for the macros, this crate and the audit.
pub(crate) use outcome_rules::one_line;
pub use outcome_rules::{FAULT_MESSAGE, MESSAGE_LIMIT, QUOTE_LIMIT, RETRY_MESSAGE, is_invisible};

/// Quotes a value the model sent, for use inside a message.
///
/// It displays between single quotes, with `'` and `\` escaped, `\n`, `\r`,
/// `\t` written so, and as a `\u{..}` escape every character that does not
/// show as itself (controls, format characters such as bidi overrides,
/// zero-width spaces and tags, line and paragraph separators, and
/// default-ignorable code points), so the model reads what a reviewer would
/// see. Past [`QUOTE_LIMIT`] escaped characters it is cut, marked with
/// `...`. Formatting it allocates nothing.
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
