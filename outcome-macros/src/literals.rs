//! Empty texts in a tool's `ToolError`s, found at compile time.
//!
//! Outcomes 2 and 3 exist so that the model can act on them: the text it
//! reads must say what was wrong and what to do next. A model that reads
//! ". Call read_note." or an empty result cannot act; it resends the same
//! call or gives up. The runtime puts a fallback in an empty part, but where
//! the part is a string literal the mistake is certain at compile time, so
//! it is reported there, at the literal, with the text that should replace
//! it.
//!
//! The body stays unparsed tokens (a body with a syntax error must still
//! expand), so the calls are found by their token shape: a path ending in
//! `ToolError::invalid`, `ToolError::stale` or `ToolError::retry_later`,
//! then a parenthesized group. Only an argument that is exactly one string
//! literal is judged; any other expression is left to the runtime.

use proc_macro2::{Delimiter, Group, Literal, TokenStream, TokenTree};
use syn::Lit;

/// One text argument of a constructor that must never be empty.
struct Part {
    constructor: &'static str,
    position: usize,
    name: &'static str,
    fix: &'static str,
}

const PARTS: &[Part] = &[
    Part {
        constructor: "invalid",
        position: 0,
        name: "problem",
        fix: "say what was wrong, quoting the value the model sent",
    },
    Part {
        constructor: "invalid",
        position: 1,
        name: "next step",
        fix: "say what the model must do next, naming the tool and the parameter \
              (\"Find the path with search_notes\")",
    },
    Part {
        constructor: "stale",
        position: 0,
        name: "problem",
        fix: "say what changed since the model read it, quoting the value the model sent",
    },
    Part {
        constructor: "stale",
        position: 1,
        name: "refresh step",
        fix: "say where the model gets the fresh value and how to retry \
              (\"Call read_note for the current version, then retry with it\")",
    },
    Part {
        constructor: "retry_later",
        position: 0,
        name: "message",
        fix: "tell the model that its request was fine and when to retry \
              (\"The index is rebuilding and the request was fine; retry in a minute\")",
    },
];

/// An error at every string literal in `body` that would make an empty part
/// of a `ToolError` message, in the order they are written.
pub(crate) fn empty_parts(body: &TokenTree) -> Vec<syn::Error> {
    let mut errors = Vec::new();
    // An explicit stack rather than recursion: the body is the user's, and
    // nesting thousands of groups deep must not overflow the macro's stack.
    let mut pending: Vec<(Vec<TokenTree>, usize)> = vec![(vec![body.clone()], 0)];
    while let Some((tokens, next)) = pending.last_mut() {
        let Some(token) = tokens.get(*next) else {
            pending.pop();
            continue;
        };
        *next += 1;
        let TokenTree::Group(group) = token else {
            continue;
        };
        let group = group.clone();
        if group.delimiter() == Delimiter::Parenthesis
            && let Some(constructor) = constructor_before(&tokens[..*next - 1])
        {
            check_arguments(constructor, &group, &mut errors);
        }
        pending.push((group.stream().into_iter().collect(), 0));
    }
    errors
}

/// The constructor whose name ends `before`, if `before` ends in
/// `ToolError::invalid`, `ToolError::stale` or `ToolError::retry_later`.
fn constructor_before(before: &[TokenTree]) -> Option<&'static str> {
    let [
        ..,
        TokenTree::Ident(ty),
        TokenTree::Punct(first),
        TokenTree::Punct(second),
        TokenTree::Ident(name),
    ] = before
    else {
        return None;
    };
    if ty != "ToolError" || first.as_char() != ':' || second.as_char() != ':' {
        return None;
    }
    PARTS
        .iter()
        .map(|part| part.constructor)
        .find(|constructor| name == constructor)
}

fn check_arguments(constructor: &str, group: &Group, errors: &mut Vec<syn::Error>) {
    let arguments = split_arguments(group.stream());
    for part in PARTS.iter().filter(|part| part.constructor == constructor) {
        let Some(literal) = arguments
            .get(part.position)
            .and_then(|argument| lone_literal(argument))
        else {
            continue;
        };
        let Lit::Str(text) = Lit::new(literal.clone()) else {
            continue;
        };
        let text = text.value();
        if !text.trim().is_empty() {
            continue;
        }
        let emptiness = if text.is_empty() {
            "empty"
        } else {
            "only whitespace"
        };
        errors.push(syn::Error::new(
            literal.span(),
            format!(
                "the {} of `ToolError::{constructor}` is {emptiness}: {}",
                part.name, part.fix
            ),
        ));
    }
}

/// The call's arguments: the tokens between top-level commas. A comma in a
/// nested group (a tuple, a closure's block, a macro's arguments) is inside
/// one argument and does not split.
fn split_arguments(arguments: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut split = Vec::new();
    let mut current = Vec::new();
    for token in arguments {
        match &token {
            TokenTree::Punct(punct) if punct.as_char() == ',' => {
                split.push(std::mem::take(&mut current));
            }
            _ => current.push(token),
        }
    }
    split.push(current);
    split
}

/// The literal an argument consists of, if that is all it is. Invisible
/// groups, which `macro_rules!` puts around a substituted `$text:expr`, are
/// looked through.
fn lone_literal(argument: &[TokenTree]) -> Option<Literal> {
    let mut argument = argument.to_vec();
    loop {
        match argument.as_slice() {
            [TokenTree::Literal(literal)] => return Some(literal.clone()),
            [TokenTree::Group(group)] if group.delimiter() == Delimiter::None => {
                argument = group.stream().into_iter().collect();
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(body: &str) -> Vec<String> {
        let body: TokenStream = body.parse().expect("the body lexes");
        let body = TokenTree::Group(Group::new(Delimiter::Brace, body));
        empty_parts(&body).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn every_empty_part_is_reported_in_the_order_written() {
        let found = messages(
            r##"
            if x { return Err(ToolError::invalid("bad", "")); }
            let e = outcome_runtime::ToolError::stale(r"", "\n\t ");
            vec![::outcome_runtime::ToolError::retry_later(r#""#)];
            "##,
        );
        let starts: Vec<&str> = found
            .iter()
            .map(|message| message.split(':').next().unwrap_or_default())
            .collect();
        assert_eq!(
            starts,
            [
                "the next step of `ToolError",
                "the problem of `ToolError",
                "the refresh step of `ToolError",
                "the message of `ToolError",
            ]
        );
        assert!(found[2].contains("is only whitespace"), "{}", found[2]);
        assert!(found[3].contains("is empty"), "{}", found[3]);
    }

    #[test]
    fn only_a_lone_empty_literal_at_a_checked_position_is_reported() {
        let found = messages(
            r#"
            ToolError::invalid(format!(""), "Call search_notes");
            ToolError::invalid(problem, if x { "" } else { "Call it" });
            ToolError::invalid("bad", f("", ""), "");
            ToolError::stale(" x ", || "");
            ToolError::retry_later(b"");
            ToolError::retry_later;
            ToolError::fault("");
            Other::invalid("", "");
            invalid("", "");
            let f = || "";
            "#,
        );
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn a_literal_from_a_macro_substitution_is_seen_through_its_invisible_group() {
        let literal = TokenStream::from(TokenTree::Literal(Literal::string(" ")));
        let argument = TokenTree::Group(Group::new(Delimiter::None, literal));
        let body: TokenStream = "ToolError::retry_later".parse().expect("the path lexes");
        let call = Group::new(Delimiter::Parenthesis, argument.into());
        let body: TokenStream = body.into_iter().chain([TokenTree::Group(call)]).collect();
        let body = TokenTree::Group(Group::new(Delimiter::Brace, body));
        assert_eq!(empty_parts(&body).len(), 1);
    }

    #[test]
    fn deep_nesting_does_not_overflow_the_stack() {
        let depth = 100_000;
        let body = format!(
            "{}ToolError::invalid(\"bad\", \"\"){}",
            "(".repeat(depth),
            ")".repeat(depth)
        );
        assert_eq!(messages(&body).len(), 1);
    }
}
