//! The method `#[tool]` writes: the signature as written, the body inside
//! the boundary, and what the model receives in its rustdoc.

use std::borrow::Cow;

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, GenericArgument, Ident, PathArguments, ReturnType, Signature, Type};

use super::metadata::wire_name;
use super::parse::{Description, ToolArgs, ToolFn};

/// The method: its own attributes, its rustdoc with what the model
/// receives, the signature as written (an `async fn` boxed, as rmcp's
/// router takes it), and the body inside the boundary; then the marker the
/// router check looks for.
pub(crate) fn method(function: &ToolFn, args: &ToolArgs, description: &Description) -> TokenStream {
    let ToolFn {
        attrs,
        vis,
        defaultness,
        sig,
        inner_attrs,
        body,
        ..
    } = function;
    let wire_name = wire_name(function, args);
    let docs = receipt_docs(args, description, &wire_name);

    // The declared return type pins the body's type, so a mismatch in the
    // body points at the signature; `()` when none is written, which the
    // boundary refuses with a message that says the fix.
    let local = cfg!(feature = "local") || args.local;
    let return_type = match &sig.output {
        ReturnType::Type(_, ty) => ty.to_token_stream(),
        ReturnType::Default => quote_spanned! { sig.ident.span() => () },
    };
    let private = crate::private(Span::mixed_site());
    let (sig, wrapped) = if let Some(asyncness) = &sig.asyncness {
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
                let statements = awaited_tail_checked(group.stream(), &return_type);
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
        let function = quote_spanned! { at => #private_at::async_boundary };
        let mut arguments = Group::new(Delimiter::Parenthesis, quote! { #wire_name, #block });
        arguments.set_span(at);
        // rmcp's router takes an async tool as a method that returns a
        // boxed future; the boundary's future is boxed as it is, with no
        // second async block around it.
        let mut sig = sig.clone();
        sig.asyncness = None;
        sig.output = boxed_output(&sig, &return_type, local);
        // Boxed with the call's span, for the same reason.
        let boxed = quote_spanned! { at => ::std::boxed::Box::pin };
        let mut call = Group::new(
            Delimiter::Parenthesis,
            quote_spanned! { at => #function::<#boundary_type, _> #arguments },
        );
        call.set_span(at);
        let mut body = Group::new(Delimiter::Brace, quote! { #boxed #call });
        body.set_span(at);
        let body = body.into_token_stream();
        (Cow::Owned(sig), body)
    } else {
        let boundary_type = boundary_type(&return_type, &private, blamed_tokens(sig));
        let call = quote_spanned! { sig.fn_token.span() =>
            #private::sync_boundary::<#boundary_type, _>(#wire_name, move || #body)
        };
        (Cow::Borrowed(sig), quote! { { #call } })
    };

    // Proves to the router check that this tool is wrapped. It names `Self`
    // so that `#[tool]` outside an impl block fails at the method's name.
    let marker = super::marker_fn(&sig.ident);
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
        #vis #defaultness #sig #wrapped
    }
}

/// The body's statements, with the future awaited by each tail and each
/// `return` (`helper(..).await`) passed through `answer`, when the return
/// type is written `Result<T, E>`: rustc says how to fix a value of the
/// wrong `Result` type (`Ok(helper(..)?)`) when it is not awaited, and this
/// check says it for one that is, where it is written, and passes the
/// return type on to a future whose output is only known from it. A tail
/// is the body's last expression, and within it the arms of a `match`, the
/// branches of an `if` with an `else`, and the last expression of a block.
/// A `return` is found in the body's statements and the blocks, conditions
/// and arms they hold, never in a closure, an async block or an item,
/// whose `return` is their own. A body with neither, that does not parse,
/// or that nests deeper than the macro parses (see `depth::LIMIT`), is
/// left as written, for rustc.
fn awaited_tail_checked(statements: TokenStream, return_type: &TokenStream) -> TokenStream {
    let is_result =
        syn::parse2::<Type>(return_type.clone()).is_ok_and(|ty| error_type(&ty).is_some());
    // A type with a lifetime in it is left to rustc: the check asks for the
    // future's output to be the return type exactly, which would refuse a
    // `&'static str` where a `&'a str` is declared.
    let borrows = has_punct(return_type.clone(), &['\'', '&']);
    if !is_result || borrows {
        return statements;
    }
    // Only the tokens after the last `;` can hold the tail, and a `return`
    // that awaits needs both words: any other body is not parsed at all.
    let tokens: Vec<TokenTree> = statements.clone().into_iter().collect();
    let after_last_statement = tokens
        .iter()
        .rposition(|token| matches!(token, TokenTree::Punct(semi) if semi.as_char() == ';'))
        .map_or(&tokens[..], |semi| &tokens[semi + 1..]);
    let tail_awaits = has_word(after_last_statement.iter().cloned().collect(), "await");
    let returns = has_word(statements.clone(), "return") && has_word(statements.clone(), "await");
    if !tail_awaits && !returns {
        return statements;
    }
    // A body too deep to parse on the compiler's stack is left as written.
    let limit = crate::depth::LIMIT;
    if crate::depth::weight(statements.clone(), limit) > limit {
        return statements;
    }
    let Ok(mut body) = syn::parse::Parser::parse2(syn::Block::parse_within, statements.clone())
    else {
        return statements;
    };
    // `future` becomes `answer::<R, _>(future).__outcome_checked()`, spanned
    // at its first token, where an error is reported. No block around it:
    // a block would end the life of the future's temporaries before the
    // `.await` (`helper(&format!(..)).await`).
    let check = |future: Expr| {
        let at = future
            .to_token_stream()
            .into_iter()
            .next()
            .map_or_else(Span::call_site, |token| token.span());
        let private = crate::private(at);
        let method = Ident::new("__outcome_checked", at);
        let mut argument = Group::new(Delimiter::Parenthesis, future.into_token_stream());
        argument.set_span(at);
        Expr::Verbatim(quote_spanned! { at =>
            #private::answer::<#return_type, _> #argument . #method ()
        })
    };
    let mut changed = returns && check_awaited_returns(&mut body, &check);
    if let Some(syn::Stmt::Expr(tail, None)) = body.last_mut() {
        changed |= check_awaited_tails(tail, &check);
    }
    if !changed {
        return statements;
    }
    quote! { #(#body)* }
}

/// Whether `tokens` hold one of `puncts` anywhere.
fn has_punct(tokens: TokenStream, puncts: &[char]) -> bool {
    any_token(
        tokens,
        |token| matches!(token, TokenTree::Punct(punct) if puncts.contains(&punct.as_char())),
    )
}

/// Whether any token of `tokens`, in any group, is one `wanted` takes;
/// without recursion, since the tokens are the user's and may nest deeper
/// than the macro's stack goes.
fn any_token(tokens: TokenStream, wanted: impl Fn(&TokenTree) -> bool) -> bool {
    let mut pending = vec![tokens.into_iter()];
    while let Some(tokens) = pending.last_mut() {
        let Some(token) = tokens.next() else {
            pending.pop();
            continue;
        };
        if wanted(&token) {
            return true;
        }
        if let TokenTree::Group(group) = token {
            pending.push(group.stream().into_iter());
        }
    }
    false
}

/// Passes the future of `awaited` (an `Expr::Await`) through `check`: the
/// expression inside parentheses, which an argument does not need (rustc
/// would warn of them in the user's code); a future written as a block is
/// left as written, since its braces end its temporaries' lives.
fn check_awaited(awaited: &mut Expr, check: &dyn Fn(Expr) -> Expr) {
    let Expr::Await(awaited) = awaited else {
        return;
    };
    let mut future = std::mem::replace(&mut *awaited.base, Expr::Verbatim(TokenStream::new()));
    while let Expr::Paren(inner) = future {
        future = *inner.expr;
    }
    *awaited.base = match future {
        Expr::Block(_) | Expr::Unsafe(_) => future,
        future => check(future),
    };
}

/// Whether `tokens` hold `word` anywhere.
fn has_word(tokens: TokenStream, word: &str) -> bool {
    any_token(
        tokens,
        |token| matches!(token, TokenTree::Ident(ident) if ident == word),
    )
}

/// Passes the future of each `return` in `statements` that awaits through
/// `check`; whether there was one.
fn check_awaited_returns(statements: &mut [syn::Stmt], check: &dyn Fn(Expr) -> Expr) -> bool {
    statements.iter_mut().fold(false, |found, statement| {
        let here = match statement {
            syn::Stmt::Local(local) => local.init.as_mut().is_some_and(|init| {
                let diverges = init
                    .diverge
                    .as_mut()
                    .is_some_and(|(_, otherwise)| returns_in(otherwise, check));
                returns_in(&mut init.expr, check) | diverges
            }),
            syn::Stmt::Expr(expr, _) => returns_in(expr, check),
            // An item's `return` is its own; a macro's tokens are its own.
            syn::Stmt::Item(_) | syn::Stmt::Macro(_) => false,
        };
        here | found
    })
}

/// [`check_awaited_returns`] for an expression.
fn returns_in(expr: &mut Expr, check: &dyn Fn(Expr) -> Expr) -> bool {
    let block = |block: &mut syn::Block| check_awaited_returns(&mut block.stmts, check);
    match expr {
        Expr::Return(returned) => match returned.expr.as_deref_mut() {
            Some(value @ Expr::Await(_)) => {
                check_awaited(value, check);
                true
            }
            Some(value) => returns_in(value, check),
            None => false,
        },
        Expr::Block(inner) => block(&mut inner.block),
        Expr::Unsafe(inner) => block(&mut inner.block),
        Expr::Loop(inner) => block(&mut inner.body),
        Expr::While(inner) => returns_in(&mut inner.cond, check) | block(&mut inner.body),
        Expr::ForLoop(inner) => returns_in(&mut inner.expr, check) | block(&mut inner.body),
        Expr::If(inner) => {
            let otherwise = inner
                .else_branch
                .as_mut()
                .is_some_and(|(_, otherwise)| returns_in(otherwise, check));
            returns_in(&mut inner.cond, check) | block(&mut inner.then_branch) | otherwise
        }
        Expr::Match(inner) => inner
            .arms
            .iter_mut()
            .fold(returns_in(&mut inner.expr, check), |found, arm| {
                returns_in(&mut arm.body, check) | found
            }),
        Expr::Let(inner) => returns_in(&mut inner.expr, check),
        Expr::Paren(inner) => returns_in(&mut inner.expr, check),
        Expr::Group(inner) => returns_in(&mut inner.expr, check),
        // A closure's or an async block's `return` is its own; a `return`
        // inside any other expression is too rare to look for.
        _ => false,
    }
}

/// Passes the future of each tail of `expr` that awaits through `check`;
/// whether there was one.
fn check_awaited_tails(expr: &mut Expr, check: &dyn Fn(Expr) -> Expr) -> bool {
    let block_tail = |block: &mut syn::Block| match block.stmts.last_mut() {
        Some(syn::Stmt::Expr(tail, None)) => check_awaited_tails(tail, check),
        _ => false,
    };
    match expr {
        Expr::Await(_) => {
            check_awaited(expr, check);
            true
        }
        Expr::Match(matched) => matched.arms.iter_mut().fold(false, |found, arm| {
            check_awaited_tails(&mut arm.body, check) | found
        }),
        Expr::If(branches) => match &mut branches.else_branch {
            // Without an `else`, the `if` is `()`: no tail of a `Result`.
            Some((_, otherwise)) => {
                check_awaited_tails(otherwise, check) | block_tail(&mut branches.then_branch)
            }
            None => false,
        },
        Expr::Block(block) => block_tail(&mut block.block),
        Expr::Unsafe(block) => block_tail(&mut block.block),
        Expr::Group(inner) => check_awaited_tails(&mut inner.expr, check),
        // Parentheses are left as written: a check inside them would make
        // rustc's own advice about them (`unused_parens`) quote the wrong
        // text.
        _ => false,
    }
}

/// `-> Pin<Box<dyn Future<Output = T> + Send + 'a>>`, where `'a` is the
/// receiver's lifetime (`'_` for `&self`, `'static` without a borrowed
/// receiver), as rmcp's `#[tool]` writes it; without `Send` under `local`.
///
/// Its tokens are the macro's own, so lints about the type (clippy's
/// `type_complexity`) do not blame the user's signature.
fn boxed_output(sig: &Signature, return_type: &TokenStream, local: bool) -> ReturnType {
    let lifetime = match sig.receiver().map(|receiver| &receiver.kind) {
        Some(syn::ReceiverKind::Reference(_, Some(lifetime), _)) => quote! { #lifetime },
        Some(syn::ReceiverKind::Reference(_, None, _)) => quote! { '_ },
        _ => quote! { 'static },
    };
    let send = (!local).then(|| quote! { + ::core::marker::Send });
    syn::parse_quote! {
        -> ::core::pin::Pin<::std::boxed::Box<
            dyn ::core::future::Future<Output = #return_type> #send + #lifetime
        >>
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

/// Lines added to the method's rustdoc: what the model receives. How a call
/// ends is the same for every tool, so it is a link, not a paragraph.
fn receipt_docs(args: &ToolArgs, description: &Description, wire_name: &str) -> Vec<String> {
    let mut lines = vec![
        String::new(),
        "# What the model receives".to_owned(),
        String::new(),
        format!("Wire name: `{wire_name}`, in the outcome boundary."),
    ];
    if let Some(title) = &args.title {
        lines.push(String::new());
        lines.push(format!("Title: {}", title.value()));
    }
    if let Some(annotations) = &args.annotations {
        lines.push(String::new());
        lines.push(format!("Annotations: `{}`", annotations.written));
    }
    lines.push(String::new());
    match description {
        Description::Text { text, .. } => {
            lines.push("Description, as `tools/list` sends it:".to_owned());
            lines.push(String::new());
            lines.extend(text.lines().map(|line| format!("> {line}")));
        }
        Description::Expr(_) => lines.push(
            "Description: the `description = ..` expression, computed at run time.".to_owned(),
        ),
        Description::Computed(_) => {
            lines.push("Description: the doc comment, computed at compile time.".to_owned());
        }
        Description::Missing => {}
    }
    lines.push(String::new());
    lines.push("How the call ends: [the outcome rules](outcome_runtime#the-boundary).".to_owned());
    lines
}
