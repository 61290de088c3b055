//! Every mistake `#[tool]` can see in what was parsed, reported at once at
//! the user's tokens. Reads only: what the expansion leaves out because of
//! a mistake, `parse` has already set aside.

use super::parse::{Description, ToolArgs, ToolFn};
use crate::description;

/// Every problem of the method, its arguments, its description and, unless
/// its router checked them, the texts of its `ToolError`s (which may name
/// `tools`), in the order they are written.
pub(crate) fn tool(
    function: &ToolFn,
    args: &ToolArgs,
    description: &Description,
    tools: Option<&outcome_rules::Tools>,
) -> Vec<syn::Error> {
    let mut errors = Vec::new();
    if let Some(constness) = &function.constness {
        errors.push(syn::Error::new_spanned(
            constness,
            "a `#[tool]` cannot be a `const fn`; remove `const`",
        ));
    }
    for attr in &function.repeated {
        let from_rmcp = attr
            .path()
            .segments
            .first()
            .is_some_and(|segment| segment.ident == "rmcp");
        let message = if from_rmcp {
            "rmcp's `#[tool]` is applied here as well; remove it: \
             `outcome_runtime::tool` already makes the method a tool"
        } else {
            "`#[tool]` is applied twice to this method; remove one"
        };
        errors.push(syn::Error::new_spanned(attr, message));
    }
    if let Some(tools) = tools {
        errors.extend(crate::literals::check(&function.body, tools));
    }
    errors.extend(self::description(function, args, description));
    errors
}

/// A description known here, checked against the rules for model-facing
/// text; or none, which is an error unless a misspelled `description` was
/// reported already.
fn description(function: &ToolFn, args: &ToolArgs, found: &Description) -> Vec<syn::Error> {
    match found {
        Description::Text { text, span } => description::check(text, !args.allow_failure_phrases)
            .into_iter()
            .map(|problem| syn::Error::new(*span, problem.message()))
            .collect(),
        Description::Missing if !args.description_misspelled => {
            vec![syn::Error::new_spanned(
                &function.sig.ident,
                "this tool has no description: write a doc comment that states what \
                 the tool does and returns (the model reads the text before the first \
                 `# ` heading), or pass `#[tool(description = \"...\")]`",
            )]
        }
        _ => Vec::new(),
    }
}
