//! `#[tool]`: a method made an MCP tool with its body inside the boundary.
//!
//! Three steps, one file each: [`parse`] reads the method, the arguments
//! and the description, [`check`] finds every mistake in them without
//! changing them, and [`expand`] and [`metadata`] write the method and the
//! `Tool` value rmcp's router lists. The body is never parsed: it stays
//! tokens.

mod check;
mod expand;
mod metadata;
mod parse;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

use crate::args::{self, Errors};

pub(crate) use expand::error_type;
pub(crate) use parse::{is_tool_attribute, without_body};

/// `<method>_tool_attr`: the associated function that returns the tool's
/// metadata, under the name rmcp's `#[tool]` gives it, by which rmcp's
/// `#[tool_router]` calls it, and ours too.
pub(crate) fn metadata_fn(method: &Ident) -> Ident {
    format_ident!("{}_tool_attr", method)
}

/// `__outcome_wrapped_<method>`: the marker that proves to the router check
/// that `#[tool]` wrapped the method.
pub(crate) fn marker_fn(method: &Ident) -> Ident {
    format_ident!("__outcome_wrapped_{}", method)
}

/// The expansion of `#[tool(attr)]` on `item`; with every error of the
/// arguments and the method at once, and the method still expanded so that
/// the router and the impl's other code resolve.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut function = match parse::method(&item) {
        Ok(function) => function,
        Err(error) => return args::or_item(Err(error), item),
    };
    // Inside a router, the router has checked the texts against the
    // server's tools, and says so in a mark; outside one, no tool but this
    // one is known.
    let checked = crate::tools::take_mark(&mut function.attrs);
    let mut errors = Errors::default();
    let args = parse::ToolArgs::read(attr, &mut errors);
    let description = parse::Description::read(&function, &args);
    let own = metadata::wire_name(&function, &args);
    let tools = (!checked).then(|| outcome_rules::Tools::unknown().answering(own));
    errors.extend(check::tool(&function, &args, &description, tools.as_ref()));
    let metadata = metadata::tool_attr(&function, &args, &description);
    let method = expand::method(&function, &args, &description);
    let errors = errors.into_compile_error();
    quote! { #errors #metadata #method }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use proc_macro2::{Delimiter, TokenStream, TokenTree};

    /// The runtime's documentation of `#[tool]`, whose "Expansion" section
    /// shows what the macro generates.
    ///
    /// Read when the test runs, not compiled in: the file belongs to the
    /// runtime crate, and a packaged copy of this crate has no runtime
    /// beside it to compile it from. In the workspace the runtime is beside
    /// this crate, and then the file must be there: `None` only when the
    /// runtime is not (a packaged copy), never because the file moved.
    fn docs() -> Option<String> {
        let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../outcome-runtime");
        if !runtime.join("Cargo.toml").is_file() {
            return None;
        }
        let path = runtime.join("src/docs/tool.md");
        let docs = std::fs::read_to_string(&path).unwrap_or_else(|error| {
            panic!(
                "the runtime's docs of `#[tool]` ({}) are not where this test reads \
                 them: {error}",
                path.display()
            )
        });
        Some(docs)
    }

    /// The `text` code blocks of the "Expansion" section, in order.
    fn expansion_blocks(docs: &str) -> Vec<&str> {
        let section = docs
            .split_once("\n# Expansion\n")
            .expect("the docs have an Expansion section")
            .1;
        section
            .split("```text\n")
            .skip(1)
            .map(|block| block.split_once("```").expect("the block is closed").0)
            .collect()
    }

    /// The item as the macro receives it: without the `#[tool]` itself.
    fn without_tool_attribute(input: &str) -> TokenStream {
        let tokens: Vec<TokenTree> = input
            .parse::<TokenStream>()
            .expect("the input lexes")
            .into_iter()
            .collect();
        let mut item = Vec::new();
        let mut rest = tokens.as_slice();
        while let [first, tail @ ..] = rest {
            if let (TokenTree::Punct(pound), [TokenTree::Group(group), after @ ..]) = (first, tail)
                && pound.as_char() == '#'
                && group.delimiter() == Delimiter::Bracket
                && group.stream().to_string() == "tool"
            {
                rest = after;
                continue;
            }
            item.push(first.clone());
            rest = tail;
        }
        item.into_iter().collect()
    }

    /// The tokens, one space between each, so that how the docs lay them
    /// out (line breaks, `>>` written joined) does not count.
    fn spaced(tokens: TokenStream) -> String {
        let mut text = String::new();
        for token in tokens {
            match token {
                TokenTree::Group(group) => {
                    let (open, close) = match group.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::None => ("", ""),
                    };
                    text += &format!("{open} {} {close} ", spaced(group.stream()));
                }
                other => text += &format!("{other} "),
            }
        }
        text
    }

    fn assert_expands_to(input: &str, expected: &str) {
        let actual = super::expand(TokenStream::new(), without_tool_attribute(input));
        let expected: TokenStream = expected.parse().expect("the expansion lexes");
        assert_eq!(
            spaced(actual),
            spaced(expected),
            "the Expansion section of docs/tool.md no longer shows what `#[tool]` \
             generates; update it"
        );
    }

    #[test]
    fn the_documented_expansion_is_the_real_one() {
        let Some(docs) = docs() else {
            eprintln!(
                "outcome-runtime is not beside this crate: its documented expansion is not checked"
            );
            return;
        };
        let blocks = expansion_blocks(&docs);
        let [
            sync_input,
            metadata,
            marker,
            method,
            async_input,
            async_output,
        ] = blocks[..]
        else {
            panic!(
                "the Expansion section has six text blocks, not {}",
                blocks.len()
            );
        };
        assert_expands_to(sync_input, &[metadata, marker, method].concat());
        assert_expands_to(async_input, async_output);
    }
}
