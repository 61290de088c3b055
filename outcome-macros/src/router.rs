//! `#[tool_router]`: rmcp's `#[tool_router]`, whose `server_handler` form
//! uses this crate's `#[tool_handler]`.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::{Ident, ImplItem, ItemImpl};

use crate::args::{self, Kind};

/// Every argument rmcp's `#[tool_router]` takes.
const ARGS: &[(&str, Kind)] = &[
    ("router", Kind::Expr),
    ("vis", Kind::Str),
    ("server_handler", Kind::Flag),
    ("allow_empty", Kind::Flag),
];

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    args::or_item(try_expand(attr, item.clone()), item)
}

fn try_expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let args = args::parse_all("tool_router", attr, ARGS)?;
    let router = match args.iter().find(|arg| arg.name == "router") {
        Some(arg) => match arg.value() {
            Some(syn::Expr::Path(path)) if path.path.get_ident().is_some() => path
                .path
                .get_ident()
                .cloned()
                .unwrap_or_else(|| format_ident!("tool_router")),
            _ => {
                return Err(syn::Error::new_spanned(
                    &arg.meta,
                    "`router` names the function to generate: `router = my_router`",
                ));
            }
        },
        None => format_ident!("tool_router"),
    };

    let mut item_impl: ItemImpl = syn::parse2(item)?;
    let representatives = representatives(&item_impl);
    if item_impl.trait_.is_none() {
        let check = check_every_tool_is_wrapped(&representatives, &router);
        item_impl.items.push(check);
    }
    let allow_empty = args.iter().any(|arg| arg.name == "allow_empty");
    if representatives.is_empty() && !allow_empty {
        return Err(syn::Error::new_spanned(
            &item_impl.self_ty,
            format!(
                "`#[tool_router]` found no `#[tool]` method in this impl block, so \
                 `Self::{router}()` would serve no tools; add `allow_empty` if that is meant"
            ),
        ));
    }
    // rmcp builds the router under another name; the function the user
    // named marks its routes as inside the boundary, for
    // `testing::assert_wrapped`, as it hands the router on.
    let unmarked = format_ident!("__outcome_unmarked_{}", router);
    let vis = match args
        .iter()
        .find(|arg| arg.name == "vis")
        .and_then(|arg| arg.str_value())
    {
        Some(vis) => vis.parse::<syn::Visibility>()?.into_token_stream(),
        None => TokenStream::new(),
    };
    if item_impl.trait_.is_none() {
        let private = quote! { ::outcome_runtime::__private };
        item_impl.items.push(syn::parse_quote! {
            #vis fn #router() -> #private::rmcp::handler::server::tool::ToolRouter<Self> {
                #private::mark_router(Self::#unmarked())
            }
        });
    }
    let server_handler = args.iter().find(|arg| arg.name == "server_handler");
    let forwarded = args
        .iter()
        .filter(|arg| !matches!(arg.name.as_str(), "server_handler" | "router" | "vis"));
    let mut tokens = quote! {
        #[::outcome_runtime::__private::rmcp::tool_router(router = #unmarked, #(#forwarded),*)]
        #item_impl
    };
    if server_handler.is_some() {
        if let Some((trait_path, _)) = &item_impl.trait_ {
            return Err(syn::Error::new_spanned(
                trait_path,
                "`server_handler` goes on an inherent impl block (`impl MyServer { .. }`)",
            ));
        }
        let self_ty = &item_impl.self_ty;
        let (impl_generics, ty_generics, where_clause) = item_impl.generics.split_for_impl();
        tokens.extend(quote! {
            #[::outcome_runtime::tool_handler(router = Self::#router())]
            impl #impl_generics ::outcome_runtime::__private::rmcp::ServerHandler
                for #self_ty #ty_generics #where_clause {}
        });
    }
    Ok(tokens)
}

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
fn representatives(item_impl: &ItemImpl) -> Vec<(Ident, Vec<Ident>)> {
    let mut groups: Vec<(String, Ident, Vec<Ident>)> = Vec::new();
    for item in &item_impl.items {
        let ImplItem::Fn(function) = item else {
            continue;
        };
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
fn check_every_tool_is_wrapped(
    representatives: &[(Ident, Vec<Ident>)],
    router: &Ident,
) -> ImplItem {
    let private = quote! { ::outcome_runtime::__private };
    let local = Span::mixed_site();
    let fallback = Ident::new("Fallback", local);
    let marker = Ident::new("Wrapped", local);
    let check = Ident::new("check", local);
    let fallbacks = representatives.iter().map(|(function, _)| {
        let tool_attr = format_ident!("{}_tool_attr", function);
        let wrapped = format_ident!("__outcome_wrapped_{}", function);
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
        let tool_attr = format_ident!("{}_tool_attr", function);
        let wrapped = format_ident!("__outcome_wrapped_{}", function);
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
