//! Attribute arguments: parsed once, checked against the names a macro
//! takes, every problem reported at once.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Lit, Meta, Token};

/// The shape an argument's value must have.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `name = "text"`
    Str,
    /// `name = expression`
    Expr,
    /// `name(...)`
    List,
    /// `name`
    Flag,
}

impl Kind {
    fn example(self, name: &str) -> String {
        match self {
            Kind::Str => format!("`{name} = \"...\"`"),
            Kind::Expr => format!("`{name} = <expression>`"),
            Kind::List => format!("`{name}(...)`"),
            Kind::Flag => format!("`{name}` on its own"),
        }
    }
}

/// One argument, as written.
pub(crate) struct Arg {
    pub(crate) name: String,
    pub(crate) meta: Meta,
}

impl Arg {
    /// The value of `name = value`.
    pub(crate) fn value(&self) -> Option<&Expr> {
        match &self.meta {
            Meta::NameValue(pair) => Some(&pair.value),
            _ => None,
        }
    }

    /// The text of `name = "text"`.
    pub(crate) fn str_value(&self) -> Option<syn::LitStr> {
        match self.value()? {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Str(text),
                ..
            }) => Some(text.clone()),
            _ => None,
        }
    }
}

impl ToTokens for Arg {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.meta.to_tokens(tokens);
    }
}

/// The arguments of one attribute: those written correctly, and the names
/// the others were probably meant to be.
pub(crate) struct Parsed {
    pub(crate) args: Vec<Arg>,
    /// For each misspelled argument, the allowed name closest to it.
    pub(crate) meant: Vec<&'static str>,
}

/// Parses `attr` as arguments of `macro_name`, which takes `allowed`.
/// Unknown names get the closest allowed one; duplicates and values of the
/// wrong shape are errors on their own tokens. Every error goes to `errors`;
/// the arguments that were fine are returned, so the macro can go on and
/// report the item's other problems too.
pub(crate) fn parse(
    macro_name: &str,
    attr: TokenStream,
    allowed: &[(&'static str, Kind)],
    errors: &mut Errors,
) -> Parsed {
    let mut parsed = Parsed {
        args: Vec::new(),
        meant: Vec::new(),
    };
    let metas = match Punctuated::<Meta, Token![,]>::parse_terminated.parse2(attr) {
        Ok(metas) => metas,
        Err(error) => {
            errors.push(error);
            return parsed;
        }
    };
    for meta in metas {
        let path = meta.path();
        let Some(name) = path.get_ident().map(ToString::to_string) else {
            errors.push(syn::Error::new_spanned(
                path,
                format!("`#[{macro_name}]` takes plain argument names, not paths"),
            ));
            continue;
        };
        let Some(&(_, kind)) = allowed.iter().find(|(known, _)| *known == name) else {
            let closest = closest(&name, allowed);
            parsed.meant.extend(closest);
            errors.push(unknown(macro_name, &name, path.span(), closest, allowed));
            continue;
        };
        if parsed.args.iter().any(|arg| arg.name == name) {
            errors.push(syn::Error::new_spanned(
                path,
                format!("`{name}` is given twice; keep one"),
            ));
            continue;
        }
        let shape_ok = match (&meta, kind) {
            (Meta::Path(_), Kind::Flag) | (Meta::List(_), Kind::List) => true,
            (Meta::NameValue(pair), Kind::Str) => matches!(
                &pair.value,
                Expr::Lit(syn::ExprLit {
                    lit: Lit::Str(_),
                    ..
                })
            ),
            (Meta::NameValue(_), Kind::Expr) => true,
            _ => false,
        };
        if !shape_ok {
            errors.push(syn::Error::new_spanned(
                &meta,
                format!("`{name}` is written {}", kind.example(&name)),
            ));
            continue;
        }
        parsed.args.push(Arg { name, meta });
    }
    parsed
}

/// [`parse`], for a macro that stops at the first problem of its arguments.
pub(crate) fn parse_all(
    macro_name: &str,
    attr: TokenStream,
    allowed: &[(&'static str, Kind)],
) -> syn::Result<Vec<Arg>> {
    let mut errors = Errors::default();
    let parsed = parse(macro_name, attr, allowed, &mut errors);
    errors.finish()?;
    Ok(parsed.args)
}

/// The expansion, or the errors followed by the item as it was written, so
/// that one mistake does not turn into errors about everything the item
/// defines.
pub(crate) fn or_item(expansion: syn::Result<TokenStream>, item: TokenStream) -> TokenStream {
    match expansion {
        Ok(tokens) => tokens,
        Err(error) => {
            let error = error.into_compile_error();
            quote::quote! { #error #item }
        }
    }
}

fn closest(name: &str, allowed: &[(&'static str, Kind)]) -> Option<&'static str> {
    allowed
        .iter()
        .map(|(known, _)| (edit_distance(name, known), *known))
        .filter(|(distance, known)| *distance <= known.len().max(name.len()) / 3 + 1)
        .min()
        .map(|(_, known)| known)
}

fn unknown(
    macro_name: &str,
    name: &str,
    span: Span,
    closest: Option<&str>,
    allowed: &[(&str, Kind)],
) -> syn::Error {
    let message = match closest {
        Some(known) => {
            format!("`#[{macro_name}]` has no argument `{name}`; did you mean `{known}`?")
        }
        None => {
            let names: Vec<String> = allowed
                .iter()
                .map(|(known, _)| format!("`{known}`"))
                .collect();
            format!(
                "`#[{macro_name}]` has no argument `{name}`; it takes {}",
                names.join(", ")
            )
        }
    };
    syn::Error::new(span, message)
}

/// Levenshtein distance, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

/// Collects errors to report together.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(first) => first.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub(crate) fn finish(self) -> syn::Result<()> {
        match self.0 {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    pub(crate) fn into_compile_error(self) -> TokenStream {
        self.0
            .map(syn::Error::into_compile_error)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_edits() {
        assert_eq!(edit_distance("descripton", "description"), 1);
        assert_eq!(edit_distance("", "name"), 4);
        assert_eq!(edit_distance("title", "title"), 0);
    }
}
