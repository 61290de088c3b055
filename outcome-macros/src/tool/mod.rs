//! `#[tool]`: a method made an MCP tool with its body inside the boundary.
//!
//! Three steps, one file each: [`parse`] reads the method and the
//! arguments, [`check`] finds every mistake and settles the description,
//! and [`expand`] and [`metadata`] write the method and the `Tool` value
//! rmcp's router lists. The body is never parsed: it stays tokens.

mod check;
mod expand;
mod metadata;
mod parse;

use proc_macro2::TokenStream;
use quote::quote;

use crate::args::{self, Errors};

pub(crate) use expand::error_type;

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut function = match parse::method(&item) {
        Ok(function) => function,
        Err(error) => return args::or_item(Err(error), item),
    };
    let mut errors = Errors::default();
    let args = parse::ToolArgs::read(attr, &mut errors);
    let description = check::method(&mut function, &args, &mut errors);
    let metadata = metadata::tool_attr(&function, &args, &description);
    let method = expand::method(&function, &args, &description);
    let errors = errors.into_compile_error();
    quote! { #errors #metadata #method }
}
