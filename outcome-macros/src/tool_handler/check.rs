//! Every mistake `#[tool_handler]` can see in the impl it is on. Reads
//! only.

use syn::ItemImpl;

/// An impl that is not of a trait: the methods `#[tool_handler]` writes
/// would be the type's own, which rmcp never calls, and every tool call
/// would answer "method not found".
pub(crate) fn tool_handler(item_impl: &ItemImpl) -> Vec<syn::Error> {
    if item_impl.trait_.is_some() {
        return Vec::new();
    }
    vec![syn::Error::new_spanned(
        &item_impl.self_ty,
        "`#[tool_handler]` goes on the impl of `ServerHandler`: \
         `impl ServerHandler for MyServer { .. }`",
    )]
}
