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

/// Parses `attr` as arguments of `macro_name`, which takes `allowed`.
/// Unknown names get the closest allowed one; duplicates and values of the
/// wrong shape are errors on their own tokens. All errors are combined.
pub(crate) fn parse(
    macro_name: &str,
    attr: TokenStream,
    allowed: &[(&str, Kind)],
) -> syn::Result<Vec<Arg>> {
    let metas = Punctuated::<Meta, Token![,]>::parse_terminated.parse2(attr)?;
    let mut args: Vec<Arg> = Vec::new();
    let mut errors = Errors::default();
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
            errors.push(unknown(macro_name, &name, path.span(), allowed));
            continue;
        };
        if args.iter().any(|arg| arg.name == name) {
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
        args.push(Arg { name, meta });
    }
    errors.finish()?;
    Ok(args)
}

fn unknown(macro_name: &str, name: &str, span: Span, allowed: &[(&str, Kind)]) -> syn::Error {
    let closest = allowed
        .iter()
        .map(|(known, _)| (edit_distance(name, known), *known))
        .filter(|(distance, known)| *distance <= known.len().max(name.len()) / 2 + 1)
        .min();
    let names: Vec<String> = allowed
        .iter()
        .map(|(known, _)| format!("`{known}`"))
        .collect();
    let message = match closest {
        Some((_, known)) => {
            format!("`#[{macro_name}]` has no argument `{name}`; did you mean `{known}`?")
        }
        None => format!(
            "`#[{macro_name}]` has no argument `{name}`; it takes {}",
            names.join(", ")
        ),
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
