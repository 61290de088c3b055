//! What `#[tool]` reads: the method, its body kept as tokens, the
//! arguments, typed, and the description they and the doc comment give.
//! Nothing here judges the method; `check` does.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::parse::{Parse, ParseStream, Parser};
use syn::{Attribute, Expr, LitStr, Meta, Signature, Token, Visibility};

use crate::args::{self, Errors, Shape};
use crate::description::{self, Doc};

/// A method as `#[tool]` needs it: the body stays unparsed tokens, so a body
/// with a syntax error still expands and rustc reports the real error, and
/// no body costs a parse.
pub(crate) struct ToolFn {
    /// The method's attributes, but for a second tool attribute.
    pub(crate) attrs: Vec<Attribute>,
    /// Every attribute besides this one whose last segment is `tool`
    /// (`#[tool]` twice, or rmcp's as well): kept off the method, so that
    /// rmcp's router does not register it twice and add errors of its own.
    pub(crate) repeated: Vec<Attribute>,
    pub(crate) vis: Visibility,
    pub(crate) defaultness: Option<Token![default]>,
    /// A `const` before `fn`, which a tool cannot be: kept off the
    /// signature, so that it is reported once, by `check`.
    pub(crate) constness: Option<Token![const]>,
    /// The signature, without `const`.
    pub(crate) sig: Signature,
    /// The body's attributes (`#![allow(..)]`), as outer attributes: the
    /// closure or async block the body moves into cannot carry them, and
    /// on the method they mean the same.
    pub(crate) inner_attrs: Vec<Attribute>,
    /// The body, without its inner attributes.
    pub(crate) body: TokenTree,
}

impl Parse for ToolFn {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let (repeated, attrs) = input
            .call(Attribute::parse_outer)?
            .into_iter()
            .partition(is_tool_attribute);
        let vis = input.parse()?;
        let defaultness = input.parse()?;
        let mut sig: Signature = input.parse()?;
        if !input.peek(syn::token::Brace) {
            return Err(input.error("a `#[tool]` method needs a body"));
        }
        // The body as `method` hands it over: its braces only, the tokens
        // put back after the parse, so that syn never reads them.
        let body: TokenTree = input.parse()?;
        let (inner_attrs, body) = (Vec::new(), body);
        Ok(ToolFn {
            attrs,
            repeated,
            vis,
            defaultness,
            constness: sig.constness.take(),
            sig,
            inner_attrs,
            body,
        })
    }
}

/// Whether the attribute is a tool macro's: its last segment is `tool`, as
/// rmcp's `#[tool_router]` decides it.
pub(crate) fn is_tool_attribute(attr: &Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|segment| segment.ident == "tool")
}

/// The method, or an error: the parser's own for something that is a
/// function, else one that says where `#[tool]` goes.
///
/// The body is taken off before syn reads the item, and put back after:
/// syn reads every token it is given, by recursion, and a body may nest
/// deeper than the macro's stack goes.
pub(crate) fn method(item: &TokenStream) -> syn::Result<ToolFn> {
    let (head, body) = without_body(item);
    let mut function = syn::parse2::<ToolFn>(head.clone()).map_err(|error| {
        if looks_like_fn(&head) {
            error
        } else {
            syn::Error::new(
                item_keyword_span(&head),
                "`#[tool]` goes on a method in an `impl` block that `#[tool_router]` reads",
            )
        }
    })?;
    if let Some(body) = body {
        (function.inner_attrs, function.body) = split_inner_attributes(body);
    }
    Ok(function)
}

/// The item with its last token, if that is a brace group (a body),
/// replaced by empty braces of the same span; and that body.
pub(crate) fn without_body(item: &TokenStream) -> (TokenStream, Option<TokenTree>) {
    let mut tokens: Vec<TokenTree> = item.clone().into_iter().collect();
    let body = match tokens.last() {
        Some(TokenTree::Group(group)) if group.delimiter() == proc_macro2::Delimiter::Brace => {
            tokens.pop()
        }
        _ => None,
    };
    if let Some(body) = &body {
        let mut empty = proc_macro2::Group::new(proc_macro2::Delimiter::Brace, TokenStream::new());
        empty.set_span(body.span());
        tokens.push(TokenTree::Group(empty));
    }
    (tokens.into_iter().collect(), body)
}

/// Takes the inner attributes off the front of a body, with syn's own
/// parser for them; a body they do not parse in is left whole, for rustc to
/// report. Only the attributes' tokens (`#![..]`, one after another) are
/// given to syn, never the rest of the body.
fn split_inner_attributes(body: TokenTree) -> (Vec<Attribute>, TokenTree) {
    let TokenTree::Group(group) = &body else {
        return (Vec::new(), body);
    };
    let tokens: Vec<TokenTree> = group.stream().into_iter().collect();
    let mut end = 0;
    while let [
        TokenTree::Punct(pound),
        TokenTree::Punct(bang),
        TokenTree::Group(brackets),
        ..,
    ] = &tokens[end..]
        && pound.as_char() == '#'
        && bang.as_char() == '!'
        && brackets.delimiter() == proc_macro2::Delimiter::Bracket
    {
        end += 3;
    }
    if end == 0 {
        return (Vec::new(), body);
    }
    let split = |input: ParseStream| {
        let attrs = input.call(Attribute::parse_inner)?;
        Ok((attrs, input.parse::<TokenStream>()?))
    };
    let attributes: TokenStream = tokens[..end].iter().cloned().collect();
    match split.parse2(attributes) {
        Ok((mut attrs, rest)) if !attrs.is_empty() && rest.is_empty() => {
            for attr in &mut attrs {
                attr.style = syn::AttrStyle::Outer;
            }
            let rest: TokenStream = tokens[end..].iter().cloned().collect();
            let mut stripped = proc_macro2::Group::new(group.delimiter(), rest);
            stripped.set_span(group.span());
            (attrs, TokenTree::Group(stripped))
        }
        _ => (Vec::new(), body),
    }
}

/// The span of the item's first token after its attributes and visibility:
/// `struct`, `const`, `mod`...
fn item_keyword_span(item: &TokenStream) -> Span {
    let parser = |input: ParseStream| {
        input.call(Attribute::parse_outer)?;
        input.parse::<Visibility>()?;
        let span = input.span();
        input.parse::<TokenStream>()?;
        Ok(span)
    };
    parser
        .parse2(item.clone())
        .unwrap_or_else(|_: syn::Error| Span::call_site())
}

/// Whether the tokens are a function item (so a parse error is the user's to
/// see), rather than some other item `#[tool]` does not belong on.
fn looks_like_fn(item: &TokenStream) -> bool {
    item.clone()
        .into_iter()
        .take_while(|token| !matches!(token, TokenTree::Group(g) if g.delimiter() == proc_macro2::Delimiter::Brace))
        .any(|token| matches!(&token, TokenTree::Ident(ident) if ident == "fn"))
}

/// Every argument rmcp's `#[tool]` takes, and this crate's own.
const ARGS: &[(&str, Shape)] = &[
    ("name", Shape::Str),
    ("title", Shape::Str),
    ("description", Shape::Expr),
    ("input_schema", Shape::Expr),
    ("output_schema", Shape::Expr),
    ("annotations", Shape::List),
    ("icons", Shape::Expr),
    ("meta", Shape::Expr),
    ("local", Shape::Bool),
    ("allow_failure_phrases", Shape::Flag),
    ("unchecked_input", Shape::Str),
];

/// The arguments of `annotations(..)`, as rmcp's `ToolAnnotations` has them.
const ANNOTATIONS: &[(&str, Shape)] = &[
    ("title", Shape::Str),
    ("read_only_hint", Shape::Bool),
    ("destructive_hint", Shape::Bool),
    ("idempotent_hint", Shape::Bool),
    ("open_world_hint", Shape::Bool),
];

/// The arguments of `#[tool(..)]`, each in its own field.
#[derive(Default)]
pub(crate) struct ToolArgs {
    pub(crate) name: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    pub(crate) description: Option<Expr>,
    pub(crate) input_schema: Option<Expr>,
    pub(crate) output_schema: Option<Expr>,
    pub(crate) annotations: Option<Annotations>,
    pub(crate) icons: Option<Expr>,
    pub(crate) meta: Option<Expr>,
    pub(crate) local: bool,
    pub(crate) allow_failure_phrases: bool,
    /// Why the published input schema is not checked before the body.
    pub(crate) unchecked_input: Option<LitStr>,
    /// A `description` was misspelled (and reported): its absence is no
    /// second error.
    pub(crate) description_misspelled: bool,
}

/// `annotations(..)`, each hint in its own field.
#[derive(Default)]
pub(crate) struct Annotations {
    pub(crate) title: Option<LitStr>,
    pub(crate) read_only_hint: Option<bool>,
    pub(crate) destructive_hint: Option<bool>,
    pub(crate) idempotent_hint: Option<bool>,
    pub(crate) open_world_hint: Option<bool>,
    /// As written, for the method's rustdoc.
    pub(crate) written: TokenStream,
}

impl ToolArgs {
    /// Reads the attribute's arguments. A misspelled one counts as the one
    /// it was meant to be, so that it causes no errors of its own (a
    /// misspelled `local` would otherwise add "future is not `Send`").
    pub(crate) fn read(attr: TokenStream, errors: &mut Errors) -> ToolArgs {
        let parsed = args::parse("#[tool]", attr, ARGS, errors);
        let mut args = ToolArgs {
            description_misspelled: parsed.meant.contains(&"description"),
            ..ToolArgs::default()
        };
        for arg in parsed.all() {
            let mut expression = || quoted_or_not(arg.value(), errors);
            match arg.name.as_str() {
                "name" => args.name = arg.str_value(),
                "title" => args.title = arg.str_value(),
                "description" => args.description = arg.value().cloned(),
                "input_schema" => args.input_schema = expression(),
                "output_schema" => args.output_schema = expression(),
                "icons" => args.icons = expression(),
                "meta" => args.meta = expression(),
                "local" => args.local = arg.bool_value().unwrap_or(true),
                "allow_failure_phrases" => args.allow_failure_phrases = true,
                "unchecked_input" => {
                    args.unchecked_input = arg.str_value();
                    if let Some(reason) = &args.unchecked_input
                        && reason.value().trim().is_empty()
                    {
                        errors.push(syn::Error::new(
                            reason.span(),
                            "say why the input schema is not checked: \
                             `unchecked_input = \"<why the tool checks its arguments itself>\"`",
                        ));
                    }
                }
                "annotations" => {
                    if let Meta::List(list) = &arg.meta {
                        args.annotations = Some(Annotations::read(list.tokens.clone(), errors));
                    }
                }
                _ => {}
            }
        }
        args
    }
}

/// An expression argument, which rmcp also takes in quotes
/// (`input_schema = "my_schema()"`): a string literal is read as the
/// expression it holds. A description is never read so: its text is the
/// value.
fn quoted_or_not(value: Option<&Expr>, errors: &mut Errors) -> Option<Expr> {
    match value? {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) => match text.parse::<Expr>() {
            Ok(expression) => Some(expression),
            Err(error) => {
                errors.push(syn::Error::new(
                    text.span(),
                    format!("the text in quotes must be an expression: {error}"),
                ));
                None
            }
        },
        other => Some(other.clone()),
    }
}

impl Annotations {
    fn read(written: TokenStream, errors: &mut Errors) -> Annotations {
        let parsed = args::parse("annotations(..)", written.clone(), ANNOTATIONS, errors);
        let mut annotations = Annotations {
            written,
            ..Annotations::default()
        };
        for arg in parsed.all() {
            match arg.name.as_str() {
                "title" => annotations.title = arg.str_value(),
                "read_only_hint" => annotations.read_only_hint = arg.bool_value(),
                "destructive_hint" => annotations.destructive_hint = arg.bool_value(),
                "idempotent_hint" => annotations.idempotent_hint = arg.bool_value(),
                "open_world_hint" => annotations.open_world_hint = arg.bool_value(),
                _ => {}
            }
        }
        annotations
    }
}

/// The description `tools/list` sends.
pub(crate) enum Description {
    /// Text known here: the doc comment up to its first heading, or a
    /// `description = "..."` literal; `span` is where it is written.
    Text { text: String, span: Span },
    /// `description = <expression>`, computed at run time.
    Expr(Expr),
    /// A doc attribute computed at compile time
    /// (`#[doc = include_str!(..)]`): the whole doc, as one `concat!`.
    Computed(TokenStream),
    /// None, which `check` reports.
    Missing,
}

impl Description {
    /// An explicit `description = ..`, else the doc comment up to its first
    /// heading.
    pub(crate) fn read(function: &ToolFn, args: &ToolArgs) -> Description {
        if let Some(explicit) = &args.description {
            return match explicit {
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(text),
                    ..
                }) => Description::Text {
                    text: text.value(),
                    span: text.span(),
                },
                other => Description::Expr(other.clone()),
            };
        }
        match description::from_attrs(&function.attrs) {
            Doc::Text(doc) if !doc.summary.is_empty() => Description::Text {
                text: doc.summary,
                span: doc.span,
            },
            Doc::Computed(whole) => Description::Computed(whole),
            _ => Description::Missing,
        }
    }
}
