//! `#[tool_handler]`: rmcp's `#[tool_handler]`, with a `call_tool` that logs
//! every call and a router built once.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Expr, ImplItem, ItemImpl, Type};

use crate::args::{self, Kind};

/// Every argument rmcp's `#[tool_handler]` takes.
const ARGS: &[(&str, Kind)] = &[
    ("router", Kind::Expr),
    ("meta", Kind::Expr),
    ("name", Kind::Str),
    ("version", Kind::Str),
    ("instructions", Kind::Str),
];

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    args::or_item(try_expand(attr, item.clone()), item)
}

fn try_expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let args = args::parse_all("tool_handler", attr, ARGS)?;
    let mut item_impl: ItemImpl = syn::parse2(item)?;
    let router = match args.iter().find(|arg| arg.name == "router") {
        Some(arg) => arg.value().cloned().unwrap_or_else(default_router),
        None => default_router(),
    };
    let (router, cache) = match cached(&router, &item_impl) {
        Some((access, cache)) => (access, cache),
        None => (quote! { (#router) }, TokenStream::new()),
    };
    let forwarded = args.iter().filter(|arg| arg.name != "router");

    let has_call_tool = item_impl
        .items
        .iter()
        .any(|item| matches!(item, ImplItem::Fn(f) if f.sig.ident == "call_tool"));
    if !has_call_tool {
        let rmcp = quote! { ::outcome_runtime::__private::rmcp };
        item_impl.items.push(syn::parse_quote! {
            async fn call_tool(
                &self,
                request: #rmcp::model::CallToolRequestParams,
                context: #rmcp::service::RequestContext<#rmcp::RoleServer>,
            ) -> ::core::result::Result<#rmcp::model::CallToolResponse, #rmcp::ErrorData> {
                ::outcome_runtime::__private::call_tool(self, &#router, request, context).await
            }
        });
    }
    Ok(quote! {
        #cache
        #[::outcome_runtime::__private::rmcp::tool_handler(router = #router, #(#forwarded),*)]
        #item_impl
    })
}

fn default_router() -> Expr {
    syn::parse_quote! { Self::tool_router() }
}

/// A router built by a call without arguments (`Self::tool_router()`), which
/// rmcp's `#[tool_handler]` would build again for every request, is built
/// once into a static instead, shared by `call_tool`, `list_tools` and
/// `get_tool`. Only for a self type without generics: a static cannot depend
/// on them. Returns the expression that reads the router and the item that
/// holds it.
fn cached(router: &Expr, item_impl: &ItemImpl) -> Option<(TokenStream, TokenStream)> {
    // Under `local` a router is not `Sync`, so it cannot live in a static.
    if cfg!(feature = "local") {
        return None;
    }
    let Expr::Call(call) = router else {
        return None;
    };
    if !call.args.is_empty() || !matches!(*call.func, Expr::Path(_)) {
        return None;
    }
    if !item_impl.generics.params.is_empty() || mentions_self(&item_impl.self_ty) {
        return None;
    }
    let self_ty = &item_impl.self_ty;
    let private = quote! { ::outcome_runtime::__private };
    let cache = quote! {
        impl #self_ty {
            #[doc(hidden)]
            fn __outcome_cached_router()
                -> &'static #private::rmcp::handler::server::tool::ToolRouter<Self>
            {
                static ROUTER: #private::OnceLock<
                    #private::rmcp::handler::server::tool::ToolRouter<#self_ty>,
                > = #private::OnceLock::new();
                ROUTER.get_or_init(|| #router)
            }
        }
    };
    Some((quote! { (*Self::__outcome_cached_router()) }, cache))
}

fn mentions_self(ty: &Type) -> bool {
    quote!(#ty)
        .into_iter()
        .any(|token| matches!(token, proc_macro2::TokenTree::Ident(ident) if ident == "Self"))
}
