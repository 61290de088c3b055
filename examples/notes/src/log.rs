//! How the notes server writes its plain-text log: `tracing-subscriber`'s
//! formatter, with every field value escaped and bounded.
//!
//! This crate's own records already bound and quote what a client sends.
//! rmcp's do not: its `response error` WARNING writes the JSON-RPC request
//! id bare, and its `cancelled` INFO the client's reason, so a request id
//! that holds a line break would start a line of its own in the default
//! formatter's output. Escaping every value closes that for every target.

use std::fmt::{self, Write as _};

use tracing::field::Field;
use tracing_subscriber::field::MakeExt;
use tracing_subscriber::fmt::FormatFields;
use tracing_subscriber::fmt::format::{Writer, debug_fn};

/// The longest field value written, in bytes: what this crate's own
/// records hold at most (an error chain), and a bound on anyone else's.
const FIELD_LIMIT: usize = 64 * 1024;

/// The plain-text field formatter: `name=value` pairs as the default one
/// writes them, each value with the characters
/// [`is_invisible`](outcome_runtime::message::is_invisible) names (control, bidi,
/// zero-width, line separators) written as `\u{..}`, and cut at 64 KiB.
pub fn escaped_fields() -> impl for<'w> FormatFields<'w> + Send + Sync + 'static {
    debug_fn(
        |writer: &mut Writer<'_>, field: &Field, value: &dyn fmt::Debug| {
            if field.name() != "message" {
                write!(writer, "{field}=")?;
            }
            let mut escaped = Escaped {
                writer,
                left: FIELD_LIMIT,
            };
            match write!(escaped, "{value:?}") {
                Err(_) if escaped.left == 0 => escaped.writer.write_str("..."),
                done => done,
            }
        },
    )
    .delimited(" ")
}

/// A writer that escapes what a log line must not carry raw, and stops at
/// its limit.
struct Escaped<'a, 'w> {
    writer: &'a mut Writer<'w>,
    left: usize,
}

impl fmt::Write for Escaped<'_, '_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        for c in text.chars() {
            if self.left < c.len_utf8() {
                self.left = 0;
                // Stops the value's formatting; the caller marks the cut.
                return Err(fmt::Error);
            }
            self.left -= c.len_utf8();
            if outcome_runtime::message::is_invisible(c) {
                for escaped in c.escape_unicode() {
                    self.writer.write_char(escaped)?;
                }
            } else {
                self.writer.write_char(c)?;
            }
        }
        Ok(())
    }
}
