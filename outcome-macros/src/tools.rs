//! The tools of a server as `#[tool_router]` sees them, handed to each
//! `#[tool]` of its impl block, so that a text may be checked against the
//! tools and parameters it names.
//!
//! The router adds a hidden argument to every tool attribute of its block,
//! `__outcome_tools("read_note"("path"), "search_notes"("query"), "jobs")`:
//! each tool's name, then its parameters where the router could see them.
//! `#[tool]` takes that argument off before it reads its own.

use outcome_rules::Tools;
use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use syn::{FnArg, Lit, Member, Pat};

/// The name of the hidden argument.
const HIDDEN: &str = "__outcome_tools";

/// Every tool of a server: its name, and its parameters if known.
#[derive(Clone, Debug, Default)]
pub(crate) struct ToolList {
    tools: Vec<(String, Option<Vec<String>>)>,
}

impl ToolList {
    pub(crate) fn push(&mut self, name: String, parameters: Option<Vec<String>>) {
        if !self.tools.iter().any(|(known, _)| *known == name) {
            self.tools.push((name, parameters));
        }
    }

    /// The rules' view of the list, for the texts of the tool `own`
    /// (`None` for a method that is no tool).
    pub(crate) fn rules(&self, own: Option<&str>) -> Tools {
        let mut tools = Tools::new();
        for (name, parameters) in &self.tools {
            tools = match parameters {
                Some(parameters) => tools.tool_with_parameters(name, parameters),
                None => tools.tool(name),
            };
        }
        match own {
            Some(own) => tools.answering(own),
            None => tools,
        }
    }

    /// The hidden argument that hands the list to `#[tool]`.
    pub(crate) fn argument(&self) -> TokenStream {
        let mut list = TokenStream::new();
        for (index, (name, parameters)) in self.tools.iter().enumerate() {
            if index > 0 {
                list.extend([comma()]);
            }
            list.extend([TokenTree::Literal(Literal::string(name))]);
            if let Some(parameters) = parameters {
                let mut inner = TokenStream::new();
                for (index, parameter) in parameters.iter().enumerate() {
                    if index > 0 {
                        inner.extend([comma()]);
                    }
                    inner.extend([TokenTree::Literal(Literal::string(parameter))]);
                }
                list.extend([TokenTree::Group(Group::new(Delimiter::Parenthesis, inner))]);
            }
        }
        [
            TokenTree::Ident(Ident::new(HIDDEN, Span::call_site())),
            TokenTree::Group(Group::new(Delimiter::Parenthesis, list)),
        ]
        .into_iter()
        .collect()
    }

    /// The list in a hidden argument's parentheses; what does not read as
    /// one is passed over.
    fn read(list: TokenStream) -> ToolList {
        let mut tools = ToolList::default();
        let mut tokens = list.into_iter().peekable();
        while let Some(token) = tokens.next() {
            let Some(name) = string(&token) else {
                continue;
            };
            let parameters = match tokens.peek() {
                Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Parenthesis => {
                    let parameters = group.stream().into_iter().filter_map(|t| string(&t));
                    let parameters = parameters.collect();
                    tokens.next();
                    Some(parameters)
                }
                _ => None,
            };
            tools.push(name, parameters);
        }
        tools
    }
}

fn comma() -> TokenTree {
    TokenTree::Punct(Punct::new(',', Spacing::Alone))
}

fn string(token: &TokenTree) -> Option<String> {
    match token {
        TokenTree::Literal(literal) => match Lit::new(literal.clone()) {
            Lit::Str(text) => Some(text.value()),
            _ => None,
        },
        _ => None,
    }
}

/// The attribute's arguments without the hidden one, and the list it held
/// (`None` when there was none: a `#[tool]` outside a router).
pub(crate) fn take(attr: TokenStream) -> (TokenStream, Option<ToolList>) {
    let tokens: Vec<TokenTree> = attr.into_iter().collect();
    let mut list = None;
    let mut kept: Vec<TokenTree> = Vec::with_capacity(tokens.len());
    let mut index = 0;
    while index < tokens.len() {
        let at_start = kept
            .last()
            .is_none_or(|token| matches!(token, TokenTree::Punct(p) if p.as_char() == ','));
        if let (true, TokenTree::Ident(ident), Some(TokenTree::Group(group))) =
            (at_start, &tokens[index], tokens.get(index + 1))
            && ident == HIDDEN
            && group.delimiter() == Delimiter::Parenthesis
            && tokens
                .get(index + 2)
                .is_none_or(|token| matches!(token, TokenTree::Punct(p) if p.as_char() == ','))
        {
            list = Some(ToolList::read(group.stream()));
            // The comma after it goes too; or, at the end, the one before.
            if tokens.get(index + 2).is_some() {
                index += 3;
            } else {
                kept.pop();
                index += 2;
            }
            continue;
        }
        kept.push(tokens[index].clone());
        index += 1;
    }
    (kept.into_iter().collect(), list)
}

/// The parameters of a tool, if its signature shows them all: a
/// `Parameters(Struct { a, b })` pattern without `..`.
pub(crate) fn parameters(sig: &syn::Signature) -> Option<Vec<String>> {
    sig.inputs.iter().find_map(|input| {
        let FnArg::Typed(typed) = input else {
            return None;
        };
        let Pat::TupleStruct(tuple) = &*typed.pat else {
            return None;
        };
        let is_parameters = tuple
            .path
            .segments
            .last()
            .is_some_and(|segment| segment.ident == "Parameters");
        let (true, [Pat::Struct(fields)]) = (
            is_parameters,
            tuple.elems.iter().collect::<Vec<_>>().as_slice(),
        ) else {
            return None;
        };
        if fields.rest.is_some() {
            return None;
        }
        fields
            .fields
            .iter()
            .map(|field| match &field.member {
                Member::Named(name) => Some(syn::ext::IdentExt::unraw(name).to_string()),
                Member::Unnamed(_) => None,
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hidden_argument_is_taken_wherever_it_is_and_reads_back() {
        let mut list = ToolList::default();
        list.push("read_note".into(), Some(vec!["path".into()]));
        list.push("jobs".into(), None);
        let hidden = list.argument().to_string();
        for attr in [
            hidden.clone(),
            format!("name = \"x\", {hidden}"),
            format!("{hidden}, name = \"x\""),
            format!("name = \"x\", {hidden}, local"),
        ] {
            let (rest, found) = take(attr.parse().expect("lexes"));
            assert!(!rest.to_string().contains(HIDDEN), "{rest}");
            assert!(!rest.to_string().ends_with(','), "{rest}");
            assert_eq!(
                format!("{:?}", found.expect("found").tools),
                format!("{:?}", list.tools)
            );
        }
        let (rest, found) = take("name = \"x\"".parse().expect("lexes"));
        assert!(found.is_none());
        assert_eq!(rest.to_string(), "name = \"x\"");
    }

    #[test]
    fn parameters_are_known_only_from_a_complete_destructuring() {
        let sig = |text: &str| syn::parse_str::<syn::Signature>(text).expect("parses");
        let known = sig("fn f(&self, Parameters(Args { path, r#type }): Parameters<Args>)");
        assert_eq!(parameters(&known), Some(vec!["path".into(), "type".into()]));
        for unknown in [
            "fn f(&self, Parameters(Args { path, .. }): Parameters<Args>)",
            "fn f(&self, Parameters(args): Parameters<Args>)",
            "fn f(&self, args: Parameters<Args>)",
        ] {
            assert_eq!(parameters(&sig(unknown)), None, "{unknown}");
        }
    }
}
