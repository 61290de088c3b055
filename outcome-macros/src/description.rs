//! The description the model reads: cut from the doc comment at its first
//! heading, and checked against the rules for model-facing text.

use proc_macro2::{Span, TokenStream};
use syn::{Attribute, Expr, Lit, Meta};

use outcome_rules::{DESCRIPTION_LIMIT, DescriptionProblem};

/// The doc comment, split at its first heading.
pub(crate) struct DocText {
    /// The text before the first heading, trimmed: what the model reads.
    pub(crate) summary: String,
    /// The span of the first doc line, for errors about the text.
    pub(crate) span: Span,
}

/// What the doc attributes of a tool hold.
pub(crate) enum Doc {
    /// No doc comment.
    Missing,
    /// Literal doc text, which can be cut and checked.
    Text(DocText),
    /// A doc attribute computed at compile time (`#[doc = include_str!(..)]`):
    /// the whole doc, which cannot be cut or checked here, as one `concat!`.
    Computed(TokenStream),
}

/// Reads the doc comment from `attrs`.
pub(crate) fn from_attrs(attrs: &[Attribute]) -> Doc {
    let mut lines = Vec::new();
    let mut span = None;
    for attr in attrs {
        let Meta::NameValue(pair) = &attr.meta else {
            continue;
        };
        if !pair.path.is_ident("doc") {
            continue;
        }
        let Expr::Lit(syn::ExprLit {
            lit: Lit::Str(text),
            ..
        }) = &pair.value
        else {
            return Doc::Computed(concatenated(attrs));
        };
        span.get_or_insert(text.span());
        // `split`, not `lines`: an empty `///` line is a paragraph break and
        // must stay.
        let value = text.value();
        lines.extend(
            value
                .split('\n')
                .map(|line| line.trim_end_matches('\r').to_owned()),
        );
    }
    match span {
        None => Doc::Missing,
        Some(span) => Doc::Text(DocText {
            summary: before_first_heading(&unindent(lines)),
            span,
        }),
    }
}

/// Every doc attribute's value, joined as rmcp joins them: a literal line
/// trimmed, an empty one left out, a computed one (`include_str!(..)`) as
/// it is, with a newline between each.
fn concatenated(attrs: &[Attribute]) -> TokenStream {
    let mut parts = Vec::new();
    for attr in attrs {
        let Meta::NameValue(pair) = &attr.meta else {
            continue;
        };
        if !pair.path.is_ident("doc") {
            continue;
        }
        let part = match &pair.value {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Str(text),
                ..
            }) => {
                let line = text.value();
                let line = line.trim();
                if line.is_empty() {
                    continue;
                }
                quote::quote! { #line }
            }
            computed => quote::quote! { #computed },
        };
        if !parts.is_empty() {
            parts.push(quote::quote! { "\n" });
        }
        parts.push(part);
    }
    quote::quote! { ::core::concat!(#(#parts),*) }
}

/// Removes the indentation common to every non-blank line, as rustdoc does,
/// and the ` * ` margin of a `/** */` comment.
fn unindent(lines: Vec<String>) -> Vec<String> {
    let indent = |line: &String| line.len() - line.trim_start().len();
    let common = lines
        .iter()
        .filter(|line| !line.trim().is_empty())
        .map(indent)
        .min()
        .unwrap_or(0);
    let lines: Vec<String> = lines
        .into_iter()
        .map(|line| line.get(common..).unwrap_or("").to_owned())
        .collect();
    let starred = lines
        .iter()
        .filter(|line| !line.trim().is_empty())
        .all(|line| line.starts_with('*'));
    if !starred {
        return lines;
    }
    lines
        .into_iter()
        .map(|line| {
            let rest = line.strip_prefix('*').unwrap_or(&line);
            rest.strip_prefix(' ').unwrap_or(rest).to_owned()
        })
        .collect()
}

/// The doc text up to the first Markdown heading (`# ..`, or a line
/// underlined with `===` or `---`) outside a code block. Lines of one
/// paragraph are joined with a space, as Markdown renders them; code blocks
/// and list items keep their lines.
fn before_first_heading(lines: &[String]) -> String {
    let mut blocks: Vec<String> = Vec::new();
    // The open paragraph, if any: its lines so far.
    let mut paragraph: Option<String> = None;
    // The open fence: its character and length.
    let mut fence: Option<(char, usize)> = None;
    // Whether the last block is an indented code block still open.
    let mut in_indented_code = false;
    let close = |paragraph: &mut Option<String>, blocks: &mut Vec<String>| {
        if let Some(text) = paragraph.take() {
            blocks.push(text);
        }
    };
    for line in lines {
        let line = line.trim_end();
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if let Some((marker, length)) = fence {
            let code = paragraph.get_or_insert_with(String::new);
            code.push('\n');
            code.push_str(line);
            if indent < 4
                && fence_length(trimmed, marker) >= length
                && trimmed.trim_start_matches(marker).trim().is_empty()
            {
                fence = None;
                close(&mut paragraph, &mut blocks);
            }
            continue;
        }
        if trimmed.is_empty() {
            close(&mut paragraph, &mut blocks);
            continue;
        }
        if indent >= 4 && paragraph.is_none() {
            // An indented code block: kept as it is, never a heading.
            match blocks.last_mut() {
                Some(code) if in_indented_code => {
                    code.push('\n');
                    code.push_str(line);
                }
                _ => blocks.push(line.to_owned()),
            }
            in_indented_code = true;
            continue;
        }
        in_indented_code = false;
        if let Some(marker) = ['`', '~']
            .into_iter()
            .find(|m| fence_length(trimmed, *m) >= 3)
        {
            close(&mut paragraph, &mut blocks);
            fence = Some((marker, fence_length(trimmed, marker)));
            paragraph = Some(line.to_owned());
            continue;
        }
        if is_heading(trimmed) {
            break;
        }
        if paragraph.is_some() && is_underline(trimmed) {
            // The paragraph's last line is a setext heading: drop it.
            if let Some(text) = paragraph.take() {
                let kept = text.rsplit_once('\n').map(|(kept, _)| kept.to_owned());
                blocks.extend(kept.filter(|kept| !kept.trim().is_empty()));
            }
            break;
        }
        match &mut paragraph {
            Some(text) if is_list_item(trimmed) => {
                text.push('\n');
                text.push_str(trimmed);
            }
            // A continuation line. Lines are joined with `\n` while the
            // paragraph is open, so a setext underline can drop the last
            // one; they become spaces below.
            Some(text) => {
                text.push('\n');
                text.push_str(trimmed);
            }
            None => paragraph = Some(trimmed.to_owned()),
        }
    }
    close(&mut paragraph, &mut blocks);
    blocks
        .iter()
        .map(|block| reflow(block))
        .collect::<Vec<_>>()
        .join("\n\n")
        .trim()
        .to_owned()
}

/// Joins the lines of a paragraph with spaces, except list items and code,
/// which keep their lines.
fn reflow(block: &str) -> String {
    let first = block.trim_start();
    if first.starts_with("```") || first.starts_with("~~~") || block.starts_with("    ") {
        return block.to_owned();
    }
    let mut text = String::new();
    for (i, line) in block.split('\n').enumerate() {
        if i > 0 {
            text.push(if is_list_item(line) { '\n' } else { ' ' });
        }
        text.push_str(line);
    }
    text
}

fn fence_length(line: &str, marker: char) -> usize {
    line.chars().take_while(|c| *c == marker).count()
}

fn is_heading(line: &str) -> bool {
    let level = line.bytes().take_while(|b| *b == b'#').count();
    (1..=6).contains(&level) && (line.len() == level || line[level..].starts_with([' ', '\t']))
}

fn is_underline(line: &str) -> bool {
    !line.is_empty() && (line.chars().all(|c| c == '=') || line.chars().all(|c| c == '-'))
}

fn is_list_item(line: &str) -> bool {
    let line = line.trim_start();
    if line.starts_with("- ") || line.starts_with("* ") || line.starts_with("+ ") {
        return true;
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && (line[digits..].starts_with(". ") || line[digits..].starts_with(") "))
}

/// A problem with a description's text, as the compiler words it: the
/// rules are [`outcome_rules::check_description`]'s.
pub(crate) struct Problem(DescriptionProblem);

impl Problem {
    pub(crate) fn message(&self) -> String {
        match self.0 {
            DescriptionProblem::TooLong { units } => format!(
                "this tool description is {units} UTF-16 code units long; clients cut \
                 descriptions at {DESCRIPTION_LIMIT} and drop the rest, so shorten it, or move \
                 detail under a `# ...` heading, which stays in rustdoc"
            ),
            DescriptionProblem::ListsFailure { phrase } => format!(
                "this tool description lists a failure (\"{phrase}\"); the description \
                 states the contract, and the failure belongs in the text of the \
                 `ToolError` that reports it; if the phrase is not about a failure, \
                 add `allow_failure_phrases` to this `#[tool]`"
            ),
            other => other.to_string(),
        }
    }
}

/// Checks a description. `check_phrases` is off for a tool that opted out.
/// A blank one is the caller's to report, with its own span.
pub(crate) fn check(text: &str, check_phrases: bool) -> Vec<Problem> {
    outcome_rules::check_description(Some(text))
        .into_iter()
        .filter(|problem| match problem {
            DescriptionProblem::Missing => false,
            DescriptionProblem::ListsFailure { .. } => check_phrases,
            _ => true,
        })
        .map(Problem)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    fn cut(text: &str) -> String {
        before_first_heading(&unindent(lines(text)))
    }

    #[test]
    fn stops_at_the_first_heading_outside_code() {
        let doc =
            " Return a note.\n\n ```\n # not a heading\n ```\n More.\n\n # Errors\n\n Hidden.";
        assert_eq!(
            cut(doc),
            "Return a note.\n\n```\n# not a heading\n```\n\nMore."
        );
        assert_eq!(cut(" #hashtag stays"), "#hashtag stays");
    }

    #[test]
    fn setext_headings_end_the_description() {
        assert_eq!(
            cut(" Return a note.\n\n Errors\n ======\n\n Hidden."),
            "Return a note."
        );
        assert_eq!(
            cut(" Return a note.\n Errors\n ------\n Hidden."),
            "Return a note."
        );
    }

    #[test]
    fn indented_code_and_long_fences_are_code() {
        assert_eq!(
            cut(" Run a snippet:\n\n     # list files\n     ls\n\n Done."),
            "Run a snippet:\n\n    # list files\n    ls\n\nDone."
        );
        let doc = " Return a note.\n\n ````markdown\n ```\n # inside\n ```\n ````\n # Errors";
        assert_eq!(
            cut(doc),
            "Return a note.\n\n````markdown\n```\n# inside\n```\n````"
        );
    }

    #[test]
    fn list_items_keep_their_lines_and_block_comments_lose_their_stars() {
        assert_eq!(
            cut(" Modes:\n - draft: unpublished\n - final: published"),
            "Modes:\n- draft: unpublished\n- final: published"
        );
        assert_eq!(
            cut("\n * Block doc summary\n * second line\n "),
            "Block doc summary second line"
        );
    }

    #[test]
    fn joins_the_lines_of_a_paragraph() {
        assert_eq!(
            cut(" List the paths\n of notes.\n\n No match is\n an empty list."),
            "List the paths of notes.\n\nNo match is an empty list."
        );
    }

    #[test]
    fn counts_utf16_units() {
        let long = "𝄞".repeat(DESCRIPTION_LIMIT / 2 + 1);
        assert!(matches!(
            check(&long, true)[..],
            [Problem(DescriptionProblem::TooLong { units: 2050 })]
        ));
        assert!(check("Write it. Fails if taken.", false).is_empty());
    }
}
