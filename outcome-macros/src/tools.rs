//! The tools of a server as `#[tool_router]` sees them, against which it
//! checks the texts of every method of its block, and the mark it leaves
//! on each tool so that `#[tool]` does not check them again.
//!
//! The router writes `#[::outcome_runtime::__private_<version>::__texts_checked]`
//! after every tool attribute of its block; `#[tool]` takes it off the
//! method before anything else sees it. The router checks once, with the
//! whole list; handing the list to each `#[tool]` would cost a copy of it
//! per tool. A mark rather than an argument of `#[tool(..)]`, since the
//! tool attribute may be rmcp's (which the router check then reports), and
//! rmcp's `#[tool]` refuses arguments it does not know; it keeps other
//! attributes on the method, and this one expands to the method unchanged.

use outcome_rules::Tools;
use proc_macro2::{Delimiter, Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};
use syn::{Attribute, FnArg, Member, Pat};

/// The name of the router's mark.
const MARK: &str = "__texts_checked";

/// Every tool of a server: its name, and its parameters if known.
#[derive(Clone, Debug, Default)]
pub(crate) struct ToolList {
    tools: Vec<(String, Option<Vec<String>>)>,
    /// The names in `tools`: a block of ten thousand tools is listed in
    /// time linear in them.
    names: std::collections::HashSet<String>,
}

impl ToolList {
    pub(crate) fn push(&mut self, name: String, parameters: Option<Vec<String>>) {
        if self.names.insert(name.clone()) {
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
}

/// The mark the router leaves after each tool attribute: `#` and its
/// brackets.
pub(crate) fn mark() -> TokenStream {
    let mut path = crate::private(Span::call_site());
    path.extend([
        TokenTree::Punct(Punct::new(':', Spacing::Joint)),
        TokenTree::Punct(Punct::new(':', Spacing::Alone)),
        TokenTree::Ident(Ident::new(MARK, Span::call_site())),
    ]);
    [
        TokenTree::Punct(Punct::new('#', Spacing::Alone)),
        TokenTree::Group(Group::new(Delimiter::Bracket, path)),
    ]
    .into_iter()
    .collect()
}

/// Whether `attrs` had the router's mark, which is taken off.
pub(crate) fn take_mark(attrs: &mut Vec<Attribute>) -> bool {
    let Some(index) = attrs.iter().position(|attr| {
        attr.path()
            .segments
            .last()
            .is_some_and(|segment| segment.ident == MARK)
    }) else {
        return false;
    };
    attrs.remove(index);
    true
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
    fn the_mark_is_taken_off_once() {
        let item: TokenStream = format!("#[doc = \"Doc.\"] {} #[inline] fn f() {{}}", mark())
            .parse()
            .expect("lexes");
        let mut function: syn::ItemFn = syn::parse2(item).expect("parses");
        assert!(take_mark(&mut function.attrs));
        assert_eq!(function.attrs.len(), 2);
        assert!(!take_mark(&mut function.attrs));
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
