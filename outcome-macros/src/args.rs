//! Attribute arguments: parsed once, checked against the names a macro
//! takes, every problem reported at once.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::discouraged::Speculative;
use syn::parse::{ParseStream, Parser};
use syn::spanned::Spanned;
use syn::{Expr, Lit, Meta, Token};

/// The shape an argument's value must have.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `name = "text"`
    Str,
    /// `name = expression`
    Expr,
    /// `name(...)`
    List,
    /// `name`
    Flag,
    /// `name = true`, `name = false`, or `name` for `true`
    Bool,
}

impl Shape {
    fn example(self, name: &str) -> String {
        match self {
            Shape::Str => format!("`{name} = \"...\"`"),
            Shape::Expr => format!("`{name} = <expression>`"),
            Shape::List => format!("`{name}(...)`"),
            Shape::Flag => format!("`{name}` on its own"),
            Shape::Bool => format!("`{name}`, `{name} = true` or `{name} = false`"),
        }
    }
}

/// One argument, as written.
#[derive(Clone)]
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

impl Arg {
    /// The value of `name = true`, `name = "true"` (as rmcp reads it), or
    /// `name` alone (`true`).
    pub(crate) fn bool_value(&self) -> Option<bool> {
        match &self.meta {
            Meta::Path(_) => Some(true),
            Meta::NameValue(pair) => match &pair.value {
                Expr::Lit(syn::ExprLit {
                    lit: Lit::Bool(value),
                    ..
                }) => Some(value.value),
                Expr::Lit(syn::ExprLit {
                    lit: Lit::Str(text),
                    ..
                }) => text.value().parse().ok(),
                _ => None,
            },
            Meta::List(_) => None,
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
    /// The misspelled arguments whose value has the shape of the argument
    /// they were probably meant to be, renamed to it (and not given
    /// already), for an expansion that goes on after the error as if they
    /// had been spelled right, so that what depends on them still resolves.
    pub(crate) recovered: Vec<Arg>,
}

impl Parsed {
    /// The arguments written correctly, then the recovered ones that none
    /// of those overrides.
    pub(crate) fn all(&self) -> impl Iterator<Item = &Arg> {
        let recovered = self
            .recovered
            .iter()
            .filter(|arg| !self.args.iter().any(|given| given.name == arg.name));
        self.args.iter().chain(recovered)
    }

    /// The argument `name`, written correctly or recovered.
    pub(crate) fn get(&self, name: &str) -> Option<&Arg> {
        self.all().find(|arg| arg.name == name)
    }
}

/// Parses `attr` as the arguments of `what` (`#[tool]`, `annotations(..)`),
/// which takes `allowed`.
/// Unknown names get the closest allowed one; duplicates and values of the
/// wrong shape are errors on their own tokens. Every error goes to `errors`;
/// the arguments that were fine are returned, so the macro can go on and
/// report the item's other problems too.
pub(crate) fn parse(
    what: &str,
    attr: TokenStream,
    allowed: &[(&'static str, Shape)],
    errors: &mut Errors,
) -> Parsed {
    let mut parsed = Parsed {
        args: Vec::new(),
        meant: Vec::new(),
        recovered: Vec::new(),
    };
    let metas = match split.parse2(attr) {
        Ok(metas) => metas,
        Err(error) => {
            errors.push(error);
            return parsed;
        }
    };
    for meta in metas {
        let meta = match meta {
            Ok(meta) => meta,
            Err(unparsed) => {
                errors.push(unparsed.into_error(what, allowed));
                continue;
            }
        };
        let path = meta.path();
        let Some(name) = path.get_ident().map(ToString::to_string) else {
            errors.push(syn::Error::new_spanned(
                path,
                format!("`{what}` takes plain argument names, not paths"),
            ));
            continue;
        };
        let Some(&(_, kind)) = allowed.iter().find(|(known, _)| *known == name) else {
            let closest = closest(&name, allowed);
            parsed.meant.extend(closest);
            errors.push(unknown(what, &name, path.span(), closest, allowed));
            if let Some(known) = closest {
                recover(&mut parsed, meta, known, allowed);
            }
            continue;
        };
        if parsed.args.iter().any(|arg| arg.name == name) {
            errors.push(syn::Error::new_spanned(
                path,
                format!("`{name}` is given twice; keep one"),
            ));
            continue;
        }
        if !shape_fits(&meta, kind) {
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

/// An argument that is not even syntax for one (`vis = pub`), as written.
struct Unparsed {
    tokens: TokenStream,
    error: syn::Error,
    /// Whether the argument parsed and only the comma after it is missing.
    missing_comma: bool,
}

/// The arguments, one by one: one that does not parse is kept as its
/// tokens up to the next comma, and the others are still read, so that
/// every argument's problems are reported together.
fn split(input: ParseStream) -> syn::Result<Vec<Result<Meta, Unparsed>>> {
    let mut metas = Vec::new();
    while !input.is_empty() {
        let fork = input.fork();
        let meta = match fork.parse::<Meta>() {
            Ok(meta) if fork.is_empty() || fork.peek(Token![,]) => {
                input.advance_to(&fork);
                Ok(meta)
            }
            // The argument itself is fine: say what is missing after it.
            Ok(_) => Err((fork.error("expected `,` after the argument"), true)),
            Err(error) => Err((error, false)),
        };
        match meta {
            Ok(meta) => metas.push(Ok(meta)),
            Err((error, missing_comma)) => {
                let mut tokens = TokenStream::new();
                while !input.is_empty() && !input.peek(Token![,]) {
                    tokens.extend([input.parse::<TokenTree>()?]);
                }
                metas.push(Err(Unparsed {
                    tokens,
                    error,
                    missing_comma,
                }));
            }
        }
        if !input.is_empty() {
            input.parse::<Token![,]>()?;
        }
    }
    Ok(metas)
}

impl Unparsed {
    /// The error to report: for an argument that only lacks the comma after
    /// it, the parser's; for a name the macro takes, how its value is
    /// written; for another name, the closest the macro takes.
    fn into_error(self, what: &str, allowed: &[(&'static str, Shape)]) -> syn::Error {
        let Unparsed {
            tokens,
            error,
            missing_comma,
        } = self;
        let first = tokens.clone().into_iter().next();
        let (false, Some(TokenTree::Ident(ident))) = (missing_comma, first) else {
            return error;
        };
        let name = ident.to_string();
        match allowed.iter().find(|(known, _)| *known == name) {
            Some(&(known, kind)) => syn::Error::new_spanned(
                tokens,
                format!("`{known}` is written {}", kind.example(known)),
            ),
            None => {
                let closest = closest(&name, allowed);
                unknown(what, &name, ident.span(), closest, allowed)
            }
        }
    }
}

fn shape_fits(meta: &Meta, kind: Shape) -> bool {
    match (meta, kind) {
        (Meta::Path(_), Shape::Flag) | (Meta::List(_), Shape::List) => true,
        (Meta::NameValue(pair), Shape::Str) => matches!(
            &pair.value,
            Expr::Lit(syn::ExprLit {
                lit: Lit::Str(_),
                ..
            })
        ),
        (Meta::NameValue(_), Shape::Expr) => true,
        (Meta::Path(_), Shape::Bool) => true,
        (Meta::NameValue(pair), Shape::Bool) => match &pair.value {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Bool(_), ..
            }) => true,
            Expr::Lit(syn::ExprLit {
                lit: Lit::Str(text),
                ..
            }) => text.value().parse::<bool>().is_ok(),
            _ => false,
        },
        _ => false,
    }
}

/// Keeps a misspelled argument as the argument `known` it was probably
/// meant to be, if its value fits that one and `known` is not given
/// already.
fn recover(parsed: &mut Parsed, mut meta: Meta, known: &'static str, allowed: &[(&str, Shape)]) {
    let fits = allowed
        .iter()
        .any(|&(name, kind)| name == known && shape_fits(&meta, kind));
    if !fits || parsed.get(known).is_some() {
        return;
    }
    let path = match &mut meta {
        Meta::Path(path) => path,
        Meta::List(list) => &mut list.path,
        Meta::NameValue(pair) => &mut pair.path,
    };
    *path = syn::Ident::new(known, path.span()).into();
    parsed.recovered.push(Arg {
        name: known.to_owned(),
        meta,
    });
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

fn closest(name: &str, allowed: &[(&'static str, Shape)]) -> Option<&'static str> {
    outcome_rules::closest(name, allowed.iter().map(|(known, _)| *known))
}

fn unknown(
    what: &str,
    name: &str,
    span: Span,
    closest: Option<&str>,
    allowed: &[(&str, Shape)],
) -> syn::Error {
    let message = match closest {
        Some(known) => {
            format!("`{what}` has no argument `{name}`; did you mean `{known}`?")
        }
        None => {
            let names: Vec<String> = allowed
                .iter()
                .map(|(known, _)| format!("`{known}`"))
                .collect();
            format!(
                "`{what}` has no argument `{name}`; it takes {}",
                names.join(", ")
            )
        }
    };
    syn::Error::new(span, message)
}

/// Levenshtein distance, by characters.
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

    pub(crate) fn extend(&mut self, errors: impl IntoIterator<Item = syn::Error>) {
        for error in errors {
            self.push(error);
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

    const ROUTER: &[(&str, Shape)] = &[
        ("router", Shape::Expr),
        ("vis", Shape::Str),
        ("allow_empty", Shape::Flag),
    ];

    fn parsed(attr: &str) -> (Parsed, usize) {
        let mut errors = Errors::default();
        let parsed = parse(
            "#[tool_router]",
            attr.parse().expect("lexes"),
            ROUTER,
            &mut errors,
        );
        let count = errors.0.map_or(0, |error| error.into_iter().count());
        (parsed, count)
    }

    #[test]
    fn every_argument_is_read_past_one_that_does_not_parse() {
        let (parsed, errors) = parsed("vis = pub, router = tools, allow_empty");
        assert_eq!(errors, 1);
        let names: Vec<&str> = parsed.all().map(|arg| arg.name.as_str()).collect();
        assert_eq!(names, ["router", "allow_empty"]);
    }

    #[test]
    fn a_misspelled_argument_is_recovered_as_the_closest() {
        let (parsed, errors) = parsed("roter = tools, alow_empty");
        assert_eq!(errors, 2);
        let router = parsed.get("router").and_then(Arg::value);
        assert!(matches!(router, Some(Expr::Path(path)) if path.path.is_ident("tools")));
        assert!(parsed.get("allow_empty").is_some());
    }

    #[test]
    fn an_argument_given_correctly_wins_over_a_recovered_one() {
        let (parsed, errors) = parsed("roter = misspelled, router = given");
        assert_eq!(errors, 1);
        let router = parsed.get("router").and_then(Arg::value);
        assert!(matches!(router, Some(Expr::Path(path)) if path.path.is_ident("given")));
        assert_eq!(parsed.all().count(), 1);
    }

    #[test]
    fn a_misspelled_argument_of_the_wrong_shape_is_not_recovered() {
        let (parsed, errors) = parsed("roter(tools), vs = 1");
        assert_eq!(errors, 2);
        assert!(parsed.all().next().is_none());
    }
}
