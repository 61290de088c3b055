//! `#[tool]`: rmcp's `#[tool]` with the body inside the boundary.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{
    Attribute, GenericArgument, Ident, Lit, PathArguments, ReturnType, Signature, Token, Type,
    Visibility,
};

use crate::args::{self, Arg, Errors, Kind};
use crate::description::{self, Doc};
use crate::literals;

/// Every argument rmcp's `#[tool]` takes, and this crate's own.
const ARGS: &[(&str, Kind)] = &[
    ("name", Kind::Str),
    ("title", Kind::Str),
    ("description", Kind::Expr),
    ("input_schema", Kind::Expr),
    ("output_schema", Kind::Expr),
    ("annotations", Kind::List),
    ("icons", Kind::Expr),
    ("meta", Kind::Expr),
    ("local", Kind::Flag),
    ("allow_failure_phrases", Kind::Flag),
];

/// Arguments that are this crate's and not handed on to rmcp.
const OWN_ARGS: &[&str] = &["allow_failure_phrases"];

/// A method as `#[tool]` needs it: the body stays unparsed tokens, so a body
/// with a syntax error still expands and rustc reports the real error.
struct ToolFn {
    attrs: Vec<Attribute>,
    vis: Visibility,
    defaultness: Option<Token![default]>,
    sig: Signature,
    body: TokenTree,
}

impl Parse for ToolFn {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis = input.parse()?;
        let defaultness = input.parse()?;
        let sig: Signature = input.parse()?;
        if !input.peek(syn::token::Brace) {
            return Err(input.error("a `#[tool]` method needs a body"));
        }
        let body = input.parse()?;
        Ok(ToolFn {
            attrs,
            vis,
            defaultness,
            sig,
            body,
        })
    }
}

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let function = match syn::parse2::<ToolFn>(item.clone()) {
        Ok(function) => function,
        Err(error) => {
            let error = if looks_like_fn(&item) {
                error
            } else {
                syn::Error::new(
                    item_keyword_span(&item),
                    "`#[tool]` goes on a method in an `impl` block that `#[tool_router]` reads",
                )
            };
            return args::or_item(Err(error), item);
        }
    };

    let mut errors = Errors::default();
    let parsed = args::parse("tool", attr, ARGS, &mut errors);
    let meant = &parsed.meant;
    // A misspelled argument counts as the one it was meant to be, so that
    // it does not cause errors of its own (a misspelled `local` would
    // otherwise add "future is not `Send`").
    let args: Vec<Arg> = parsed.all().cloned().collect();
    let arg = |name: &str| args.iter().find(|arg| arg.name == name);

    let mut function = function;
    if let Some(constness) = function.sig.constness.take() {
        errors.push(syn::Error::new_spanned(
            constness,
            "a `#[tool]` cannot be a `const fn`; remove `const`",
        ));
    }
    // A second `#[tool]` would register the method twice; report it and
    // drop it, so the compiler does not add errors of its own.
    function.attrs.retain(|attr| {
        let path = attr.path();
        let is_tool = path
            .segments
            .last()
            .is_some_and(|segment| segment.ident == "tool");
        if is_tool {
            let message = if path.segments.first().is_some_and(|s| s.ident == "rmcp") {
                "rmcp's `#[tool]` is applied here as well; remove it: \
                 `outcome_runtime::tool` already hands the method to rmcp's"
            } else {
                "`#[tool]` is applied twice to this method; remove one"
            };
            errors.push(syn::Error::new_spanned(attr, message));
        }
        !is_tool
    });

    // The description: an explicit `description = ..`, else the doc comment
    // up to its first heading.
    let check_phrases = arg("allow_failure_phrases").is_none();
    let mut computed = None;
    let description = match arg("description") {
        Some(explicit) => {
            if let Some(text) = explicit.str_value() {
                for problem in description::check(&text.value(), check_phrases) {
                    errors.push(syn::Error::new(text.span(), problem.message()));
                }
            }
            None
        }
        None => match description::from_attrs(&function.attrs) {
            Doc::Text(doc) if !doc.summary.is_empty() => {
                for problem in description::check(&doc.summary, check_phrases) {
                    errors.push(syn::Error::new(doc.span, problem.message()));
                }
                Some(doc.summary)
            }
            // Read whole, as rmcp would; passed explicitly so the lines
            // added below for rustdoc stay out of it.
            Doc::Computed(whole) => {
                computed = Some(whole);
                None
            }
            // A misspelled `description` was already reported.
            _ if meant.contains(&"description") => None,
            _ => {
                errors.push(syn::Error::new_spanned(
                    &function.sig.ident,
                    "this tool has no description: write a doc comment that states what \
                     the tool does and returns (the model reads the text before the first \
                     `# ` heading), or pass `#[tool(description = \"...\")]`",
                ));
                None
            }
        },
    };

    for error in literals::empty_parts(&function.body) {
        errors.push(error);
    }

    let wire_name = arg("name")
        .and_then(Arg::str_value)
        .map_or_else(|| function.sig.ident.to_string(), |name| name.value());

    let expanded = expand_fn(
        &function,
        &args,
        description.as_deref(),
        computed,
        &wire_name,
    );
    let errors = errors.into_compile_error();
    quote! { #errors #expanded }
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
    syn::parse::Parser::parse2(parser, item.clone())
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

fn expand_fn(
    function: &ToolFn,
    args: &[Arg],
    description: Option<&str>,
    computed: Option<TokenStream>,
    wire_name: &str,
) -> TokenStream {
    let ToolFn {
        attrs,
        vis,
        defaultness,
        sig,
        body,
    } = function;
    let (inner_attrs, body) = split_inner_attributes(body);

    let forwarded = args
        .iter()
        .filter(|arg| !OWN_ARGS.contains(&arg.name.as_str()))
        .map(|arg| arg.to_token_stream());
    let description_arg = match (description, computed) {
        (Some(text), _) => Some(quote! { description = #text }),
        (None, Some(whole)) => Some(quote! { description = #whole }),
        (None, None) => None,
    };
    let rmcp_args = forwarded.chain(description_arg);

    let docs = receipt_docs(args, description, wire_name);

    // The declared return type pins the body's type, so a mismatch in the
    // body points at the signature; `()` when none is written, which the
    // boundary refuses with a message that says the fix.
    let local = cfg!(feature = "local") || args.iter().any(|arg| arg.name == "local");
    let return_type = match &sig.output {
        ReturnType::Type(_, ty) => ty.to_token_stream(),
        ReturnType::Default => quote_spanned! { sig.ident.span() => () },
    };
    let private = crate::private(Span::mixed_site());
    let wrapped = if let Some(asyncness) = &sig.asyncness {
        // An async block takes its output type from its body, so a wrong
        // `return` or tail would make the block's type wrong and be
        // reported at the boundary, several times over. This `return`,
        // first in the block and never taken, fixes the type beforehand:
        // then every `return` and the tail are checked against it, and a
        // wrong one is reported where it is written, as in a sync body.
        let fake_return = Ident::new("__outcome_return", Span::mixed_site());
        let pin = quote! {
            #[allow(
                unknown_lints,
                unreachable_code,
                clippy::diverging_sub_expression,
                clippy::empty_loop,
                clippy::let_unit_value,
                clippy::needless_return
            )]
            if false {
                let #fake_return: #return_type = loop {};
                return #fake_return;
            };
        };
        // Put first in the body's own block, rather than before it as a
        // block of its own: a body that is a lone expression would then
        // get "unnecessary braces" from rustc.
        let block = match &body {
            TokenTree::Group(group) => {
                let statements = group.stream();
                let mut block = Group::new(Delimiter::Brace, quote! { #pin #statements });
                block.set_span(group.span());
                block
            }
            other => Group::new(Delimiter::Brace, quote! { #pin #other }),
        };
        let block = quote_spanned! { asyncness.span() => async move #block };
        // Checked here, on the body's own future, so that a body that is
        // not `Send` is reported at the method rather than inside rmcp's
        // boxing, and the check does not involve the return type.
        let block = if local {
            block
        } else {
            let private = crate::private(asyncness.span());
            quote_spanned! { asyncness.span() => #private::assert_send(#block) }
        };
        // A wrong return type fails the boundary's bound at every place
        // the call's future is used: the call and its `.await`. rustc
        // reports a failed bound once per span, so all of them carry the
        // one span the error should land on.
        let at = blamed_token(sig);
        let boundary_type = boundary_type(&return_type, &private, (at, at));
        let private_at = crate::private(at);
        let function = quote_spanned! { at => #private_at::async_tool_boundary };
        let mut arguments = Group::new(Delimiter::Parenthesis, quote! { #wire_name, #block });
        arguments.set_span(at);
        let await_kw = Ident::new("await", at);
        quote! { { #function::<#boundary_type, _> #arguments . #await_kw } }
    } else {
        let boundary_type = boundary_type(&return_type, &private, blamed_tokens(sig));
        let call = quote_spanned! { sig.fn_token.span() =>
            #private::sync_boundary::<#boundary_type, _>(#wire_name, move || #body)
        };
        quote! { { #call } }
    };

    // Proves to the router check that this tool is wrapped. It names `Self`
    // so that `#[tool]` outside an impl block fails at the method's name.
    let marker = format_ident!("__outcome_wrapped_{}", sig.ident);
    let self_ty = quote_spanned! { sig.ident.span() => Self };
    quote! {
        #[doc(hidden)]
        #[allow(non_snake_case, dead_code)]
        fn #marker() -> #private::IsWrapped {
            let _: ::core::marker::PhantomData<#self_ty>;
            #private::IsWrapped
        }
        #(#attrs)*
        #(#inner_attrs)*
        #(#[doc = #docs])*
        #[#private::rmcp::tool(#(#rmcp_args),*)]
        #vis #defaultness #sig #wrapped
    }
}

/// The boundary's type argument: the declared return type, named through a
/// projection that spans `first` to `last`, so that an error for a wrong
/// return type lands there. The type stays the user's as written, an alias
/// of `Result` included; only the span changes.
fn boundary_type(
    return_type: &TokenStream,
    private: &TokenStream,
    (first, last): (Span, Span),
) -> TokenStream {
    let open = quote_spanned! { first => < };
    let this = Ident::new("This", last);
    quote! { #open #return_type as #private::Identity>::#this }
}

/// The first and last token of what is wrong if the return type is: `E` of
/// `Result<T, E>`, else the whole return type, or the method's name when
/// none is written.
fn blamed_tokens(sig: &Signature) -> (Span, Span) {
    let ReturnType::Type(_, ty) = &sig.output else {
        return (sig.ident.span(), sig.ident.span());
    };
    let blamed = error_type(ty).unwrap_or(ty).to_token_stream();
    let mut spans = blamed.into_iter().map(|token| token.span());
    let first = spans.next().unwrap_or_else(|| sig.ident.span());
    (first, spans.last().unwrap_or(first))
}

/// One token of what is wrong if the return type is: the name of the type
/// (`McpError` of `Result<T, rmcp::McpError>`, `Box` of
/// `Result<T, Box<dyn Error>>`, `str` of `Result<T, &str>`), else its first
/// token.
fn blamed_token(sig: &Signature) -> Span {
    let ReturnType::Type(_, ty) = &sig.output else {
        return sig.ident.span();
    };
    let mut blamed = error_type(ty).unwrap_or(ty);
    while let Type::Reference(reference) = blamed {
        blamed = &reference.elem;
    }
    match blamed {
        Type::Path(path) => path
            .path
            .segments
            .last()
            .map_or_else(|| blamed_tokens(sig).0, |last| last.ident.span()),
        _ => blamed_tokens(sig).0,
    }
}

/// `E` of a return type written `Result<T, E>` (by any path ending in
/// `Result`).
pub(crate) fn error_type(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else {
        return None;
    };
    if path.qself.is_some() {
        return None;
    }
    let last = path.path.segments.last()?;
    if last.ident != "Result" {
        return None;
    }
    let PathArguments::AngleBracketed(arguments) = &last.arguments else {
        return None;
    };
    match arguments.args.iter().collect::<Vec<_>>().as_slice() {
        [GenericArgument::Type(_), GenericArgument::Type(error)] => Some(error),
        _ => None,
    }
}

/// Takes the inner attributes (`#![allow(..)]`) off the front of a body:
/// a closure or an async block cannot carry them, so they become outer
/// attributes of the method, where they mean the same.
fn split_inner_attributes(body: &TokenTree) -> (Vec<TokenStream>, TokenTree) {
    let TokenTree::Group(group) = body else {
        return (Vec::new(), body.clone());
    };
    let tokens: Vec<TokenTree> = group.stream().into_iter().collect();
    let mut attrs = Vec::new();
    let mut rest = &tokens[..];
    while let [
        TokenTree::Punct(pound),
        TokenTree::Punct(bang),
        TokenTree::Group(attr),
        tail @ ..,
    ] = rest
    {
        if pound.as_char() != '#'
            || bang.as_char() != '!'
            || attr.delimiter() != proc_macro2::Delimiter::Bracket
        {
            break;
        }
        attrs.push(quote! { #pound #attr });
        rest = tail;
    }
    if attrs.is_empty() {
        return (attrs, body.clone());
    }
    let mut stripped = proc_macro2::Group::new(group.delimiter(), rest.iter().cloned().collect());
    stripped.set_span(group.span());
    (attrs, TokenTree::Group(stripped))
}

/// Lines added to the method's rustdoc: what the model receives.
fn receipt_docs(args: &[Arg], description: Option<&str>, wire_name: &str) -> Vec<String> {
    let arg = |name: &str| args.iter().find(|arg| arg.name == name);
    let mut lines = vec![
        String::new(),
        "# What the model receives".to_owned(),
        String::new(),
        format!("Wire name: `{wire_name}`, in the outcome boundary."),
    ];
    if let Some(title) = arg("title").and_then(Arg::str_value) {
        lines.push(String::new());
        lines.push(format!("Title: {}", title.value()));
    }
    if let Some(syn::Meta::List(list)) = arg("annotations").map(|arg| &arg.meta) {
        lines.push(String::new());
        lines.push(format!("Annotations: `{}`", list.tokens));
    }
    lines.push(String::new());
    match description {
        Some(text) => {
            lines.push("Description, as `tools/list` sends it:".to_owned());
            lines.push(String::new());
            lines.extend(text.lines().map(|line| format!("> {line}")));
        }
        None => match arg("description").and_then(Arg::value) {
            Some(syn::Expr::Lit(syn::ExprLit {
                lit: Lit::Str(text),
                ..
            })) => {
                lines.push("Description, as `tools/list` sends it:".to_owned());
                lines.push(String::new());
                lines.extend(text.value().lines().map(|line| format!("> {line}")));
            }
            _ => lines.push(
                "Description: the `description = ..` expression, computed at run time.".to_owned(),
            ),
        },
    }
    lines.extend(
        [
            "",
            "How the call ends: `Ok` is the result the model reads. `Err` of \
             `ToolError::invalid` or `ToolError::stale` sends its message as an `isError` \
             result, logged at INFO. Any other error, and any panic, is a fault: the \
             model reads the fixed fault message, and the log gets one `tool_failed` \
             record with the cause, at WARNING when it heals itself, else ERROR.",
        ]
        .map(str::to_owned),
    );
    lines
}
