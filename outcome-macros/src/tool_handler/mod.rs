//! `#[tool_handler]`: what rmcp's `#[tool_handler]` adds to a
//! `ServerHandler` impl, built here, with a `call_tool` that logs every call
//! and a router built once.
//!
//! Three steps, one file each: [`parse`] reads the arguments and the impl,
//! [`check`] finds every mistake in them without changing them, and
//! [`expand`] writes the impl with the methods it lacks.

mod check;
mod expand;
mod parse;

use proc_macro2::TokenStream;
use quote::quote;

use crate::args::Errors;

/// The expansion of `#[tool_handler(attr)]` on `item`, with every error of
/// the arguments and the impl at once; an item that is not an impl, or not
/// a trait's, comes back as written, after the errors.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let args = parse::HandlerArgs::read(attr, &mut errors);
    // The impl's header and each method's signature, every body left as
    // tokens, as the router reads its block: no body is parsed.
    let expansion = match crate::router::Block::parse(&item) {
        Ok(block) => {
            let problems = check::tool_handler(&block.header);
            if problems.is_empty() {
                expand::tool_handler(&args, &block)
            } else {
                errors.extend(problems);
                item
            }
        }
        Err(error) => {
            errors.push(error);
            item
        }
    };
    let errors = errors.into_compile_error();
    quote! { #errors #expansion }
}
