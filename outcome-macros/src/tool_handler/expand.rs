//! What `#[tool_handler]` writes: the `ServerHandler` impl with each
//! method rmcp's `#[tool_handler]` adds that the impl lacks, and the router
//! built once.

use proc_macro2::{Delimiter, Group, Span, TokenStream};
use quote::quote;
use syn::{Expr, ItemImpl, Type};

use crate::router::Block;

use super::parse::HandlerArgs;

/// The impl, with what rmcp's `#[tool_handler]` adds, built here so that
/// rmcp's macros need not be compiled at all: `call_tool` (ours, which
/// logs), `list_tools`, `get_tool`, `on_custom_request` (a malformed
/// `tools/call` gets its log line) and `get_info`, each unless the impl has
/// its own. The methods are written as tokens, never parsed.
pub(crate) fn tool_handler(args: &HandlerArgs, block: &Block) -> TokenStream {
    let item_impl = &block.header;
    let private = crate::private(Span::call_site());
    let rmcp = quote! { #private::rmcp };
    let router = &args.router;
    let (router, cache) = match cached(router, item_impl) {
        Some(cache) => (
            quote! { (*Self::__outcome_cached_router().tools()) },
            Some(cache),
        ),
        None => (quote! { (#router) }, None),
    };
    let has = |name: &str| block.methods.iter().any(|method| method.sig.ident == name);

    let mut methods = TokenStream::new();
    if !has("call_tool") {
        let call_tool = if cache.is_some() {
            // The call's future itself, with no `async fn` around it to
            // hold the request a second time: the router lives in a static.
            quote! {
                fn call_tool(
                    &self,
                    request: #rmcp::model::CallToolRequestParams,
                    context: #rmcp::service::RequestContext<#rmcp::RoleServer>,
                ) -> impl ::core::future::Future<
                    Output = ::core::result::Result<
                        #rmcp::model::CallToolResponse,
                        #rmcp::ErrorData,
                    >,
                > + #rmcp::service::MaybeSendFuture + '_ {
                    #private::call_routes(self, Self::__outcome_cached_router(), request, context)
                }
            }
        } else {
            // The router expression may make a value the call borrows,
            // which lives in the `async fn`'s future.
            quote! {
                async fn call_tool(
                    &self,
                    request: #rmcp::model::CallToolRequestParams,
                    context: #rmcp::service::RequestContext<#rmcp::RoleServer>,
                ) -> ::core::result::Result<#rmcp::model::CallToolResponse, #rmcp::ErrorData> {
                    #private::call_tool(self, &#router, request, context).await
                }
            }
        };
        methods.extend(call_tool);
    }
    if !has("list_tools") {
        let meta = match &args.meta {
            Some(meta) => quote! { ::core::option::Option::Some(#meta) },
            None => quote! { ::core::option::Option::None },
        };
        methods.extend(quote! {
            async fn list_tools(
                &self,
                _request: ::core::option::Option<#rmcp::model::PaginatedRequestParams>,
                context: #rmcp::service::RequestContext<#rmcp::RoleServer>,
            ) -> ::core::result::Result<#rmcp::model::ListToolsResult, #rmcp::ErrorData> {
                #private::list_tools(#router.list_all(), #meta, &context)
            }
        });
    }
    if !has("get_tool") {
        methods.extend(quote! {
            fn get_tool(&self, name: &str) -> ::core::option::Option<#rmcp::model::Tool> {
                #router.get(name).cloned()
            }
        });
    }
    if !has("on_custom_request") {
        // rmcp hands a `tools/call` whose params it cannot read here, and
        // its default would answer "method not found" and log nothing.
        methods.extend(quote! {
            fn on_custom_request(
                &self,
                request: #rmcp::model::CustomRequest,
                context: #rmcp::service::RequestContext<#rmcp::RoleServer>,
            ) -> impl ::core::future::Future<
                Output = ::core::result::Result<#rmcp::model::CustomResult, #rmcp::ErrorData>,
            > + #rmcp::service::MaybeSendFuture + '_ {
                #private::custom_request(request, context)
            }
        });
    }
    if !has("get_info") {
        // The server's name and version as rmcp's macro takes them: from
        // the arguments, else from the crate that holds the impl.
        let name = match &args.name {
            Some(name) => quote! { #name },
            None => quote! { ::core::env!("CARGO_CRATE_NAME") },
        };
        let version = match &args.version {
            Some(version) => quote! { #version },
            None => quote! { ::core::env!("CARGO_PKG_VERSION") },
        };
        let instructions = match &args.instructions {
            Some(instructions) => quote! { ::core::option::Option::Some(#instructions) },
            None => quote! { ::core::option::Option::None },
        };
        // rmcp's `#[prompt_handler]` on the same impl leaves `get_info` to
        // `#[tool_handler]`, whose `get_info` then declares prompts too.
        let prompts = item_impl.attrs.iter().any(|attr| {
            attr.path()
                .segments
                .last()
                .is_some_and(|segment| segment.ident == "prompt_handler")
        });
        methods.extend(quote! {
            fn get_info(&self) -> #rmcp::model::ServerConfig {
                #private::server_info(#name, #version, #instructions, #prompts)
            }
        });
    }
    // The impl as written, with the methods added at the end of its body.
    let mut body = Group::new(Delimiter::Brace, {
        let mut stream = block.body.stream();
        stream.extend(methods);
        stream
    });
    body.set_span(block.body.span());
    let head = &block.head_tokens;
    let cache = cache.unwrap_or_default();
    quote! {
        #cache
        #(#head)* #body
    }
}

/// A router built by a call without arguments (`Self::tool_router()`), which
/// rmcp's `#[tool_handler]` would build again for every request, is built
/// once into a static instead, shared by `call_tool`, `list_tools` and
/// `get_tool`. Only for a self type without generics: a static cannot depend
/// on them. The static keeps, with the router, which of its tools run their
/// body whole when they are called (see `whole_route`). Returns the item
/// that holds it.
fn cached(router: &Expr, item_impl: &ItemImpl) -> Option<TokenStream> {
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
    let private = crate::private(Span::call_site());
    let cache = quote! {
        impl #self_ty {
            #[doc(hidden)]
            #[allow(dead_code)]
            fn __outcome_cached_router() -> &'static #private::Routes<Self> {
                static ROUTER: #private::RouterCell<#self_ty> = #private::router_cell();
                ROUTER.get_or_init(|| #private::Routes::new(#router))
            }
        }
    };
    Some(cache)
}

fn mentions_self(ty: &Type) -> bool {
    quote!(#ty)
        .into_iter()
        .any(|token| matches!(token, proc_macro2::TokenTree::Ident(ident) if ident == "Self"))
}
