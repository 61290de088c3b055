//! The text of a message as the whole project writes it: a value the
//! model sent, quoted; any text as one clean line; the characters that
//! never reach a reader raw; and the fixed messages of a server failure.

use std::fmt::{self, Display, Write};

/// The longest quoted value, in characters, before it is cut.
///
/// A model can send a megabyte in one argument; echoing it back would flood
/// its context. Eighty characters keep a path or an identifier whole and a
/// pasted document recognisable.
pub const QUOTE_LIMIT: usize = 80;

/// The longest text the model reads in one message built from a server
/// author's parts, in characters.
///
/// A message is one or two sentences: two quoted values at their
/// [`QUOTE_LIMIT`] bound plus a tool and a parameter name fit in it many
/// times over, so only text never meant for the model, such as a pasted
/// error chain, is ever cut. The bound keeps a burst of failing calls from
/// filling the model's context, and stays well under the 2,000 characters a
/// message may take at most.
pub const MESSAGE_LIMIT: usize = 1000;

/// The message every unclassified fault sends (outcome 4, when an
/// operator must act).
///
/// The request was fine, so the model must not change it; the fault is the
/// server's, so the model retries later and involves the user if it persists.
pub const FAULT_MESSAGE: &str = "The server failed while handling this request, and the request itself \
     was fine, so do not change it. Retry later, and if it keeps failing, tell the user.";

/// The message a fault that heals itself sends when the tool did not name the
/// condition more precisely (an upstream timeout or rate limit).
pub const RETRY_MESSAGE: &str = "A service this server depends on is busy or did not answer in time, \
     and the request itself was fine. Retry the same call in a minute.";

/// Quotes a value the model sent, for use inside a message: the text
/// `outcome_runtime::quote` displays, as a `String`.
///
/// The value stands between single quotes, with `'` and `\` escaped;
/// newlines and tabs written as `\n`, `\r`, `\t`; every character that
/// does not show as itself (see [`is_invisible`]) written as a `\u{..}`
/// escape; and cut, marked with `...`, once the escaped text would pass
/// [`QUOTE_LIMIT`] characters. The writing rules read a value quoted this
/// way as the model's, not the author's words.
///
/// ```
/// use outcome_rules::quote;
///
/// assert_eq!(quote("inbox/todo.md"), "'inbox/todo.md'");
/// assert_eq!(quote("it's\nfine"), r"'it\'s\nfine'");
/// assert_eq!(quote("a\u{e0041}b"), r"'a\u{e0041}b'");
/// assert_eq!(quote(42), "'42'");
/// ```
pub fn quote(value: impl Display) -> String {
    let mut out = String::new();
    // Writing to a `String` cannot fail.
    let _ = write_quoted(&mut out, value);
    out
}

/// Writes `value` to `out` as [`quote`] returns it, allocating nothing.
///
/// # Errors
///
/// When `out` fails: the escaping itself stops at the limit without
/// failing.
pub fn write_quoted<W: Write + ?Sized>(out: &mut W, value: impl Display) -> fmt::Result {
    out.write_char('\'')?;
    let mut escaper = Escaper {
        out,
        written: 0,
        cut: false,
    };
    write!(escaper, "{value}")?;
    if escaper.cut {
        out.write_str("...")?;
    }
    out.write_char('\'')
}

/// Writes escaped characters through to `out` and stops at the limit.
struct Escaper<'a, W: ?Sized> {
    out: &'a mut W,
    written: usize,
    cut: bool,
}

impl<W: Write + ?Sized> Write for Escaper<'_, W> {
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
            let hex = short.is_none() && is_invisible(c);
            let length = match short {
                Some(escape) => escape.len(),
                None if hex => escape_len(c),
                None => 1,
            };
            if self.written + length > QUOTE_LIMIT {
                self.cut = true;
                return Ok(());
            }
            self.written += length;
            match short {
                Some(escape) => self.out.write_str(escape)?,
                None if hex => write!(self.out, "\\u{{{:x}}}", c as u32)?,
                None => self.out.write_char(c)?,
            }
        }
        Ok(())
    }
}

/// The length of `c` written as `\u{hex}`: four characters around the
/// lowercase hex digits, so a limit can be checked before writing.
fn escape_len(c: char) -> usize {
    let hex_digits = (32 - (c as u32 | 1).leading_zeros()).div_ceil(4) as usize;
    hex_digits + 4
}

/// Code points that do not show as themselves, as sorted, disjoint,
/// inclusive ranges: the union of general categories Cc, Cf, Zl and Zp and
/// of Default_Ignorable_Code_Point (Unicode 16). A reviewer reading a log or
/// a transcript cannot see them, yet they can reorder the text around them
/// or carry a hidden instruction, so they are always written as escapes.
const INVISIBLE: &[(u32, u32)] = &[
    (0x0000, 0x001f),
    (0x007f, 0x009f),
    (0x00ad, 0x00ad),
    (0x034f, 0x034f),
    (0x0600, 0x0605),
    (0x061c, 0x061c),
    (0x06dd, 0x06dd),
    (0x070f, 0x070f),
    (0x0890, 0x0891),
    (0x08e2, 0x08e2),
    // Hangul fillers render as blank space that is not whitespace.
    (0x115f, 0x1160),
    (0x17b4, 0x17b5),
    (0x180b, 0x180f),
    (0x200b, 0x200f),
    // Line and paragraph separators, then the bidirectional embeddings and
    // overrides that make text read in an order other than it is stored.
    (0x2028, 0x202e),
    (0x2060, 0x206f),
    (0x3164, 0x3164),
    (0xfe00, 0xfe0f),
    (0xfeff, 0xfeff),
    (0xffa0, 0xffa0),
    // Reserved default-ignorables, then the interlinear annotation controls.
    (0xfff0, 0xfffb),
    (0x1_10bd, 0x1_10bd),
    (0x1_10cd, 0x1_10cd),
    (0x1_3430, 0x1_343f),
    (0x1_bca0, 0x1_bca3),
    (0x1_d173, 0x1_d17a),
    // Tag characters, which spell out ASCII that no one sees, the
    // supplementary variation selectors, and the reserved code points around
    // them, which Unicode declares ignorable already so that characters
    // assigned there later stay hidden too.
    (0xe_0000, 0xe_0fff),
];

/// Whether `c` must never reach the model or a log line raw: control
/// characters, format characters (bidi overrides, zero-width characters),
/// line and paragraph separators, and every default-ignorable code point.
///
/// [`quote`], [`one_line`] and outcome-runtime's log records write each
/// such character as an escape; a field formatter of a server's own can do
/// the same for records outcome-runtime does not write (rmcp's own, which
/// carry the request id bare).
///
/// ```
/// use outcome_rules::is_invisible;
///
/// assert!(is_invisible('\n') && is_invisible('\u{202e}') && is_invisible('\u{2028}'));
/// assert!(!is_invisible('a') && !is_invisible('é') && !is_invisible(' '));
/// ```
pub fn is_invisible(c: char) -> bool {
    let c = c as u32;
    // Nearly every character a message carries is ASCII: answer it without
    // the search.
    if c < 0x7f {
        return c < 0x20;
    }
    let i = INVISIBLE.partition_point(|&(_, end)| end < c);
    INVISIBLE.get(i).is_some_and(|&(start, _)| start <= c)
}

/// `text` as one clean line of at most `limit` characters.
///
/// Every run of whitespace (newlines and Unicode separators included)
/// becomes one space, every other invisible character (see
/// [`is_invisible`]) is written as a `\u{..}` escape, the ends are trimmed,
/// and a text past the limit is cut between two characters or escapes and
/// ends in `...`, the dots counted in the limit. Below four characters the
/// dots would crowd out the text, so the cut is left unmarked. Reading stops
/// at the cut, so a huge text costs no more than a short one.
pub fn one_line(text: &str, limit: usize) -> String {
    let (room, dots) = if limit >= 4 {
        (limit - 3, true)
    } else {
        (limit, false)
    };
    let mut out = String::with_capacity(text.len().min(limit));
    // Characters in `out`, and its byte length at the last place where a cut
    // still leaves room for the dots.
    let mut count = 0usize;
    let mut fit = 0usize;
    // Whitespace seen after some text: written as one space only when more
    // text follows, which trims the end for free.
    let mut gap = false;
    for c in text.chars() {
        if c.is_whitespace() {
            gap = !out.is_empty();
            continue;
        }
        let hex = is_invisible(c);
        let length = if hex { escape_len(c) } else { 1 } + usize::from(gap);
        if count.saturating_add(length) > limit {
            out.truncate(fit);
            if dots {
                out.push_str("...");
            }
            return out;
        }
        if gap {
            out.push(' ');
            gap = false;
        }
        if hex {
            // Writing to a `String` cannot fail.
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
        count += length;
        if count <= room {
            fit = out.len();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A message's bound, as outcome-runtime sets it.
    const LIMIT: usize = 1000;

    #[test]
    fn quotes_escape_quotes_backslashes_and_controls() {
        assert_eq!(quote("a'b\\c"), r"'a\'b\\c'");
        assert_eq!(quote("x\u{0}y\u{7f}\r\t"), r"'x\u{0}y\u{7f}\r\t'");
        assert_eq!(quote("a\u{2028}b"), r"'a\u{2028}b'");
        assert_eq!(quote("evil\u{202e}txt"), r"'evil\u{202e}txt'");
        assert_eq!(quote("a\u{200b}\u{feff}b"), r"'a\u{200b}\u{feff}b'");
    }

    #[test]
    fn the_limit_counts_escaped_characters() {
        let quoted = quote("\n".repeat(100));
        assert!(quoted.chars().count() <= QUOTE_LIMIT + 2 + 3, "{quoted}");
        assert!(quoted.ends_with("...'"));
    }

    #[test]
    fn quotes_are_cut_at_the_limit() {
        let long = "é".repeat(QUOTE_LIMIT + 20);
        let quoted = quote(&long);
        assert_eq!(quoted.chars().count(), QUOTE_LIMIT + 2 + 3);
        assert!(quoted.ends_with("...'"));
        let exact = "a".repeat(QUOTE_LIMIT);
        assert!(!quote(&exact).contains("..."));
    }

    #[test]
    fn quotes_escape_every_invisible_character() {
        assert_eq!(quote("ok\u{e0041}\u{e007f}"), r"'ok\u{e0041}\u{e007f}'");
        assert_eq!(
            quote("\u{3164}\u{fe0f}\u{e0100}\u{85}\u{600}"),
            r"'\u{3164}\u{fe0f}\u{e0100}\u{85}\u{600}'"
        );
        assert_eq!(quote("café ünïcode"), "'café ünïcode'");
    }

    #[test]
    fn the_invisible_table_is_sorted_and_disjoint() {
        for (start, end) in INVISIBLE {
            assert!(start <= end, "{start:x}..{end:x}");
        }
        for pair in INVISIBLE.windows(2) {
            // Adjacent ranges would have been written as one.
            assert!(pair[0].1 + 1 < pair[1].0, "{pair:x?}");
        }
    }

    #[test]
    fn invisible_is_exactly_the_table() {
        let in_table = |c: u32| INVISIBLE.iter().any(|&(s, e)| (s..=e).contains(&c));
        for c in (0..=0x10_ffff).filter_map(char::from_u32) {
            assert_eq!(is_invisible(c), in_table(c as u32), "{:x}", c as u32);
        }
        for c in [
            '\u{0}',
            '\u{1f}',
            '\u{7f}',
            '\u{9f}',
            '\u{2029}',
            '\u{e0fff}',
        ] {
            assert!(is_invisible(c), "{:x}", c as u32);
        }
        for c in [' ', '~', '\u{a0}', '\u{2010}', '\u{e1000}', '\u{13440}'] {
            assert!(!is_invisible(c), "{:x}", c as u32);
        }
    }

    #[test]
    fn one_line_folds_every_whitespace_run_into_one_space() {
        assert_eq!(
            one_line("a\n\n b\r\n\tc\u{85}d\u{2028}e\u{2029}f\u{3000}g", 100),
            "a b c d e f g"
        );
        assert_eq!(one_line("  \n padded \t\n", 100), "padded");
        assert_eq!(one_line(" \n\t\u{2028} ", 100), "");
    }

    #[test]
    fn one_line_escapes_invisible_characters() {
        assert_eq!(
            one_line("ok\u{e0049}\u{e0047}\u{200b}\u{0}", 100),
            r"ok\u{e0049}\u{e0047}\u{200b}\u{0}"
        );
        assert_eq!(one_line("evil\u{202e}txt", 100), r"evil\u{202e}txt");
    }

    #[test]
    fn one_line_of_nothing_is_empty() {
        assert_eq!(one_line("", 100), "");
        assert_eq!(one_line("", 0), "");
        assert_eq!(one_line("text", 0), "");
    }

    #[test]
    fn one_line_keeps_a_text_of_exactly_the_limit() {
        let exact = "a".repeat(LIMIT);
        assert_eq!(one_line(&exact, LIMIT), exact);
        assert_eq!(one_line(&format!("{exact} \n "), LIMIT), exact);
        let one_more = "a".repeat(LIMIT + 1);
        let cut = one_line(&one_more, LIMIT);
        assert_eq!(cut.chars().count(), LIMIT);
        assert!(cut.ends_with("..."));
    }

    #[test]
    fn one_line_counts_characters_not_bytes() {
        let cut = one_line(&"é".repeat(50), 10);
        assert_eq!(cut, "ééééééé...");
        assert_eq!(one_line(&"é".repeat(10), 10), "é".repeat(10));
    }

    #[test]
    fn one_line_never_cuts_inside_an_escape() {
        // Each escape is eight characters: two fit in 19, leaving no room
        // for a third before the dots.
        assert_eq!(one_line(&"\u{200b}".repeat(10), 19), r"\u{200b}\u{200b}...");
        assert_eq!(one_line("\u{200b}", 5), "...");
        assert_eq!(one_line("\u{200b}", 3), "");
    }

    #[test]
    fn one_line_cuts_a_long_text_and_marks_it() {
        let long = "word\n".repeat(20_000);
        assert_eq!(long.len(), 100_000);
        let line = one_line(&long, LIMIT);
        assert!(line.chars().count() <= LIMIT);
        assert!(line.ends_with("..."), "{line}");
        assert!(line.starts_with("word word "));
        assert!(!line.contains('\n'));
    }

    #[test]
    fn one_line_stays_linear_on_huge_texts() {
        let ten_mb = 10 * 1024 * 1024;
        let started = std::time::Instant::now();
        let text = "x".repeat(ten_mb);
        assert_eq!(one_line(&text, LIMIT).chars().count(), LIMIT);
        let spaces = format!("a{}b", " \n".repeat(ten_mb / 2));
        assert_eq!(one_line(&spaces, LIMIT), "a b");
        let hidden = "\u{e0041}".repeat(ten_mb / 4);
        assert!(one_line(&hidden, LIMIT).ends_with("..."));
        // Generous enough for an unoptimised build on a slow machine, far
        // below what a quadratic pass over ten megabytes would take.
        assert!(started.elapsed() < std::time::Duration::from_secs(10));
    }

    #[test]
    fn one_line_below_four_characters_cuts_without_dots() {
        assert_eq!(one_line("abcdef", 3), "abc");
        assert_eq!(one_line("abcdef", 1), "a");
        assert_eq!(one_line("ab", 2), "ab");
        assert_eq!(one_line("abcde", 4), "a...");
        assert_eq!(one_line("a b", usize::MAX), "a b");
    }

    /// A small, seeded generator, so a failing case is reproducible without
    /// a property-testing dependency in the library.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Characters weighted towards the ones `one_line` must treat specially.
    fn random_char(rng: &mut XorShift) -> char {
        const SPECIAL: &[char] = &[
            ' ',
            ' ',
            '\n',
            '\r',
            '\t',
            '\u{b}',
            '\u{c}',
            '\u{85}',
            '\u{a0}',
            '\u{1680}',
            '\u{2000}',
            '\u{2028}',
            '\u{2029}',
            '\u{3000}',
            '\u{0}',
            '\u{1b}',
            '\u{7f}',
            '\u{ad}',
            '\u{200b}',
            '\u{200d}',
            '\u{202e}',
            '\u{2066}',
            '\u{feff}',
            '\u{3164}',
            '\u{fe0f}',
            '\u{e0001}',
            '\u{e0041}',
            '\u{e007f}',
            '\u{e0100}',
            '\u{1d173}',
            'é',
            '\u{1f600}',
            '.',
            '\'',
        ];
        match rng.below(4) {
            0 => SPECIAL[rng.below(SPECIAL.len())],
            1 => char::from(b'a' + rng.below(26) as u8),
            2 => INVISIBLE
                .get(rng.below(INVISIBLE.len()))
                .and_then(|&(s, e)| char::from_u32(s + rng.below((e - s + 1) as usize) as u32))
                .unwrap_or('?'),
            _ => char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('?'),
        }
    }

    /// What `one_line` must produce when nothing is cut, written the plain
    /// way, as its pieces: the words' characters with invisible ones escaped,
    /// and one space between words.
    fn folded(text: &str) -> Vec<String> {
        let mut pieces = Vec::new();
        for word in text.split_whitespace() {
            if !pieces.is_empty() {
                pieces.push(" ".to_owned());
            }
            pieces.extend(word.chars().map(|c| {
                if is_invisible(c) {
                    format!("\\u{{{:x}}}", c as u32)
                } else {
                    c.to_string()
                }
            }));
        }
        pieces
    }

    #[test]
    fn one_line_holds_its_rules_for_random_texts() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        let mut cuts = 0;
        for case in 0..512 {
            let length = rng.below(40);
            let text: String = (0..length).map(|_| random_char(&mut rng)).collect();
            let limit = rng.below(160);
            let line = one_line(&text, limit);
            let context = format!("case {case}: {text:?} at {limit} gave {line:?}");
            assert!(line.chars().count() <= limit, "{context}");
            assert!(
                !line
                    .chars()
                    .any(|c| is_invisible(c) || (c.is_whitespace() && c != ' ')),
                "{context}"
            );
            assert!(!line.contains("  "), "{context}");
            assert_eq!(line.trim(), line, "{context}");
            let pieces = folded(&text);
            let whole = pieces.concat();
            if whole.chars().count() <= limit {
                assert_eq!(line, whole, "{context}");
                continue;
            }
            cuts += 1;
            let kept = if limit >= 4 {
                line.strip_suffix("...").expect(&context)
            } else {
                line.as_str()
            };
            assert!(!kept.ends_with(' '), "{context}");
            // What is kept is the folded text up to a boundary between two
            // pieces, never inside an escape.
            let mut boundaries = pieces.iter().scan(0, |end, piece| {
                *end += piece.len();
                Some(*end)
            });
            assert!(
                kept.is_empty() || boundaries.any(|end| end == kept.len()),
                "{context}"
            );
            assert!(whole.starts_with(kept), "{context}");
        }
        // Both ways out were taken often, or the loop proved little.
        assert!((100..412).contains(&cuts), "{cuts} of 512 cut");
    }
}
