//! `#[tool_router]`: the router of an impl block's `#[tool]` methods, built
//! as rmcp's `#[tool_router]` builds it, with the router check; its
//! `server_handler` form uses this crate's `#[tool_handler]`.
//!
//! Three steps, one file each: [`parse`] reads the arguments and the impl
//! block, [`check`] finds every mistake in them without changing them, and
//! [`expand`] writes the block back with the router function, and
//! [`wrapped`] the router check. No method body is parsed.

mod check;
mod expand;
mod parse;
mod wrapped;

use proc_macro2::TokenStream;
use quote::quote;

use crate::args::Errors;

pub(crate) use parse::Block;

/// The expansion of `#[tool_router(attr)]` on `item`, with every error of
/// the arguments and the block at once; an item that is not an impl block
/// comes back as written, after the errors.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let args = parse::RouterArgs::read(attr, &mut errors);
    let expansion = match parse::Block::parse(&item) {
        Ok(block) => {
            errors.extend(check::router(&args, &block));
            expand::block(&args, &block)
        }
        Err(error) => {
            errors.push(error);
            item
        }
    };
    let errors = errors.into_compile_error();
    quote! { #errors #expansion }
}
