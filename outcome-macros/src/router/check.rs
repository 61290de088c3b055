//! Every mistake `#[tool_router]` can see in its arguments and the impl
//! block, reported at once at the user's tokens. Reads only.
//!
//! Whether each tool is inside the boundary cannot be seen here (an
//! attribute does not say which macro it names); the router check in
//! `wrapped` leaves that to the compiler.

use super::parse::{Block, RouterArgs};

/// Every problem of the router's arguments against its block.
pub(crate) fn router(args: &RouterArgs, block: &Block) -> Vec<syn::Error> {
    let mut errors = Vec::new();
    if !args.allow_empty && !block.methods.iter().any(|method| method.is_tool()) {
        let router = &args.router;
        errors.push(syn::Error::new_spanned(
            &block.header.self_ty,
            format!(
                "`#[tool_router]` found no `#[tool]` method in this impl block, so \
                 `Self::{router}()` would serve no tools; add `allow_empty` if that is meant"
            ),
        ));
    }
    if args.server_handler
        && let Some((trait_path, _)) = &block.header.trait_
    {
        errors.push(syn::Error::new_spanned(
            trait_path,
            "`server_handler` goes on an inherent impl block (`impl MyServer { .. }`)",
        ));
    }
    // The texts of every method, against every tool of the server, once
    // here rather than by each `#[tool]` with the whole list: a tool's may
    // call it "again"; a helper's (that the tools call) answer no tool.
    // The rules' list is built once, not once per method: a block of
    // ten thousand tools is checked in time linear in them.
    let mut tools = block.tools(args).rules(None);
    for method in &block.methods {
        if let Some(body) = &method.body {
            tools.set_answering(method.is_tool().then(|| method.tool_name()));
            errors.extend(crate::literals::check(body, &tools));
        }
    }
    errors
}
