//! The description the model reads: cut from the doc comment at its first
//! heading, and checked against the rules for model-facing text.

use proc_macro2::Span;
use syn::{Attribute, Expr, Lit, Meta};

/// Clients cut tool descriptions at 2,048 UTF-16 code units and keep the
/// start; anything past it is never read.
pub(crate) const MAX_UTF16: usize = 2048;

/// Phrases that list failures. The description states the contract; the
/// error text explains a failure when it happens.
const FAILURE_PHRASES: &[&str] = &[
    "fails if",
    "fails when",
    "will fail",
    "returns an error",
    "return an error",
    "returns error",
    "errors if",
    "errors when",
    "error if",
    "raises",
    "throws",
    "on error",
    "on failure",
    "on a conflict",
    "on conflict",
];

/// The doc comment, split at its first heading.
pub(crate) struct DocText {
    /// The text before the first heading, trimmed: what the model reads.
    pub(crate) summary: String,
    /// The span of the first doc line, for errors about the text.
    pub(crate) span: Span,
}

/// Reads the doc comment from `attrs`. `Ok(None)` when there is none.
pub(crate) fn from_attrs(attrs: &[Attribute]) -> syn::Result<Option<DocText>> {
    let mut lines = Vec::new();
    let mut span = None;
    for attr in attrs {
        let Meta::NameValue(pair) = &attr.meta else {
            continue;
        };
        if !pair.path.is_ident("doc") {
            continue;
        }
        match &pair.value {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Str(text),
                ..
            }) => {
                span.get_or_insert(text.span());
                // `split`, not `lines`: an empty `///` line is a paragraph
                // break and must stay.
                let value = text.value();
                lines.extend(
                    value
                        .split('\n')
                        .map(|line| line.trim_end_matches('\r').to_owned()),
                );
            }
            other => {
                return Err(syn::Error::new_spanned(
                    other,
                    "`#[tool]` cuts the description at the doc comment's first heading, \
                     which it cannot do for a computed doc attribute; pass the text as \
                     `#[tool(description = ...)]` instead",
                ));
            }
        }
    }
    let Some(span) = span else {
        return Ok(None);
    };
    Ok(Some(DocText {
        summary: before_first_heading(&lines),
        span,
    }))
}

/// The doc text up to the first Markdown heading outside a code block, each
/// line without the one space that follows `///`. Lines of one paragraph are
/// joined with a space, as Markdown renders them; code blocks keep their
/// lines.
fn before_first_heading(lines: &[String]) -> String {
    let mut text = String::new();
    let mut fence: Option<&str> = None;
    let mut paragraph_open = false;
    for line in lines {
        let line = line.strip_prefix(' ').unwrap_or(line).trim_end();
        let trimmed = line.trim_start();
        let in_code = match fence {
            Some(marker) => {
                if trimmed.starts_with(marker) {
                    fence = None;
                }
                true
            }
            None if trimmed.starts_with("```") => {
                fence = Some("```");
                true
            }
            None if trimmed.starts_with("~~~") => {
                fence = Some("~~~");
                true
            }
            None if is_heading(trimmed) => break,
            None => false,
        };
        if in_code {
            if paragraph_open {
                text.push('\n');
                paragraph_open = false;
            }
            text.push_str(line);
            text.push('\n');
        } else if trimmed.is_empty() {
            if paragraph_open {
                text.push('\n');
                paragraph_open = false;
            }
            text.push('\n');
        } else {
            if paragraph_open {
                text.push(' ');
            }
            text.push_str(trimmed);
            paragraph_open = true;
        }
    }
    let mut text = text.trim().to_owned();
    while text.contains("\n\n\n") {
        text = text.replace("\n\n\n", "\n\n");
    }
    text
}

fn is_heading(line: &str) -> bool {
    let level = line.bytes().take_while(|b| *b == b'#').count();
    (1..=6).contains(&level) && line[level..].starts_with([' ', '\t'])
        || (level > 0 && level <= 6 && line.len() == level)
}

/// A problem with a description's text.
pub(crate) enum Problem {
    TooLong(usize),
    ListsFailures(&'static str),
}

impl Problem {
    pub(crate) fn message(&self) -> String {
        match self {
            Problem::TooLong(units) => format!(
                "this tool description is {units} UTF-16 code units long; clients cut \
                 descriptions at {MAX_UTF16} and drop the rest, so shorten it, or move \
                 detail under a `# ...` heading, which stays in rustdoc"
            ),
            Problem::ListsFailures(phrase) => format!(
                "this tool description lists a failure (\"{phrase}\"); the description \
                 states the contract, and the failure belongs in the text of the \
                 `ToolError` that reports it; if the phrase is not about a failure, \
                 add `allow_failure_phrases` to this `#[tool]`"
            ),
        }
    }
}

/// Checks a description. `check_phrases` is off for a tool that opted out.
pub(crate) fn check(text: &str, check_phrases: bool) -> Vec<Problem> {
    let mut problems = Vec::new();
    let units = text.encode_utf16().count();
    if units > MAX_UTF16 {
        problems.push(Problem::TooLong(units));
    }
    if check_phrases && let Some(phrase) = failure_phrase(text) {
        problems.push(Problem::ListsFailures(phrase));
    }
    problems
}

/// The first failure phrase in `text`, matched as whole words, ignoring case.
fn failure_phrase(text: &str) -> Option<&'static str> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect();
    FAILURE_PHRASES.iter().copied().find(|phrase| {
        let wanted: Vec<&str> = phrase.split(' ').collect();
        words
            .windows(wanted.len())
            .any(|window| window.iter().zip(&wanted).all(|(a, b)| a == b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn stops_at_the_first_heading_outside_code() {
        let doc = lines(
            " Return a note.\n\n ```\n # not a heading\n ```\n More.\n\n # Errors\n\n Hidden.",
        );
        assert_eq!(
            before_first_heading(&doc),
            "Return a note.\n\n```\n# not a heading\n```\nMore."
        );
        assert_eq!(
            before_first_heading(&lines(" #hashtag stays")),
            "#hashtag stays"
        );
    }

    #[test]
    fn joins_the_lines_of_a_paragraph() {
        let doc = lines(" List the paths\n of notes.\n\n No match is\n an empty list.");
        assert_eq!(
            before_first_heading(&doc),
            "List the paths of notes.\n\nNo match is an empty list."
        );
    }

    #[test]
    fn finds_failure_phrases_as_words() {
        assert_eq!(
            failure_phrase("Fails if the path is taken."),
            Some("fails if")
        );
        assert_eq!(failure_phrase("It raises an alarm"), Some("raises"));
        assert_eq!(failure_phrase("Praises the user"), None);
        assert_eq!(failure_phrase("Return a note's text."), None);
    }

    #[test]
    fn counts_utf16_units() {
        let long = "𝄞".repeat(MAX_UTF16 / 2 + 1);
        assert!(matches!(check(&long, true)[..], [Problem::TooLong(2050)]));
    }
}
