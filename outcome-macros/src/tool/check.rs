//! Every mistake `#[tool]` can see, reported at once at the user's tokens,
//! and the description settled.

use proc_macro2::TokenStream;

use super::parse::{ToolArgs, ToolFn};
use crate::args::Errors;
use crate::description::{self, Doc};

/// The description `tools/list` sends.
pub(crate) enum Description {
    /// Text known here: the doc comment up to its first heading, or a
    /// `description = "..."` literal.
    Text(String),
    /// `description = <expression>`, computed at run time.
    Expr(syn::Expr),
    /// A doc attribute computed at compile time
    /// (`#[doc = include_str!(..)]`): the whole doc, as one `concat!`.
    Computed(TokenStream),
    /// None: an error says so.
    Missing,
}

/// Checks the method and its arguments, pushing every problem to `errors`.
/// Drops a second `#[tool]` from the method's attributes, so that the
/// compiler does not register the method twice and add errors of its own.
pub(crate) fn method(function: &mut ToolFn, args: &ToolArgs, errors: &mut Errors) -> Description {
    if let Some(constness) = function.sig.constness.take() {
        errors.push(syn::Error::new_spanned(
            constness,
            "a `#[tool]` cannot be a `const fn`; remove `const`",
        ));
    }
    function.attrs.retain(|attr| {
        let path = attr.path();
        let is_tool = path
            .segments
            .last()
            .is_some_and(|segment| segment.ident == "tool");
        if is_tool {
            let message = if path.segments.first().is_some_and(|s| s.ident == "rmcp") {
                "rmcp's `#[tool]` is applied here as well; remove it: \
                 `outcome_runtime::tool` already makes the method a tool"
            } else {
                "`#[tool]` is applied twice to this method; remove one"
            };
            errors.push(syn::Error::new_spanned(attr, message));
        }
        !is_tool
    });
    for error in crate::literals::empty_parts(&function.body) {
        errors.push(error);
    }
    description(function, args, errors)
}

/// The description: an explicit `description = ..`, else the doc comment up
/// to its first heading; a text known here is checked against the rules
/// for model-facing text.
fn description(function: &ToolFn, args: &ToolArgs, errors: &mut Errors) -> Description {
    let check_phrases = !args.allow_failure_phrases;
    if let Some(explicit) = &args.description {
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) = explicit
        else {
            return Description::Expr(explicit.clone());
        };
        for problem in description::check(&text.value(), check_phrases) {
            errors.push(syn::Error::new(text.span(), problem.message()));
        }
        return Description::Text(text.value());
    }
    match description::from_attrs(&function.attrs) {
        Doc::Text(doc) if !doc.summary.is_empty() => {
            for problem in description::check(&doc.summary, check_phrases) {
                errors.push(syn::Error::new(doc.span, problem.message()));
            }
            Description::Text(doc.summary)
        }
        Doc::Computed(whole) => Description::Computed(whole),
        // A misspelled `description` was already reported.
        _ if args.description_misspelled => Description::Missing,
        _ => {
            errors.push(syn::Error::new_spanned(
                &function.sig.ident,
                "this tool has no description: write a doc comment that states what \
                 the tool does and returns (the model reads the text before the first \
                 `# ` heading), or pass `#[tool(description = \"...\")]`",
            ));
            Description::Missing
        }
    }
}
