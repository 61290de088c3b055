//! What `#[tool_router]` reads: the arguments, typed, and the impl block,
//! its header and each method's attributes and signature parsed, every body
//! kept as tokens.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote};
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Ident, ImplItem, ItemImpl, Signature, Token, Visibility};

use crate::args::{self, Errors, Parsed, Shape};
use crate::tools::ToolList;

/// Every argument rmcp's `#[tool_router]` takes.
const ARGS: &[(&str, Shape)] = &[
    ("router", Shape::Expr),
    ("vis", Shape::Str),
    ("server_handler", Shape::Flag),
    ("allow_empty", Shape::Flag),
    // Ours, not rmcp's: taken off before anything is handed on.
    ("other_tools", Shape::List),
];

/// The arguments of `#[tool_router(..)]`, each in its own field. A value
/// that cannot be read is reported, and what the user most likely meant
/// (a misspelled argument as the one it is closest to) or the default
/// stands in for it, so that the router function exists under the
/// expected name and code that calls it, such as `#[tool_handler]`, does
/// not fail too.
pub(crate) struct RouterArgs {
    /// The router function's name: `router = name`, else `tool_router`.
    pub(crate) router: Ident,
    /// The router function's visibility: `vis = "..."`, else private.
    pub(crate) vis: TokenStream,
    pub(crate) server_handler: bool,
    pub(crate) allow_empty: bool,
    /// `other_tools(job_status, "list_jobs")`: tools of the server that this
    /// block does not define, which its texts may name.
    pub(crate) other_tools: Vec<String>,
}

impl RouterArgs {
    pub(crate) fn read(attr: TokenStream, errors: &mut Errors) -> RouterArgs {
        let parsed = args::parse("#[tool_router]", attr, ARGS, errors);
        RouterArgs {
            router: router_name(&parsed, errors),
            vis: visibility(&parsed, errors),
            server_handler: parsed.get("server_handler").is_some(),
            allow_empty: parsed.get("allow_empty").is_some(),
            other_tools: other_tools(&parsed, errors),
        }
    }
}

/// The names in `other_tools(..)`: plain names or string literals.
fn other_tools(args: &Parsed, errors: &mut Errors) -> Vec<String> {
    let Some(syn::Meta::List(list)) = args.get("other_tools").map(|arg| &arg.meta) else {
        return Vec::new();
    };
    let names = match list
        .parse_args_with(syn::punctuated::Punctuated::<syn::Expr, Token![,]>::parse_terminated)
    {
        Ok(names) => names,
        Err(error) => {
            errors.push(error);
            return Vec::new();
        }
    };
    let mut tools = Vec::new();
    for name in names {
        match &name {
            syn::Expr::Path(path) if path.path.get_ident().is_some() => {
                tools.extend(path.path.get_ident().map(ToString::to_string));
            }
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) => tools.push(text.value()),
            other => errors.push(syn::Error::new_spanned(
                other,
                "`other_tools` lists the names of tools: `other_tools(job_status, \"list-jobs\")`",
            )),
        }
    }
    tools
}

/// The name of the router function. A value that is not a plain name is
/// an error; a path then gives its last name (`router = Self::tools` meant
/// `tools`).
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

/// The router function's visibility. A text that is not a visibility is
/// an error, and then `pub`, which no use of the function can fail for.
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

/// An impl block as the router needs it: its header parsed, each method's
/// attributes and signature parsed, and every body left as tokens, so no
/// body costs a parse. The block is written back as it came, with the
/// generated items added at its end.
pub(crate) struct Block {
    /// `impl<..> Type where ..`, or `impl<..> Trait for Type`, with an
    /// empty body.
    pub(crate) header: ItemImpl,
    /// The tokens before the body.
    pub(crate) head_tokens: Vec<TokenTree>,
    /// The body, as written.
    pub(crate) body: Group,
    pub(crate) methods: Vec<Method>,
}

/// A method of the block: its attributes and signature.
pub(crate) struct Method {
    pub(crate) attrs: Vec<Attribute>,
    pub(crate) sig: Signature,
    /// The body, unparsed; `None` for a method without one.
    pub(crate) body: Option<TokenTree>,
}

impl Method {
    /// Whether the method is a tool: it has an attribute whose last segment
    /// is `tool`, as rmcp's `#[tool_router]` decides it too.
    pub(crate) fn is_tool(&self) -> bool {
        self.attrs.iter().any(crate::tool::is_tool_attribute)
    }

    /// The tool's name on the wire: its attribute's `name = ".."`, else the
    /// method's name.
    pub(crate) fn tool_name(&self) -> String {
        self.tool_str("name")
            .map_or_else(|| self.sig.ident.to_string(), |name| name.value())
    }

    /// Why the tool's input schema is not checked, if its attribute says
    /// `unchecked_input = ".."`.
    pub(crate) fn unchecked_input(&self) -> Option<syn::LitStr> {
        self.tool_str("unchecked_input")
    }

    /// The text of the tool attribute's `key = ".."`.
    fn tool_str(&self, key: &str) -> Option<syn::LitStr> {
        self.attrs
            .iter()
            .filter(|attr| crate::tool::is_tool_attribute(attr))
            .find_map(|attr| {
                let syn::Meta::List(list) = &attr.meta else {
                    return None;
                };
                let metas = list
                    .parse_args_with(
                        syn::punctuated::Punctuated::<syn::Meta, Token![,]>::parse_terminated,
                    )
                    .ok()?;
                metas.into_iter().find_map(|meta| match meta {
                    syn::Meta::NameValue(pair) if pair.path.is_ident(key) => match pair.value {
                        syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Str(text),
                            ..
                        }) => Some(text),
                        _ => None,
                    },
                    _ => None,
                })
            })
    }
}

impl Block {
    /// Every tool of the server this block's texts may name: its own, with
    /// their parameters where the signature shows them, and `other_tools`.
    pub(crate) fn tools(&self, args: &RouterArgs) -> ToolList {
        let mut tools = ToolList::default();
        for method in self.methods.iter().filter(|method| method.is_tool()) {
            tools.push(method.tool_name(), crate::tools::parameters(&method.sig));
        }
        for other in &args.other_tools {
            tools.push(other.clone(), None);
        }
        tools
    }
}

impl Block {
    pub(crate) fn parse(item: &TokenStream) -> syn::Result<Block> {
        // Syn's own error for the whole item, unless the item nests deeper
        // than the macro parses.
        let whole = |otherwise: syn::Error| {
            let limit = crate::depth::LIMIT;
            if crate::depth::weight(item.clone(), limit) > limit {
                return otherwise;
            }
            syn::parse2::<ItemImpl>(item.clone())
                .err()
                .unwrap_or(otherwise)
        };
        let mut head_tokens: Vec<TokenTree> = item.clone().into_iter().collect();
        let Some(TokenTree::Group(body)) = head_tokens.pop() else {
            // Not an impl block: syn says what is wrong.
            return Err(whole(syn::Error::new(
                Span::call_site(),
                "expected an impl block",
            )));
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
                return Err(whole(syn::Error::new_spanned(
                    &body,
                    "expected the impl block's body",
                )));
            }
        };
        let methods = methods(body.stream())?;
        Ok(Block {
            header,
            head_tokens,
            body,
            methods,
        })
    }

    pub(crate) fn is_trait_impl(&self) -> bool {
        self.header.trait_.is_some()
    }
}

/// The methods of an impl block's body; other items are parsed whole and
/// passed over. The body is split into its items by their tokens first,
/// and syn reads each method without its body: syn reads every token it is
/// given, by recursion, and a body may nest deeper than the macro's stack
/// goes. An item that is not a method is parsed for syn's error if it is
/// malformed, unless it nests deeper than the macro parses (a `const` with
/// a deep expression, see `depth::LIMIT`): then it is passed over as
/// written, as is a method whose signature nests that deep.
fn methods(body: TokenStream) -> syn::Result<Vec<Method>> {
    let tokens: Vec<TokenTree> = body.into_iter().collect();
    let mut methods = Vec::new();
    let mut rest = &tokens[..];
    while !rest.is_empty() {
        let (item, tail) = rest.split_at(item_end(rest));
        rest = tail;
        let mut item: TokenStream = item.iter().cloned().collect();
        // An item a `macro_rules!` substituted (`$item`) comes in an
        // invisible group of its own.
        loop {
            let mut tokens = item.clone().into_iter();
            match (tokens.next(), tokens.next()) {
                (Some(TokenTree::Group(group)), None) if group.delimiter() == Delimiter::None => {
                    item = group.stream();
                }
                _ => break,
            }
        }
        let (head, body) = crate::tool::without_body(&item);
        let limit = crate::depth::LIMIT;
        if crate::depth::weight(head.clone(), limit) > limit {
            continue;
        }
        let method = |input: ParseStream| {
            let attrs = input.call(Attribute::parse_outer)?;
            input.parse::<Visibility>()?;
            input.parse::<Option<Token![default]>>()?;
            let sig: Signature = input.parse()?;
            if input.peek(Token![;]) {
                input.parse::<Token![;]>()?;
            } else if input.peek(syn::token::Brace) {
                input.parse::<TokenTree>()?;
            } else {
                return Err(input.error("expected a body"));
            }
            Ok(Method {
                attrs,
                sig,
                body: body.clone(),
            })
        };
        match Parser::parse2(method, head) {
            Ok(method) => methods.push(method),
            Err(_) => {
                if crate::depth::weight(item.clone(), limit) <= limit {
                    syn::parse2::<ImplItem>(item)?;
                }
            }
        }
    }
    Ok(methods)
}

/// How many of `tokens` the item at their front takes: an invisible group
/// that ends in a body (an item a `macro_rules!` substituted), or up to and with the first `;`
/// outside any group, or up to a brace group that ends a
/// function (`fn` came before it) or a macro call (`name! { .. }`), with a
/// `;` right after it.
fn item_end(tokens: &[TokenTree]) -> usize {
    let mut function = false;
    let mut bang = false;
    let mut ident = false;
    for (at, token) in tokens.iter().enumerate() {
        if at == 0
            && let TokenTree::Group(group) = token
            && group.delimiter() == Delimiter::None
            && matches!(group.stream().into_iter().last(), Some(TokenTree::Group(body))
                if body.delimiter() == Delimiter::Brace)
        {
            return 1;
        }
        let ends = match token {
            TokenTree::Punct(punct) => punct.as_char() == ';',
            TokenTree::Group(group) => group.delimiter() == Delimiter::Brace && (function || bang),
            TokenTree::Ident(name) => {
                function |= name == "fn";
                false
            }
            TokenTree::Literal(_) => false,
        };
        bang = ident && matches!(token, TokenTree::Punct(punct) if punct.as_char() == '!');
        ident = matches!(token, TokenTree::Ident(_));
        if ends {
            let semi = matches!(token, TokenTree::Group(_))
                && matches!(tokens.get(at + 1), Some(TokenTree::Punct(punct)) if punct.as_char() == ';');
            return at + 1 + usize::from(semi);
        }
    }
    tokens.len()
}
