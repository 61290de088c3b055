//! placeholder
use proc_macro::TokenStream;
#[proc_macro_attribute]
pub fn tool(_a: TokenStream, i: TokenStream) -> TokenStream { i }
#[proc_macro_attribute]
pub fn tool_router(_a: TokenStream, i: TokenStream) -> TokenStream { i }
#[proc_macro_attribute]
pub fn tool_handler(_a: TokenStream, i: TokenStream) -> TokenStream { i }
