//! The rules for a tool's description: what the model reads before it
//! calls. It states the contract, lists no failures (the error text says
//! what went wrong when it does), and fits what clients keep of it.

use std::fmt;

/// Clients cut a tool's description at 2,048 UTF-16 code units and keep
/// the start; anything past it is never read.
pub const DESCRIPTION_LIMIT: usize = 2048;

/// Phrases that list failures, matched as whole words, ignoring case.
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

/// What a tool's description gets wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DescriptionProblem {
    /// There is none, or it is blank: the model reads no contract.
    Missing,
    /// It is longer than [`DESCRIPTION_LIMIT`] UTF-16 code units: clients
    /// drop the rest.
    TooLong {
        /// Its length, in UTF-16 code units.
        units: usize,
    },
    /// It lists a failure ("fails if"), which belongs in the error text
    /// that reports it.
    ListsFailure {
        /// The phrase, as listed in lower case.
        phrase: &'static str,
    },
}

impl DescriptionProblem {
    /// The problem's name: `description-missing`,
    /// `description-too-long` or `description-lists-failures`.
    pub fn name(self) -> &'static str {
        match self {
            DescriptionProblem::Missing => "description-missing",
            DescriptionProblem::TooLong { .. } => "description-too-long",
            DescriptionProblem::ListsFailure { .. } => "description-lists-failures",
        }
    }
}

impl fmt::Display for DescriptionProblem {
    /// What is wrong and what to do, one sentence.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DescriptionProblem::Missing => f.write_str(
                "the tool has no description; state its contract: what it does, what it \
                 takes and what it returns",
            ),
            DescriptionProblem::TooLong { units } => write!(
                f,
                "the description is {units} UTF-16 code units long; clients cut it at \
                 {DESCRIPTION_LIMIT} and drop the rest"
            ),
            DescriptionProblem::ListsFailure { phrase } => write!(
                f,
                "the description lists a failure (\"{phrase}\"); it states the contract, and \
                 the error text says what went wrong when it does"
            ),
        }
    }
}

/// Checks a tool's description (`None` when the tool has none).
///
/// ```
/// use outcome_rules::{DescriptionProblem, check_description};
///
/// assert!(check_description(Some("Return a note's text.")).is_empty());
/// assert_eq!(check_description(None), [DescriptionProblem::Missing]);
/// assert_eq!(
///     check_description(Some("Write a note. Fails if it changed.")),
///     [DescriptionProblem::ListsFailure { phrase: "fails if" }]
/// );
/// ```
pub fn check_description(text: Option<&str>) -> Vec<DescriptionProblem> {
    let Some(text) = text.filter(|text| !text.trim().is_empty()) else {
        return vec![DescriptionProblem::Missing];
    };
    let mut problems = Vec::new();
    let units = text.encode_utf16().count();
    if units > DESCRIPTION_LIMIT {
        problems.push(DescriptionProblem::TooLong { units });
    }
    if let Some(phrase) = failure_phrase(text) {
        problems.push(DescriptionProblem::ListsFailure { phrase });
    }
    problems
}

/// The first failure phrase in `text`, matched as whole words, ignoring
/// case: one pass over the words for each phrase.
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

    #[test]
    fn failure_phrases_are_whole_words() {
        assert_eq!(
            failure_phrase("Delete a note; Returns an error when missing."),
            Some("returns an error")
        );
        assert_eq!(
            failure_phrase("Move it. Raises on a conflict."),
            Some("raises")
        );
        assert_eq!(failure_phrase("Find errors in a file."), None);
        assert_eq!(failure_phrase("Count the throwsers."), None);
    }

    #[test]
    fn length_is_counted_in_utf16_units() {
        let long = "𝄞".repeat(DESCRIPTION_LIMIT / 2 + 1);
        assert_eq!(
            check_description(Some(&long)),
            [DescriptionProblem::TooLong {
                units: DESCRIPTION_LIMIT + 2
            }]
        );
        assert!(check_description(Some(&"é".repeat(DESCRIPTION_LIMIT))).is_empty());
        assert_eq!(
            check_description(Some(" \n")),
            [DescriptionProblem::Missing]
        );
    }
}
