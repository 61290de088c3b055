//! What `#[tool_router]` writes: the impl block as it came, with the
//! router function and the router check added at its end, and for
//! `server_handler`, a `ServerHandler` impl under this crate's
//! `#[tool_handler]`.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::quote;

use super::parse::{Block, Method, RouterArgs};
use super::wrapped;

/// The expansion, even when the arguments or the block have errors: it goes
/// on with what `parse` made of the arguments.
pub(crate) fn block(args: &RouterArgs, block: &Block) -> TokenStream {
    let router_fn = router_fn(args, block);
    let check = (!block.is_trait_impl())
        .then(|| wrapped::check_every_tool_is_wrapped(&block.methods, &args.router));
    let hidden = crate::tools::mark();
    let mut tokens = with_items(block, &hidden, quote! { #router_fn #check });
    // On a trait impl, `check` reports `server_handler`.
    if args.server_handler && !block.is_trait_impl() {
        let private = crate::private(Span::call_site());
        let router = &args.router;
        let self_ty = &block.header.self_ty;
        // `self_ty` carries its generic arguments already (`Server<T>`).
        let (impl_generics, _, where_clause) = block.header.generics.split_for_impl();
        tokens.extend(quote! {
            #[::outcome_runtime::tool_handler(router = Self::#router())]
            impl #impl_generics #private::rmcp::ServerHandler
                for #self_ty #where_clause {}
        });
    }
    tokens
}

/// The router function: a route for each tool, as rmcp's `#[tool_router]`
/// builds it, the routes marked as inside the boundary (for
/// `testing::assert_wrapped`).
fn router_fn(args: &RouterArgs, block: &Block) -> TokenStream {
    let private = crate::private(Span::call_site());
    // A tool whose error type is certainly wrong is reported by `#[tool]`;
    // it is left out of the router, which would only fail for it again,
    // with a long message about rmcp's traits, at the attribute.
    let routes = block
        .methods
        .iter()
        .filter(|method| method.is_tool() && !unroutable_error(&method.sig.output))
        .map(|method| route(method, &private));
    let RouterArgs { vis, router, .. } = args;
    quote! {
        #vis fn #router() -> #private::rmcp::handler::server::tool::ToolRouter<Self> {
            let router = #private::rmcp::handler::server::tool::ToolRouter::<Self>::new();
            #(#routes)*
            #private::mark_router(router)
        }
    }
}

/// The statement that adds the tool's route.
fn route(method: &Method, private: &TokenStream) -> TokenStream {
    let name = &method.sig.ident;
    let tool_attr = crate::tool::metadata_fn(name);
    let route = quote! { (Self::#tool_attr(), Self::#name) };
    // A method that is not `async` runs whole when its route is called (its
    // future is ready at its first poll), which the request log makes use
    // of; `whole_route` asks the types.
    let route = if method.sig.asyncness.is_none() {
        quote! { #private::whole_route(#route) }
    } else {
        route
    };
    // The author turned the check of the input schema off, and said why.
    let route = match method.unchecked_input() {
        Some(reason) => quote! { #private::unchecked_route(#route, #reason) },
        None => route,
    };
    quote! { let router = router.with_route(#route); }
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

/// The block as written, with the attribute `hidden` after each tool
/// attribute, and `items` added at the end of its body.
fn with_items(block: &Block, hidden: &TokenStream, items: TokenStream) -> TokenStream {
    let mut stream = TokenStream::new();
    let mut after_pound = false;
    for token in block.body.stream() {
        let is_tool = after_pound
            && matches!(&token, TokenTree::Group(group)
                if group.delimiter() == Delimiter::Bracket && is_tool_attribute(group));
        after_pound = matches!(&token, TokenTree::Punct(punct) if punct.as_char() == '#');
        stream.extend([token]);
        if is_tool {
            stream.extend(hidden.clone());
        }
    }
    stream.extend(items);
    let mut body = Group::new(Delimiter::Brace, stream);
    body.set_span(block.body.span());
    let head = &block.head_tokens;
    quote! { #(#head)* #body }
}

/// Whether an attribute's brackets hold a tool attribute: a path whose last
/// name is `tool` (`tool`, `outcome_runtime::tool`), with or without
/// arguments. Only the brackets at the top level of the body are looked
/// at: those are the attributes of the block's items.
fn is_tool_attribute(attribute: &Group) -> bool {
    let tokens: Vec<TokenTree> = attribute.stream().into_iter().collect();
    let path = match tokens.as_slice() {
        [path @ .., TokenTree::Group(arguments)]
            if arguments.delimiter() == Delimiter::Parenthesis =>
        {
            path
        }
        path => path,
    };
    let is_path = path.iter().all(|token| match token {
        TokenTree::Ident(_) => true,
        TokenTree::Punct(punct) => punct.as_char() == ':',
        _ => false,
    });
    is_path && matches!(path.last(), Some(TokenTree::Ident(last)) if last == "tool")
}
