//! What the model reads is one clean line, bounded, whatever the parts a
//! tool builds it from; the values quoted in it hide nothing; a fault never
//! names its cause. Through a real client, then as properties over
//! arbitrary input.

use outcome_runtime::{
    ToolError, message::FAULT_MESSAGE, message::QUOTE_LIMIT, message::RETRY_MESSAGE, quote,
};
use outcome_tests::hostile::{assert_clean, session};
use proptest::prelude::*;
use serde_json::json;
use unicode_general_category::{GeneralCategory, get_general_category};

#[tokio::test]
async fn built_messages_are_one_bounded_line_whatever_the_parts() {
    let (session, _jobs) = session().await;
    let long = "word ".repeat(20_000);
    let cases = [
        ("line one\nline two\r\n\tthree", "Call refuse\nagain"),
        (long.as_str(), "Call refuse again"),
        ("No such thing", long.as_str()),
        ("", "Call refuse with a name"),
        ("No such thing", ""),
        ("", ""),
        ("   ", " \n "),
    ];
    for tool in ["refuse", "outdated", "later"] {
        for (problem, next) in cases {
            let call = session
                .call(tool, json!({ "problem": problem, "next": next }))
                .await;
            let text = call.text();
            assert_clean(text);
            let expected = if tool == "later" {
                "WARN tool_failed"
            } else {
                "INFO tool_call_failed"
            };
            assert!(
                call.events().contains(&expected.to_owned()),
                "{tool}({problem:.20?}, {next:.20?}): {:?}",
                call.records
            );
            assert!(!call.has_error(), "{tool}: {:?}", call.records);
            if tool != "later" && next.trim().is_empty() {
                assert!(text.contains(tool), "the fallback names the tool: {text}");
            }
        }
    }
}

#[tokio::test]
async fn quoted_values_hide_nothing() {
    let (session, _jobs) = session().await;
    let smuggled = "a\u{e0049}\u{e0067}\u{fe0f}\u{3164}\u{200d}\u{202e}b";
    let call = session.call("look_up", json!({ "path": smuggled })).await;
    let text = call.text();
    assert!(
        text.chars().all(|c| c.is_ascii_graphic() || c == ' '),
        "{text:?}"
    );
    assert!(text.contains("\\u{e0049}"), "{text}");
}

// Properties over arbitrary input.

/// Default_Ignorable_Code_Point as Unicode's DerivedCoreProperties lists it,
/// written out here rather than taken from the crate, so the oracle does not
/// share a mistake with the table it checks.
const DEFAULT_IGNORABLE: &[(u32, u32)] = &[
    (0x00ad, 0x00ad),
    (0x034f, 0x034f),
    (0x061c, 0x061c),
    (0x115f, 0x1160),
    (0x17b4, 0x17b5),
    (0x180b, 0x180f),
    (0x200b, 0x200f),
    (0x202a, 0x202e),
    (0x2060, 0x206f),
    (0x3164, 0x3164),
    (0xfe00, 0xfe0f),
    (0xfeff, 0xfeff),
    (0xffa0, 0xffa0),
    (0xfff0, 0xfff8),
    (0x1_bca0, 0x1_bca3),
    (0x1_d173, 0x1_d17a),
    (0xe_0000, 0xe_0fff),
];

/// Format characters outside the default-ignorable set, so the strategy
/// reaches them more often than a uniform draw over all of Unicode would.
const FORMAT_ONLY: &[(u32, u32)] = &[
    (0x0600, 0x0605),
    (0x06dd, 0x06dd),
    (0x070f, 0x070f),
    (0x0890, 0x0891),
    (0x08e2, 0x08e2),
    (0xfff9, 0xfffb),
    (0x1_10bd, 0x1_10bd),
    (0x1_10cd, 0x1_10cd),
    (0x1_3430, 0x1_343f),
];

/// The independent answer to "does this character show as itself": controls,
/// format characters, line and paragraph separators by general category, and
/// the default-ignorable code points by the list above.
fn oracle_invisible(c: char) -> bool {
    matches!(
        get_general_category(c),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    ) || DEFAULT_IGNORABLE
        .iter()
        .any(|&(start, end)| (start..=end).contains(&(c as u32)))
}

/// Whether `quote` writes `c` as it is.
fn quoted_as_is(c: char) -> bool {
    quote(c).to_string() == format!("'{c}'")
}

/// A character from one of `ranges`, or from just outside one, where an
/// off-by-one in a table would show.
fn around(ranges: &'static [(u32, u32)]) -> impl Strategy<Value = char> {
    proptest::sample::select(ranges)
        .prop_flat_map(|(start, end)| start.saturating_sub(1)..=end + 1)
        .prop_filter_map("a scalar value", char::from_u32)
}

/// Characters weighted heavily towards the invisible ones, controls and
/// whitespace, with any character at all mixed in.
fn hard_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => around(DEFAULT_IGNORABLE),
        2 => around(FORMAT_ONLY),
        3 => proptest::char::range('\0', '\u{a0}'),
        2 => proptest::sample::select(&[
            ' ', '\n', '\r', '\t', '\u{85}', '\u{1680}', '\u{2000}', '\u{2028}',
            '\u{2029}', '\u{202f}', '\u{205f}', '\u{3000}', '\'', '\\', '.',
        ][..]),
        3 => any::<char>(),
    ]
}

/// Strings built from [`hard_char`], short enough to fit the limit often and
/// long enough to be cut often.
fn hard_string() -> impl Strategy<Value = String> {
    proptest::collection::vec(hard_char(), 0..120).prop_map(String::from_iter)
}

/// Undoes `quote`'s escapes: the text between the quotes, and whether it
/// was cut.
fn unquote(quoted: &str) -> (String, bool) {
    let inner = quoted
        .strip_prefix('\'')
        .and_then(|rest| rest.strip_suffix('\''))
        .expect("a quoted value is between single quotes");
    let mut text = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '.' && chars.clone().collect::<String>() == ".." {
            return (text, true);
        }
        if c != '\\' {
            text.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => text.push('\n'),
            Some('r') => text.push('\r'),
            Some('t') => text.push('\t'),
            Some('u') => {
                let hex: String = chars.by_ref().skip(1).take_while(|c| *c != '}').collect();
                text.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
            }
            Some(other) => text.push(other),
            None => panic!("a dangling escape in {quoted:?}"),
        }
    }
    (text, false)
}

/// Counts sentences: runs of text ended by `.`, `!` or `?` before a space or
/// the end, outside single-quoted values.
fn sentences(text: &str) -> usize {
    let chars: Vec<char> = text.chars().collect();
    let mut count = 0;
    let mut quoted = false;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' if quoted => i += 1,
            '\'' if quoted || i == 0 || chars[i - 1] == ' ' => quoted = !quoted,
            '.' | '!' | '?' if !quoted && chars.get(i + 1).is_none_or(|c| *c == ' ') => count += 1,
            _ => {}
        }
        i += 1;
    }
    count
}

/// Words without sentence ends or quotes, as a tool author writes a
/// problem or a next step.
fn clause() -> impl Strategy<Value = String> {
    proptest::collection::vec("[a-zA-Z_]{1,12}", 1..12).prop_map(|words| words.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_quoted_value_has_no_control_character_and_a_bound(value in any::<String>()) {
        let quoted = quote(&value).to_string();
        prop_assert!(!quoted.chars().any(char::is_control), "{quoted:?}");
        let hidden = ['\u{2028}', '\u{2029}', '\u{202e}'];
        prop_assert!(!quoted.contains(hidden), "{quoted:?}");
        prop_assert!(quoted.chars().count() <= QUOTE_LIMIT + 2 + 3, "{quoted:?}");
    }

    #[test]
    fn a_quoted_value_reads_back_as_the_value_or_its_start(value in any::<String>()) {
        let (text, cut) = unquote(&quote(&value).to_string());
        if cut {
            prop_assert!(value.starts_with(&text), "{value:?} / {text:?}");
            prop_assert!(text.len() < value.len());
        } else {
            prop_assert_eq!(text, value);
        }
    }

    #[test]
    fn no_invisible_character_survives_quoting(value in hard_string()) {
        let quoted = quote(&value).to_string();
        // Escapes are plain ASCII, so any invisible character left in the
        // output is one that was not escaped.
        prop_assert!(!quoted.chars().any(oracle_invisible), "{value:?} gave {quoted:?}");
        prop_assert!(quoted.chars().count() <= QUOTE_LIMIT + 2 + 3, "{quoted:?}");
    }

    #[test]
    fn a_value_that_needs_no_escape_and_fits_reads_back_exactly(value in hard_string()) {
        let plain = !value.chars().any(|c| oracle_invisible(c) || c == '\'' || c == '\\');
        if plain && value.chars().count() <= QUOTE_LIMIT {
            prop_assert_eq!(quote(&value).to_string(), format!("'{value}'"));
        }
        let (text, cut) = unquote(&quote(&value).to_string());
        if cut {
            prop_assert!(value.starts_with(&text), "{value:?} / {text:?}");
        } else {
            prop_assert_eq!(text, value);
        }
    }

    #[test]
    fn a_character_is_escaped_exactly_when_the_oracle_calls_it_invisible(c in hard_char()) {
        prop_assume!(c != '\'' && c != '\\');
        prop_assert_eq!(quoted_as_is(c), !oracle_invisible(c), "{:x}", c as u32);
    }

    #[test]
    fn a_short_plain_value_is_quoted_as_it_is(value in "[a-zA-Z0-9/_ -]{0,40}") {
        prop_assert_eq!(quote(&value).to_string(), format!("'{value}'"));
    }

    #[test]
    fn the_model_never_reads_the_cause_of_a_fault(cause in "\\PC{4,200}") {
        prop_assume!(!FAULT_MESSAGE.contains(cause.as_str()));
        prop_assume!(!RETRY_MESSAGE.contains(cause.as_str()));
        let io = ToolError::from(std::io::Error::other(cause.clone()));
        prop_assert!(!io.message().contains(&cause));
        let boxed = ToolError::fault(cause.clone());
        prop_assert!(!boxed.message().contains(&cause));
        let timeout = ToolError::from(std::io::Error::new(std::io::ErrorKind::TimedOut, cause.clone()));
        prop_assert!(!timeout.message().contains(&cause));
    }

    #[test]
    fn every_built_message_is_at_most_two_sentences(
        problem in clause(),
        next in clause(),
        value in any::<String>(),
    ) {
        let problem = format!("{problem} {}", quote(&value));
        let invalid = ToolError::invalid(&problem, &next);
        prop_assert_eq!(sentences(invalid.message()), 2, "{}", invalid.message());
        let stale = ToolError::stale(&problem, &next);
        prop_assert_eq!(sentences(stale.message()), 2, "{}", stale.message());
        prop_assert!(stale.message().contains("so resending this call fails again"));
    }
}

#[test]
fn quote_escapes_exactly_the_oracles_set_over_all_of_unicode() {
    let disagree: Vec<String> = (0..=0x10_ffff)
        .filter_map(char::from_u32)
        .filter(|&c| c != '\'' && c != '\\')
        .filter(|&c| quoted_as_is(c) == oracle_invisible(c))
        .map(|c| format!("{:x}", c as u32))
        .collect();
    assert!(
        disagree.is_empty(),
        "quote and the oracle disagree on {disagree:?}"
    );
}

#[test]
fn the_fixed_messages_are_at_most_two_sentences() {
    assert_eq!(sentences(FAULT_MESSAGE), 2);
    assert_eq!(sentences(RETRY_MESSAGE), 2);
}
