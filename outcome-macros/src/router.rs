//! `#[tool_router]`: rmcp's `#[tool_router]`, whose `server_handler` form
//! uses this crate's `#[tool_handler]`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::ItemImpl;

use crate::args::{self, Kind};

/// Every argument rmcp's `#[tool_router]` takes.
const ARGS: &[(&str, Kind)] = &[
    ("router", Kind::Expr),
    ("vis", Kind::Str),
    ("server_handler", Kind::Flag),
    ("allow_empty", Kind::Flag),
];

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    match try_expand(attr, item.clone()) {
        Ok(tokens) => tokens,
        Err(error) => {
            let error = error.into_compile_error();
            quote! { #error #item }
        }
    }
}

fn try_expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let args = args::parse("tool_router", attr, ARGS)?;
    let item_impl: ItemImpl = syn::parse2(item)?;
    let server_handler = args.iter().find(|arg| arg.name == "server_handler");
    let forwarded = args.iter().filter(|arg| arg.name != "server_handler");
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

    let mut tokens = quote! {
        #[::outcome_runtime::__private::rmcp::tool_router(#(#forwarded),*)]
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
