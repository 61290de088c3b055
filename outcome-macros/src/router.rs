//! `#[tool_router]`: the router of an impl block's `#[tool]` methods, built
//! as rmcp's `#[tool_router]` builds it, with the router check; its
//! `server_handler` form uses this crate's `#[tool_handler]`.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::parse::discouraged::Speculative;
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Ident, ImplItem, ItemImpl, Signature, Token, Visibility};

use crate::args::{self, Errors, Kind, Parsed};

/// Every argument rmcp's `#[tool_router]` takes.
const ARGS: &[(&str, Kind)] = &[
    ("router", Kind::Expr),
    ("vis", Kind::Str),
    ("server_handler", Kind::Flag),
    ("allow_empty", Kind::Flag),
];

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let args = args::parse("#[tool_router]", attr, ARGS, &mut errors);
    let expansion = match Block::parse(&item) {
        Ok(block) => expand_block(&args, block, &mut errors),
        Err(error) => {
            errors.push(error);
            item
        }
    };
    let errors = errors.into_compile_error();
    quote! { #errors #expansion }
}

/// An impl block as the router needs it: its header parsed, each method's
/// attributes and signature parsed, and every body left as tokens, so no
/// body costs a parse. The block is written back as it came, with the
/// generated items added at its end.
struct Block {
    /// `impl<..> Type where ..`, or `impl<..> Trait for Type`, with an
    /// empty body.
    header: ItemImpl,
    /// The tokens before the body.
    head_tokens: Vec<TokenTree>,
    /// The body, as written.
    body: Group,
    methods: Vec<Method>,
}

/// A method of the block: its attributes and signature.
struct Method {
    attrs: Vec<Attribute>,
    sig: Signature,
}

impl Block {
    fn parse(item: &TokenStream) -> syn::Result<Block> {
        let mut head_tokens: Vec<TokenTree> = item.clone().into_iter().collect();
        let Some(TokenTree::Group(body)) = head_tokens.pop() else {
            // Not an impl block: syn says what is wrong.
            return Err(syn::parse2::<ItemImpl>(item.clone())
                .err()
                .unwrap_or_else(|| syn::Error::new(Span::call_site(), "expected an impl block")));
        };
        let empty = Group::new(Delimiter::Brace, TokenStream::new());
        let header_tokens: TokenStream = head_tokens
            .iter()
            .cloned()
            .chain([TokenTree::Group(empty)])
            .collect();
        let header = match syn::parse2::<ItemImpl>(header_tokens) {
            Ok(header) if body.delimiter() == Delimiter::Brace => header,
            // The whole item, for the parser's own error at the right place.
            _ => {
                return Err(syn::parse2::<ItemImpl>(item.clone())
                    .err()
                    .unwrap_or_else(|| {
                        syn::Error::new_spanned(&body, "expected the impl block's body")
                    }));
            }
        };
        let methods = Parser::parse2(methods, body.stream())?;
        Ok(Block {
            header,
            head_tokens,
            body,
            methods,
        })
    }

    fn is_trait_impl(&self) -> bool {
        self.header.trait_.is_some()
    }

    /// The block as written, with `items` added at the end of its body.
    fn with_items(&self, items: TokenStream) -> TokenStream {
        let mut stream = self.body.stream();
        stream.extend(items);
        let mut body = Group::new(Delimiter::Brace, stream);
        body.set_span(self.body.span());
        let head = &self.head_tokens;
        quote! { #(#head)* #body }
    }
}

/// The methods of an impl block's body; other items are parsed whole and
/// passed over.
fn methods(input: ParseStream) -> syn::Result<Vec<Method>> {
    let mut methods = Vec::new();
    while !input.is_empty() {
        let fork = input.fork();
        let method = (|| {
            let attrs = fork.call(Attribute::parse_outer)?;
            fork.parse::<Visibility>()?;
            fork.parse::<Option<Token![default]>>()?;
            let sig: Signature = fork.parse()?;
            if !fork.peek(syn::token::Brace) && !fork.peek(Token![;]) {
                return Err(fork.error("expected a body"));
            }
            fork.parse::<TokenTree>()?;
            Ok(Method { attrs, sig })
        })();
        match method {
            Ok(method) => {
                input.advance_to(&fork);
                methods.push(method);
            }
            Err(_) => {
                input.parse::<ImplItem>()?;
            }
        }
    }
    Ok(methods)
}

/// The expansion, even when the arguments or the block have errors: then
/// it goes on with what the user most likely meant (a misspelled argument
/// as the one it is closest to) or the defaults, so that the router
/// function exists under the expected name and code that calls it, such
/// as `#[tool_handler]`, does not fail too.
fn expand_block(args: &Parsed, block: Block, errors: &mut Errors) -> TokenStream {
    let router = router_name(args, errors);
    let vis = visibility(args, errors);
    let representatives = representatives(&block.methods);
    let tools: Vec<&Method> = block
        .methods
        .iter()
        .filter(|method| has_tool_attribute(method))
        .collect();
    if tools.is_empty() && args.get("allow_empty").is_none() {
        errors.push(syn::Error::new_spanned(
            &block.header.self_ty,
            format!(
                "`#[tool_router]` found no `#[tool]` method in this impl block, so \
                 `Self::{router}()` would serve no tools; add `allow_empty` if that is meant"
            ),
        ));
    }
    let private = crate::private(Span::call_site());
    // A tool whose error type is certainly wrong is reported by `#[tool]`;
    // it is left out of the router, which would only fail for it again,
    // with a long message about rmcp's traits, at the attribute.
    let routes = tools
        .iter()
        .filter(|method| !unroutable_error(&method.sig.output))
        .map(|method| {
            let name = &method.sig.ident;
            let tool_attr = format_ident!("{}_tool_attr", name);
            let route = quote! { (Self::#tool_attr(), Self::#name) };
            // A method that is not `async` runs whole when its route is
            // called (its future is ready at its first poll), which the
            // request log makes use of; `whole_route` asks the types.
            if method.sig.asyncness.is_none() {
                quote! { let router = router.with_route(#private::whole_route(#route)); }
            } else {
                quote! { let router = router.with_route(#route); }
            }
        });
    // The routes are marked as inside the boundary, for
    // `testing::assert_wrapped`.
    let router_fn = quote! {
        #vis fn #router() -> #private::rmcp::handler::server::tool::ToolRouter<Self> {
            let router = #private::rmcp::handler::server::tool::ToolRouter::<Self>::new();
            #(#routes)*
            #private::mark_router(router)
        }
    };
    let check =
        (!block.is_trait_impl()).then(|| check_every_tool_is_wrapped(&representatives, &router));
    let mut tokens = block.with_items(quote! { #router_fn #check });
    if args.get("server_handler").is_some() {
        if let Some((trait_path, _)) = &block.header.trait_ {
            errors.push(syn::Error::new_spanned(
                trait_path,
                "`server_handler` goes on an inherent impl block (`impl MyServer { .. }`)",
            ));
            return tokens;
        }
        let self_ty = &block.header.self_ty;
        // `self_ty` carries its generic arguments already (`Server<T>`).
        let (impl_generics, _, where_clause) = block.header.generics.split_for_impl();
        tokens.extend(quote! {
            #[::outcome_runtime::tool_handler(router = Self::#router())]
            impl #impl_generics #private::rmcp::ServerHandler
                for #self_ty #where_clause {}
        });
    }
    tokens
}

/// The name of the router function: `router = name`, else `tool_router`.
/// A value that is not a plain name is an error; a path then gives its
/// last name (`router = Self::tools` meant `tools`).
fn router_name(args: &Parsed, errors: &mut Errors) -> Ident {
    let default = || format_ident!("tool_router");
    let Some(arg) = args.get("router") else {
        return default();
    };
    if let Some(syn::Expr::Path(path)) = arg.value()
        && let Some(name) = path.path.get_ident()
    {
        return name.clone();
    }
    errors.push(syn::Error::new_spanned(
        arg.value()
            .map_or_else(|| arg.to_token_stream(), ToTokens::to_token_stream),
        "`router` names the function to generate: `router = my_router`",
    ));
    match arg.value() {
        Some(syn::Expr::Path(path)) => path
            .path
            .segments
            .last()
            .map_or_else(default, |segment| segment.ident.clone()),
        _ => default(),
    }
}

/// The router function's visibility: `vis = "..."`, else private. A text
/// that is not a visibility is an error, and then `pub`, which no use of
/// the function can fail for.
fn visibility(args: &Parsed, errors: &mut Errors) -> TokenStream {
    let Some(text) = args.get("vis").and_then(|arg| arg.str_value()) else {
        return TokenStream::new();
    };
    match text.parse::<syn::Visibility>() {
        Ok(vis) => vis.into_token_stream(),
        Err(_) => {
            errors.push(syn::Error::new_spanned(
                &text,
                "`vis` is a visibility in quotes: `vis = \"pub\"`, `vis = \"pub(crate)\"`",
            ));
            quote! { pub }
        }
    }
}

/// Whether the method is a tool: it has an attribute whose last segment is
/// `tool`, as rmcp's `#[tool_router]` decides it too.
fn has_tool_attribute(method: &Method) -> bool {
    method.attrs.iter().any(|attr| {
        attr.path()
            .segments
            .last()
            .is_some_and(|segment| segment.ident == "tool")
    })
}

/// Whether the return type is `Result<T, E>` with an `E` that is certainly
/// neither `ToolError` nor an error rmcp can send: a `Box` or a reference.
fn unroutable_error(output: &syn::ReturnType) -> bool {
    let syn::ReturnType::Type(_, ty) = output else {
        return false;
    };
    match crate::tool::error_type(ty) {
        Some(syn::Type::Reference(_)) => true,
        Some(syn::Type::Path(path)) => path
            .path
            .segments
            .last()
            .is_some_and(|segment| segment.ident == "Box"),
        _ => false,
    }
}

/// Attributes that are never a tool macro: rustc's own, and tool lints.
const INERT: &[&str] = &[
    "doc",
    "allow",
    "warn",
    "deny",
    "forbid",
    "expect",
    "cfg",
    "cfg_attr",
    "inline",
    "cold",
    "must_use",
    "deprecated",
    "track_caller",
    "diagnostic",
    "rustfmt",
    "clippy",
];

/// The methods that decide the router check: for each attribute path that
/// could be a tool macro, the first method carrying it, with the others
/// that carry it too.
///
/// All uses of one path in one impl block resolve to the same macro, so
/// checking one method per path decides them all, and keeps the check's
/// cost flat however many tools the block holds.
fn representatives(methods: &[Method]) -> Vec<(Ident, Vec<Ident>)> {
    let mut groups: Vec<(String, Ident, Vec<Ident>)> = Vec::new();
    for function in methods {
        for attr in &function.attrs {
            let path = attr.path();
            let first = path.segments.first().map(|s| s.ident.to_string());
            if first.is_some_and(|first| INERT.contains(&first.as_str())) {
                continue;
            }
            let key = quote!(#path).to_string();
            let ident = function.sig.ident.clone();
            match groups.iter_mut().find(|(known, _, _)| *known == key) {
                Some((_, _, others)) => others.push(ident),
                None => groups.push((key, ident, Vec::new())),
            }
        }
    }
    groups
        .into_iter()
        .map(|(_, first, others)| (first, others))
        .collect()
}

/// The router check: a hidden function whose type checks fail for a method
/// of the impl block that is a tool (rmcp generated its `<name>_tool_attr`)
/// but not wrapped (this crate's `#[tool]` generated its
/// `__outcome_wrapped_<name>`).
///
/// Attributes cannot resolve paths, so `#[tool]` alone does not say whose
/// macro it is (`use rmcp::tool;`, `use rmcp::tool as t;`, `use rmcp::*`).
/// Types can: each name below resolves to the method the macros generated
/// if it exists, and to the fallback trait's otherwise, since inherent
/// functions come first. Methods are grouped by attribute, not picked by the
/// name `tool`, so a renamed import is caught too.
fn check_every_tool_is_wrapped(
    representatives: &[(Ident, Vec<Ident>)],
    router: &Ident,
) -> ImplItem {
    let private = crate::private(Span::call_site());
    let local = Span::mixed_site();
    let fallback = Ident::new("Fallback", local);
    let marker = Ident::new("Wrapped", local);
    let check = Ident::new("check", local);
    let fallbacks = representatives.iter().map(|(function, _)| {
        let tool_attr = format_ident!("{}_tool_attr", function);
        let wrapped = format_ident!("__outcome_wrapped_{}", function);
        quote! {
            fn #tool_attr() -> #private::NotATool {
                #private::NotATool
            }
            fn #wrapped() -> #private::NotWrapped {
                #private::NotWrapped
            }
        }
    });
    let checks = representatives.iter().map(|(function, others)| {
        let tool_attr = format_ident!("{}_tool_attr", function);
        let wrapped = format_ident!("__outcome_wrapped_{}", function);
        let name = function.to_string();
        let message = format!("the tool `{name}` is not inside the outcome boundary");
        let also = match others.as_slice() {
            [] => String::new(),
            others => {
                let names: Vec<String> = others.iter().map(|o| format!("`{o}`")).collect();
                format!(
                    " The same attribute makes tools of {} too.",
                    names.join(", ")
                )
            }
        };
        let note = format!(
            "rmcp's own `#[tool]` made `{name}` a tool: its failures and panics would skip \
             the outcome rules. Use `outcome_runtime::tool` in its place (`use \
             outcome_runtime::tool;` or `#[outcome_runtime::tool]`); it takes the same \
             arguments.{also}"
        );
        let call = quote_spanned! { function.span() =>
            #check((Self::#tool_attr(), Self::#wrapped()));
        };
        quote! {
            {
                #[diagnostic::on_unimplemented(
                    message = #message,
                    label = "this tool skips the boundary",
                    note = #note
                )]
                trait #marker {}
                #[diagnostic::do_not_recommend]
                impl<W> #marker for (#private::NotATool, W) {}
                #[diagnostic::do_not_recommend]
                impl #marker for (#private::rmcp::model::Tool, #private::IsWrapped) {}
                // Never called: it only has to type-check.
                fn #check<T: #marker>(_: T) {}
                #call
            }
        }
    });
    // Named for the router, so that several routers of one type (combined
    // with `+`) each have their own.
    let name = format_ident!("__outcome_router_check_{}", router);
    syn::parse_quote! {
        #[doc(hidden)]
        #[allow(non_snake_case, dead_code, clippy::all)]
        fn #name() {
            trait #fallback {
                #(#fallbacks)*
            }
            impl<T: ?::core::marker::Sized> #fallback for T {}
            #(#checks)*
        }
    }
}
