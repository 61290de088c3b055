//! The router check: generated code that fails to compile, at the tool and
//! with the fix, for a method of the impl block that is a tool but not
//! inside the outcome boundary (rmcp's own `#[tool]` made it one).

use proc_macro2::Span;
use quote::{format_ident, quote, quote_spanned};
use syn::{Ident, ImplItem};

use super::parse::Method;
use crate::tool::{marker_fn, metadata_fn};

/// Attributes that are never a tool macro: rustc's own, and tool lints.
const INERT: &[&str] = &[
    "doc",
    "allow",
    "warn",
    "deny",
    "forbid",
    "expect",
    "cfg",
    "cfg_attr",
    "inline",
    "cold",
    "must_use",
    "deprecated",
    "track_caller",
    "diagnostic",
    "rustfmt",
    "clippy",
];

/// The methods that decide the router check: for each attribute path that
/// could be a tool macro, the first method carrying it, with the others
/// that carry it too.
///
/// All uses of one path in one impl block resolve to the same macro, so
/// checking one method per path decides them all, and keeps the check's
/// cost flat however many tools the block holds.
fn representatives(methods: &[Method]) -> Vec<(Ident, Vec<Ident>)> {
    let mut groups: Vec<(String, Ident, Vec<Ident>)> = Vec::new();
    for function in methods {
        for attr in &function.attrs {
            let path = attr.path();
            let first = path.segments.first().map(|s| s.ident.to_string());
            if first.is_some_and(|first| INERT.contains(&first.as_str())) {
                continue;
            }
            let key = quote!(#path).to_string();
            let ident = function.sig.ident.clone();
            match groups.iter_mut().find(|(known, _, _)| *known == key) {
                Some((_, _, others)) => others.push(ident),
                None => groups.push((key, ident, Vec::new())),
            }
        }
    }
    groups
        .into_iter()
        .map(|(_, first, others)| (first, others))
        .collect()
}

/// The router check: a hidden function whose type checks fail for a method
/// of the impl block that is a tool (rmcp generated its `<name>_tool_attr`)
/// but not wrapped (this crate's `#[tool]` generated its
/// `__outcome_wrapped_<name>`).
///
/// Attributes cannot resolve paths, so `#[tool]` alone does not say whose
/// macro it is (`use rmcp::tool;`, `use rmcp::tool as t;`, `use rmcp::*`).
/// Types can: each name below resolves to the method the macros generated
/// if it exists, and to the fallback trait's otherwise, since inherent
/// functions come first. Methods are grouped by attribute, not picked by the
/// name `tool`, so a renamed import is caught too.
pub(crate) fn check_every_tool_is_wrapped(methods: &[Method], router: &Ident) -> ImplItem {
    let representatives = representatives(methods);
    let private = crate::private(Span::call_site());
    let local = Span::mixed_site();
    let fallback = Ident::new("Fallback", local);
    let marker = Ident::new("Wrapped", local);
    let check = Ident::new("check", local);
    let fallbacks = representatives.iter().map(|(function, _)| {
        let tool_attr = metadata_fn(function);
        let wrapped = marker_fn(function);
        quote! {
            fn #tool_attr() -> #private::NotATool {
                #private::NotATool
            }
            fn #wrapped() -> #private::NotWrapped {
                #private::NotWrapped
            }
        }
    });
    let checks = representatives.iter().map(|(function, others)| {
        let tool_attr = metadata_fn(function);
        let wrapped = marker_fn(function);
        let name = function.to_string();
        let message = format!("the tool `{name}` is not inside the outcome boundary");
        let also = match others.as_slice() {
            [] => String::new(),
            others => {
                let names: Vec<String> = others.iter().map(|o| format!("`{o}`")).collect();
                format!(
                    " The same attribute makes tools of {} too.",
                    names.join(", ")
                )
            }
        };
        let note = format!(
            "rmcp's own `#[tool]` made `{name}` a tool: its failures and panics would skip \
             the outcome rules. Use `outcome_runtime::tool` in its place (`use \
             outcome_runtime::tool;` or `#[outcome_runtime::tool]`); it takes the same \
             arguments.{also}"
        );
        let call = quote_spanned! { function.span() =>
            #check((Self::#tool_attr(), Self::#wrapped()));
        };
        quote! {
            {
                #[diagnostic::on_unimplemented(
                    message = #message,
                    label = "this tool skips the boundary",
                    note = #note
                )]
                trait #marker {}
                #[diagnostic::do_not_recommend]
                impl<W> #marker for (#private::NotATool, W) {}
                #[diagnostic::do_not_recommend]
                impl #marker for (#private::rmcp::model::Tool, #private::IsWrapped) {}
                // Never called: it only has to type-check.
                fn #check<T: #marker>(_: T) {}
                #call
            }
        }
    });
    // Named for the router, so that several routers of one type (combined
    // with `+`) each have their own.
    let name = format_ident!("__outcome_router_check_{}", router);
    syn::parse_quote! {
        #[doc(hidden)]
        #[allow(non_snake_case, dead_code, clippy::all)]
        fn #name() {
            trait #fallback {
                #(#fallbacks)*
            }
            impl<T: ?::core::marker::Sized> #fallback for T {}
            #(#checks)*
        }
    }
}
