//! The texts of a tool's `ToolError`s, checked at compile time.
//!
//! Outcomes 2 and 3 exist so that the model can act on them: the text it
//! reads must say what was wrong and what to do next, in words it can act
//! on. Where a part of the message is a string literal, or the format
//! string of `format!`, the author's words are known at compile time, so
//! the writing rules of `outcome_rules` are checked there, at the literal:
//! an empty part, a path of the server, a type name, a tool the server does
//! not have. A value the format string takes (`{}`) is the model's, and is
//! not checked.
//!
//! The body stays unparsed tokens (a body with a syntax error must still
//! expand), so the calls are found by their token shape: a path ending in
//! `ToolError::invalid`, `ToolError::stale` or `ToolError::retry_later`,
//! then a parenthesized group, then any `.waive(Rule::X)` calls chained to
//! it. Only an argument that is one string literal or one `format!` (or
//! `format_args!`) with a literal format string is judged; any other
//! expression is left to the runtime.

use outcome_rules::{Rule, Tools, VALUE};
use proc_macro2::{Delimiter, Group, Literal, TokenStream, TokenTree};
use syn::Lit;

/// One text argument of a constructor.
struct Part {
    constructor: &'static str,
    position: usize,
    part: outcome_rules::Part,
    name: &'static str,
    fix: &'static str,
}

const PARTS: &[Part] = &[
    Part {
        constructor: "invalid",
        position: 0,
        part: outcome_rules::Part::Problem,
        name: "problem",
        fix: "say what was wrong, quoting the value the model sent",
    },
    Part {
        constructor: "invalid",
        position: 1,
        part: outcome_rules::Part::NextStep,
        name: "next step",
        fix: "say what the model must do next, naming the tool and the parameter \
              (\"Find the path with search_notes\")",
    },
    Part {
        constructor: "stale",
        position: 0,
        part: outcome_rules::Part::Problem,
        name: "problem",
        fix: "say what changed since the model read it, quoting the value the model sent",
    },
    Part {
        constructor: "stale",
        position: 1,
        part: outcome_rules::Part::Refresh,
        name: "refresh step",
        fix: "say where the model gets the fresh value and how to retry \
              (\"Call read_note for the current version, then retry with it\")",
    },
    Part {
        constructor: "retry_later",
        position: 0,
        part: outcome_rules::Part::Retry,
        name: "message",
        fix: "tell the model that its request was fine and when to retry \
              (\"The index is rebuilding and the request was fine; retry in a minute\")",
    },
];

/// An error at every literal in `body` that makes a part of a `ToolError`
/// message empty or breaks a writing rule, in the order they are written.
/// `tools` are the tools the texts may name.
pub(crate) fn check(body: &TokenTree, tools: &Tools) -> Vec<syn::Error> {
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
            let waived = waived_after(&tokens[*next..]);
            check_arguments(constructor, &group, &waived, tools, &mut errors);
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

/// The rules waived by the method calls chained right after a constructor's
/// arguments: `.waive(Rule::NoPath)`, `.waive(outcome_runtime::Rule::Short)`.
/// Other calls in the chain are passed over; the chain ends at anything
/// that is not a method call.
fn waived_after(after: &[TokenTree]) -> Vec<Rule> {
    let mut waived = Vec::new();
    let mut rest = after;
    while let [
        TokenTree::Punct(dot),
        TokenTree::Ident(method),
        TokenTree::Group(arguments),
        tail @ ..,
    ] = rest
    {
        if dot.as_char() != '.' || arguments.delimiter() != Delimiter::Parenthesis {
            break;
        }
        if method == "waive" {
            let last = invisible_stripped(arguments.stream().into_iter().collect())
                .into_iter()
                .filter_map(|token| match token {
                    TokenTree::Ident(ident) => Some(ident.to_string()),
                    _ => None,
                })
                .last();
            waived.extend(last.as_deref().and_then(Rule::from_name));
        }
        rest = tail;
    }
    waived
}

fn check_arguments(
    constructor: &str,
    group: &Group,
    waived: &[Rule],
    tools: &Tools,
    errors: &mut Vec<syn::Error>,
) {
    let arguments = split_arguments(group.stream());
    for part in PARTS.iter().filter(|part| part.constructor == constructor) {
        let Some(argument) = arguments.get(part.position) else {
            continue;
        };
        let (literal, text, formatted) = match text_of(argument) {
            Some(Text::Plain(literal, text)) => (literal, text, false),
            Some(Text::Format(literal, text)) => (literal, text, true),
            None => continue,
        };
        if text.trim().is_empty() {
            if formatted {
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
            continue;
        }
        for broken in outcome_rules::check_part(part.part, &text, tools) {
            if waived.contains(&broken.rule) {
                continue;
            }
            errors.push(syn::Error::new(literal.span(), message(&broken)));
        }
    }
}

/// What the author reads for a broken rule: what is wrong, the fix, the
/// rule, and how to keep the text if it must break it.
fn message(broken: &outcome_rules::Broken) -> String {
    // A tool of another `#[tool_router]` block summed with this one is
    // the server's, but this block cannot see it unless told.
    let summed = match broken.rule {
        outcome_rules::Rule::KnownTool => format!(
            "; if `{}` is a tool of a router summed with this one, name it in \
             `#[tool_router(other_tools({}))]`",
            broken.words, broken.words
        ),
        _ => String::new(),
    };
    format!(
        "{} (rule `{}`{summed}; if this text must break it, chain `.waive(Rule::{:?})` to this \
         call)",
        broken.message,
        broken.rule.name(),
        broken.rule
    )
}

/// A text the author wrote: a string literal as it reads, or a format
/// string with [`VALUE`] for each placeholder.
enum Text {
    Plain(Literal, String),
    Format(Literal, String),
}

/// The text of an argument that is one string literal, or one `format!` or
/// `format_args!` call whose format string is a literal.
fn text_of(argument: &[TokenTree]) -> Option<Text> {
    let argument = invisible_stripped(argument.to_vec());
    if let [TokenTree::Literal(literal)] = argument.as_slice() {
        let Lit::Str(text) = Lit::new(literal.clone()) else {
            return None;
        };
        return Some(Text::Plain(literal.clone(), text.value()));
    }
    let [
        path @ ..,
        TokenTree::Punct(bang),
        TokenTree::Group(arguments),
    ] = argument.as_slice()
    else {
        return None;
    };
    if bang.as_char() != '!' || !is_format_path(path) {
        return None;
    }
    let arguments = split_arguments(arguments.stream());
    let literal = lone_literal(arguments.first()?)?;
    let Lit::Str(text) = Lit::new(literal.clone()) else {
        return None;
    };
    let text = with_values(&text.value())?;
    Some(Text::Format(literal, text))
}

/// Whether the tokens are a path to `format` or `format_args`: `format`,
/// `std::format_args`, `::alloc::format`.
fn is_format_path(path: &[TokenTree]) -> bool {
    let Some(TokenTree::Ident(last)) = path.last() else {
        return false;
    };
    (last == "format" || last == "format_args")
        && path.iter().all(|token| match token {
            TokenTree::Ident(_) => true,
            TokenTree::Punct(punct) => punct.as_char() == ':',
            _ => false,
        })
}

/// A format string as the model reads it, with [`VALUE`] for each
/// placeholder and `{{` and `}}` unescaped; `None` for one that is not
/// well formed, which rustc reports.
fn with_values(format: &str) -> Option<String> {
    let mut text = String::with_capacity(format.len());
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                text.push('{');
            }
            '{' => {
                loop {
                    match chars.next()? {
                        '}' => break,
                        '{' => return None,
                        _ => {}
                    }
                }
                text.push(VALUE);
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                text.push('}');
            }
            '}' => return None,
            c => text.push(c),
        }
    }
    Some(text)
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

/// The tokens inside any invisible groups they consist of: `macro_rules!`
/// puts one around a substituted `$text:expr`.
fn invisible_stripped(mut tokens: Vec<TokenTree>) -> Vec<TokenTree> {
    loop {
        match tokens.as_slice() {
            [TokenTree::Group(group)] if group.delimiter() == Delimiter::None => {
                tokens = group.stream().into_iter().collect();
            }
            _ => return tokens,
        }
    }
}

/// The literal an argument consists of, if that is all it is, looking
/// through invisible groups.
fn lone_literal(argument: &[TokenTree]) -> Option<Literal> {
    match invisible_stripped(argument.to_vec()).as_slice() {
        [TokenTree::Literal(literal)] => Some(literal.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(body: &str) -> Vec<String> {
        let body: TokenStream = body.parse().expect("the body lexes");
        let body = TokenTree::Group(Group::new(Delimiter::Brace, body));
        check(&body, &Tools::unknown())
            .iter()
            .map(ToString::to_string)
            .collect()
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
        assert_eq!(check(&body, &Tools::unknown()).len(), 1);
    }

    fn rules(body: &str, tools: &Tools) -> Vec<String> {
        let body: TokenStream = body.parse().expect("the body lexes");
        let body = TokenTree::Group(Group::new(Delimiter::Brace, body));
        check(&body, tools)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn a_format_string_is_checked_with_its_placeholders_as_values() {
        let tools = Tools::new().tool("search_notes").answering("read_note");
        let found = rules(
            r#"
            ToolError::invalid(format!("No note at {path:?} in /srv/notes"), "Call search_notes.");
            ToolError::invalid(std::format_args!("No {{note}} {}", x), ::std::format!("Look in {}.", t));
            ToolError::invalid("No note", ::std::format!("Call {} instead.", t));
            ToolError::retry_later(alloc::format!("{} is busy; retry in a minute", p));
            "#,
            &tools,
        );
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("`/srv/notes` is"), "{}", found[0]);
        assert!(
            found[0].ends_with("chain `.waive(Rule::NoPath)` to this call)"),
            "{}",
            found[0]
        );
        assert!(found[1].contains("names-tool"), "{}", found[1]);
    }

    #[test]
    fn a_waived_rule_is_not_reported_for_that_call() {
        let tools = Tools::new().tool("search_notes").answering("read_note");
        let body = r#"
            ToolError::invalid("No note in /srv/notes.", "Find it with search_note.")
                .waive(Rule::NoPath)
                .waive(outcome_runtime::Rule::KnownTool);
            ToolError::invalid("No note in /srv/notes.", "Find it with search_notes.");
        "#;
        let found = rules(body, &tools);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("no-path"), "{}", found[0]);
    }

    #[test]
    fn a_renamed_tool_is_reported_with_the_closest_name() {
        let tools = Tools::new().tool("search_notes").answering("read_note");
        let found = rules(
            r#"ToolError::invalid("No note at that path.", "Find the path with search_note.")"#,
            &tools,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with(
                "`search_note` is not a tool of this server; did you mean `search_notes`?"
            ),
            "{}",
            found[0]
        );
    }

    #[test]
    fn placeholders_and_escapes_read_as_the_model_reads_them() {
        let value = VALUE.to_string();
        assert_eq!(
            with_values("a {} b {x:?} {{c}}"),
            Some(format!("a {value} b {value} {{c}}"))
        );
        for broken in ["{", "}", "{{{", "{:?", "a } b", "{ { }"] {
            assert_eq!(with_values(broken), None, "{broken}");
        }
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
