//! `#[tool_router]`: rmcp's `#[tool_router]`, whose `server_handler` form
//! uses this crate's `#[tool_handler]`.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::{Ident, ImplItem, ItemImpl};

use crate::args::{self, Errors, Kind, Parsed};

/// Every argument rmcp's `#[tool_router]` takes.
const ARGS: &[(&str, Kind)] = &[
    ("router", Kind::Expr),
    ("vis", Kind::Str),
    ("server_handler", Kind::Flag),
    ("allow_empty", Kind::Flag),
];

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let args = args::parse("tool_router", attr, ARGS, &mut errors);
    let expansion = match syn::parse2::<ItemImpl>(item.clone()) {
        Ok(item_impl) => expand_impl(&args, item_impl, &mut errors),
        Err(error) => {
            errors.push(error);
            item
        }
    };
    let errors = errors.into_compile_error();
    quote! { #errors #expansion }
}

/// The expansion, even when the arguments or the block have errors: then
/// it goes on with what the user most likely meant (a misspelled argument
/// as the one it is closest to) or the defaults, so that the router
/// function exists under the expected name and code that calls it, such
/// as `#[tool_handler]`, does not fail too.
fn expand_impl(args: &Parsed, mut item_impl: ItemImpl, errors: &mut Errors) -> TokenStream {
    let router = router_name(args, errors);
    let representatives = representatives(&item_impl);
    if item_impl.trait_.is_none() {
        let check = check_every_tool_is_wrapped(&representatives, &router);
        item_impl.items.push(check);
    }
    let mut allow_empty = args.get("allow_empty").is_some();
    if representatives.is_empty() && !allow_empty {
        errors.push(syn::Error::new_spanned(
            &item_impl.self_ty,
            format!(
                "`#[tool_router]` found no `#[tool]` method in this impl block, so \
                 `Self::{router}()` would serve no tools; add `allow_empty` if that is meant"
            ),
        ));
        // Reported once, here: rmcp's macro is told not to again.
        allow_empty = true;
    }
    let set_apart = set_apart_unroutable(&mut item_impl);
    if set_apart.is_some() && !item_impl.items.iter().any(has_tool_attribute) {
        allow_empty = true;
    }
    // rmcp builds the router under another name; the function the user
    // named marks its routes as inside the boundary, for
    // `testing::assert_wrapped`, as it hands the router on.
    let unmarked = format_ident!("__outcome_unmarked_{}", router);
    let vis = visibility(args, errors);
    if item_impl.trait_.is_none() {
        let private = crate::private(Span::call_site());
        item_impl.items.push(syn::parse_quote! {
            #vis fn #router() -> #private::rmcp::handler::server::tool::ToolRouter<Self> {
                #private::mark_router(Self::#unmarked())
            }
        });
    }
    let allow_empty = allow_empty.then(|| quote! { , allow_empty });
    let private = crate::private(Span::call_site());
    let mut tokens = quote! {
        #[#private::rmcp::tool_router(router = #unmarked #allow_empty)]
        #item_impl
        #set_apart
    };
    if args.get("server_handler").is_some() {
        if let Some((trait_path, _)) = &item_impl.trait_ {
            errors.push(syn::Error::new_spanned(
                trait_path,
                "`server_handler` goes on an inherent impl block (`impl MyServer { .. }`)",
            ));
            return tokens;
        }
        let self_ty = &item_impl.self_ty;
        // `self_ty` carries its generic arguments already (`Server<T>`).
        let (impl_generics, _, where_clause) = item_impl.generics.split_for_impl();
        tokens.extend(quote! {
            #[::outcome_runtime::tool_handler(router = Self::#router())]
            impl #impl_generics #private::rmcp::ServerHandler
                for #self_ty #where_clause {}
        });
    }
    tokens
}

/// The name of the router function: `router = name`, else `tool_router`.
/// A value that is not a plain name is an error; a path then gives its
/// last name (`router = Self::tools` meant `tools`).
fn router_name(args: &Parsed, errors: &mut Errors) -> Ident {
    let default = || format_ident!("tool_router");
    let Some(arg) = args.get("router") else {
        return default();
    };
    if let Some(syn::Expr::Path(path)) = arg.value()
        && let Some(name) = path.path.get_ident()
    {
        return name.clone();
    }
    errors.push(syn::Error::new_spanned(
        arg.value()
            .map_or_else(|| arg.to_token_stream(), ToTokens::to_token_stream),
        "`router` names the function to generate: `router = my_router`",
    ));
    match arg.value() {
        Some(syn::Expr::Path(path)) => path
            .path
            .segments
            .last()
            .map_or_else(default, |segment| segment.ident.clone()),
        _ => default(),
    }
}

/// The router function's visibility: `vis = "..."`, else private. A text
/// that is not a visibility is an error, and then `pub`, which no use of
/// the function can fail for.
fn visibility(args: &Parsed, errors: &mut Errors) -> TokenStream {
    let Some(text) = args.get("vis").and_then(|arg| arg.str_value()) else {
        return TokenStream::new();
    };
    match text.parse::<syn::Visibility>() {
        Ok(vis) => vis.into_token_stream(),
        Err(_) => {
            errors.push(syn::Error::new_spanned(
                &text,
                "`vis` is a visibility in quotes: `vis = \"pub\"`, `vis = \"pub(crate)\"`",
            ));
            quote! { pub }
        }
    }
}

/// Moves the tools whose error type is certainly wrong (`#[tool]` reports
/// it) and that rmcp cannot route either (`Result<T, Box<dyn Error>>`,
/// `Result<T, &str>`) out of the block, into an impl block of their own
/// that rmcp's `#[tool_router]` does not read: otherwise its router would
/// fail for them too, with a long message about traits of rmcp's, at the
/// attribute rather than at the error type. Returns that impl block.
///
/// Only what the tokens show for sure is moved: an error type behind an
/// alias, or a type of the user's, stays, and rmcp's error stays with it.
fn set_apart_unroutable(item_impl: &mut ItemImpl) -> Option<TokenStream> {
    if item_impl.trait_.is_some() {
        return None;
    }
    let (apart, kept): (Vec<ImplItem>, Vec<ImplItem>) = std::mem::take(&mut item_impl.items)
        .into_iter()
        .partition(|item| match item {
            ImplItem::Fn(function) => {
                has_tool_attribute(item) && unroutable_error(&function.sig.output)
            }
            _ => false,
        });
    item_impl.items = kept;
    if apart.is_empty() {
        return None;
    }
    let conditions = item_impl
        .attrs
        .iter()
        .filter(|attr| attr.path().is_ident("cfg"));
    let self_ty = &item_impl.self_ty;
    let (impl_generics, _, where_clause) = item_impl.generics.split_for_impl();
    Some(quote! {
        #(#conditions)*
        impl #impl_generics #self_ty #where_clause {
            #(#apart)*
        }
    })
}

/// Whether rmcp's `#[tool_router]` takes the item for a tool: a method with
/// an attribute whose last segment is `tool`.
fn has_tool_attribute(item: &ImplItem) -> bool {
    let ImplItem::Fn(function) = item else {
        return false;
    };
    function.attrs.iter().any(|attr| {
        attr.path()
            .segments
            .last()
            .is_some_and(|segment| segment.ident == "tool")
    })
}

/// Whether the return type is `Result<T, E>` with an `E` that is certainly
/// neither `ToolError` nor an error rmcp can send: a `Box` or a reference.
fn unroutable_error(output: &syn::ReturnType) -> bool {
    let syn::ReturnType::Type(_, ty) = output else {
        return false;
    };
    match crate::tool::error_type(ty) {
        Some(syn::Type::Reference(_)) => true,
        Some(syn::Type::Path(path)) => path
            .path
            .segments
            .last()
            .is_some_and(|segment| segment.ident == "Box"),
        _ => false,
    }
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
    let private = crate::private(Span::call_site());
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
