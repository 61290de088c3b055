//! The tools of a server as `#[tool_router]` sees them, handed to each
//! `#[tool]` of its impl block, so that a text may be checked against the
//! tools and parameters it names.
//!
//! The router writes a hidden attribute after every tool attribute of its
//! block, `#[::outcome_runtime::__private_<version>::__server_tools(
//! "read_note"("path"), "search_notes"("query"), "jobs")]`: each tool's
//! name, then its parameters where the router could see them. `#[tool]`
//! reads it and takes it off the method before anything else sees it.
//! An attribute rather than an argument of `#[tool(..)]`, since the tool
//! attribute may be rmcp's (which the router check then reports), and
//! rmcp's `#[tool]` refuses arguments it does not know; it keeps other
//! attributes on the method, and this one expands to the method unchanged.

use outcome_rules::Tools;
use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use syn::{Attribute, FnArg, Lit, Member, Meta, Pat};

/// The name of the hidden attribute.
const HIDDEN: &str = "__server_tools";

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

    /// The hidden attribute that hands the list to `#[tool]`, `#` and
    /// its brackets.
    pub(crate) fn attribute(&self) -> TokenStream {
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
        let mut path = crate::private(Span::call_site());
        path.extend([
            TokenTree::Punct(Punct::new(':', Spacing::Joint)),
            TokenTree::Punct(Punct::new(':', Spacing::Alone)),
            TokenTree::Ident(Ident::new(HIDDEN, Span::call_site())),
            TokenTree::Group(Group::new(Delimiter::Parenthesis, list)),
        ]);
        [
            TokenTree::Punct(Punct::new('#', Spacing::Alone)),
            TokenTree::Group(Group::new(Delimiter::Bracket, path)),
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

/// The list of the hidden attribute, taken off `attrs`; `None` when there
/// was none (a `#[tool]` outside a router).
pub(crate) fn take(attrs: &mut Vec<Attribute>) -> Option<ToolList> {
    let index = attrs.iter().position(|attr| {
        attr.path()
            .segments
            .last()
            .is_some_and(|segment| segment.ident == HIDDEN)
    })?;
    let attr = attrs.remove(index);
    Some(match attr.meta {
        Meta::List(list) => ToolList::read(list.tokens),
        _ => ToolList::default(),
    })
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
    fn the_hidden_attribute_is_taken_off_and_reads_back() {
        let mut list = ToolList::default();
        list.push("read_note".into(), Some(vec!["path".into()]));
        list.push("jobs".into(), None);
        let hidden = list.attribute();
        let item: TokenStream = format!("#[doc = \"Doc.\"] {hidden} #[inline] fn f() {{}}")
            .parse()
            .expect("lexes");
        let mut function: syn::ItemFn = syn::parse2(item).expect("parses");
        let found = take(&mut function.attrs).expect("found");
        assert_eq!(format!("{:?}", found.tools), format!("{:?}", list.tools));
        assert_eq!(function.attrs.len(), 2);
        assert!(take(&mut function.attrs).is_none());
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
