//! What `#[tool_handler]` reads: the arguments, typed, and the
//! `ServerHandler` impl.

use proc_macro2::TokenStream;
use syn::{Expr, LitStr};

use crate::args::{self, Arg, Errors, Shape};

/// Every argument rmcp's `#[tool_handler]` takes.
const ARGS: &[(&str, Shape)] = &[
    ("router", Shape::Expr),
    ("meta", Shape::Expr),
    ("name", Shape::Str),
    ("version", Shape::Str),
    ("instructions", Shape::Str),
];

/// The arguments of `#[tool_handler(..)]`: those that were fine, and the
/// misspelled ones as what they were most likely meant to be, so that an
/// argument error does not also cost the impl its `call_tool` and tool
/// listing.
pub(crate) struct HandlerArgs {
    /// `router = <expression>`, else `Self::tool_router()`.
    pub(crate) router: Expr,
    /// `meta = <expression>`, the `_meta` of `tools/list`.
    pub(crate) meta: Option<Expr>,
    /// The server's name, version and instructions for `initialize`.
    pub(crate) name: Option<LitStr>,
    pub(crate) version: Option<LitStr>,
    pub(crate) instructions: Option<LitStr>,
}

impl HandlerArgs {
    pub(crate) fn read(attr: TokenStream, errors: &mut Errors) -> HandlerArgs {
        let parsed = args::parse("#[tool_handler]", attr, ARGS, errors);
        let text = |name: &str| parsed.get(name).and_then(Arg::str_value);
        HandlerArgs {
            router: parsed
                .get("router")
                .and_then(Arg::value)
                .cloned()
                .unwrap_or_else(|| syn::parse_quote! { Self::tool_router() }),
            meta: parsed.get("meta").and_then(Arg::value).cloned(),
            name: text("name"),
            version: text("version"),
            instructions: text("instructions"),
        }
    }
}
