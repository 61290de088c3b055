//! Properties of the text the model reads, over arbitrary input.

use outcome_runtime::{FAULT_MESSAGE, QUOTE_LIMIT, RETRY_MESSAGE, ToolError, quote};
use proptest::prelude::*;

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
fn the_fixed_messages_are_at_most_two_sentences() {
    assert_eq!(sentences(FAULT_MESSAGE), 2);
    assert_eq!(sentences(RETRY_MESSAGE), 2);
}
