//! Procedural macros of `outcome-runtime`. Depend on `outcome-runtime`,
//! which re-exports them with their documentation; this crate is an
//! implementation detail.

mod args;
mod description;
mod handler;
mod router;
mod tool;

use proc_macro::TokenStream;

/// rmcp's `#[tool]`, with the body inside the outcome boundary.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand(attr.into(), item.into()).into()
}

/// rmcp's `#[tool_router]`.
#[proc_macro_attribute]
pub fn tool_router(attr: TokenStream, item: TokenStream) -> TokenStream {
    router::expand(attr.into(), item.into()).into()
}

/// rmcp's `#[tool_handler]`, with request logging.
#[proc_macro_attribute]
pub fn tool_handler(attr: TokenStream, item: TokenStream) -> TokenStream {
    handler::expand(attr.into(), item.into()).into()
}
