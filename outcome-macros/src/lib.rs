//! Procedural macros of `outcome-runtime`. Depend on `outcome-runtime`,
//! which re-exports them with their documentation; this crate is an
//! implementation detail.

#![forbid(unsafe_code)]

mod args;
mod depth;
mod description;
mod literals;
mod router;
mod tool;
mod tool_handler;
mod tools;

use proc_macro::TokenStream;

/// The path of the runtime's module for expansions,
/// `::outcome_runtime::__private_<version>`, every token at `span`.
///
/// The module is named for this crate's version, which the runtime pins
/// exactly: a macro crate of any other version names a module the runtime
/// does not have, and fails to compile instead of misbehaving.
fn private(span: proc_macro2::Span) -> proc_macro2::TokenStream {
    let version: String = env!("CARGO_PKG_VERSION")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let module = proc_macro2::Ident::new(&format!("__private_{version}"), span);
    quote::quote_spanned! { span => ::outcome_runtime::#module }
}

/// A drop-in for rmcp's `#[tool]`, with the body inside the outcome boundary.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand(attr.into(), item.into()).into()
}

/// A drop-in for rmcp's `#[tool_router]`, with the router check.
#[proc_macro_attribute]
pub fn tool_router(attr: TokenStream, item: TokenStream) -> TokenStream {
    router::expand(attr.into(), item.into()).into()
}

/// rmcp's `#[tool_handler]`, with request logging.
#[proc_macro_attribute]
pub fn tool_handler(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool_handler::expand(attr.into(), item.into()).into()
}

/// The mark `#[tool_router]` writes after each tool attribute of its block:
/// the router has checked the tool's texts against the server's tools, so
/// `#[tool]` removes it and checks them no more; where another macro made
/// the tool (rmcp's `#[tool]`), it is left on the method, and expands to
/// the method unchanged.
#[doc(hidden)]
#[proc_macro_attribute]
pub fn __texts_checked(_attr: TokenStream, item: TokenStream) -> TokenStream {
    item
}

#[cfg(test)]
mod robustness {
    //! No input makes the expansions panic: every input, malformed or not,
    //! comes back as tokens (an expansion, or compile errors and the item).

    use proc_macro2::{
        Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree,
    };

    type Expand = fn(TokenStream, TokenStream) -> TokenStream;

    const MACROS: [(&str, Expand); 3] = [
        ("tool", crate::tool::expand),
        ("tool_router", crate::router::expand),
        ("tool_handler", crate::tool_handler::expand),
    ];

    #[test]
    fn malformed_input_never_panics_and_always_expands_to_something() {
        let attrs = [
            "",
            "name",
            "name =",
            "= \"x\"",
            "name = \"a\" name = \"b\"",
            "name(,)",
            "annotations(read_only_hint)",
            "router = ",
            "router = 1 + ",
            "vis = pub",
            "description = \"Fails if it fails.\"",
            "::a::b",
            "a::b = 1",
            ",,,",
            "other_tools(a, \"b\", 1 + 2)",
            "other_tools = 1",
        ];
        let items = [
            "",
            "fn",
            "fn f",
            "fn f(",
            "fn f() ->",
            "fn f() -> Result<",
            "struct S;",
            "impl",
            "impl S",
            "impl S {",
            "impl S { fn }",
            "impl S { #[tool] fn f(&self) }",
            "#[doc = 1] fn f(&self) {}",
            "#[doc = include_str!(\"x\")] fn f(&self) {}",
            "/// # Only\n fn f(&self) {}",
            "async fn f(&self) -> {}",
            "const fn f() {}",
            "impl<T> ServerHandler for S<T> {}",
            "trait T {}",
            "fn f(&self) { ) }",
            "fn f(&self) { ToolError::invalid(\"\",) ToolError::stale(,,) ToolError::retry_later() }",
            "fn f(&self) { ToolError::invalid ToolError::retry_later(r\"\" \" \") ::invalid(\"\") }",
            "fn f(&self) { ToolError::invalid(format!(\"{\"), format!(\"}\")) }",
            "#[__texts_checked(\"a\"(\"b\"), 1, \"c\"())] fn f(&self) { ToolError::invalid(\"x\", \"Call d\") }",
            "#[x::__texts_checked] #[__texts_checked = 1] fn f(&self) {}",
            "impl S { #[tool] #[tool(name = \"a\")] fn f(&self, Parameters(A { b }): P) {} fn g() { ToolError::invalid(\"x\", \"Call a\") } }",
            "fn f(&self) { ToolError::stale(format!(\"{{{\"), format_args!(\"{:?\")) }",
            "fn f(&self) { ToolError::retry_later(::std::format!(\"{}}{{}\", x)) }",
            "fn f(&self) { ToolError::invalid(format!(), format!(x)).waive() }",
            "fn f(&self) { ToolError::invalid(format!(\"{\u{FFFC}\"), \"Call\").waive(Rule::).waive }",
            "fn f(&self) { ToolError::retry_later(format!(\"\u{FFFC}/srv/{} at {:>}\")).waive(Rule::NoPath) }",
        ];
        for (name, expand) in MACROS {
            for attr in attrs {
                let attr: TokenStream = attr.parse().expect("the attribute lexes");
                for item in items {
                    let Ok(item) = item.parse::<TokenStream>() else {
                        continue;
                    };
                    let output = std::panic::catch_unwind(|| expand(attr.clone(), item.clone()))
                        .unwrap_or_else(|_| panic!("#[{name}({attr})] on `{item}` panicked"));
                    // Either an error, or an expansion: never nothing for
                    // input that was not empty.
                    assert!(
                        item.is_empty() || !output.is_empty(),
                        "{name}: {attr} / {item}"
                    );
                }
            }
        }
    }

    /// Bodies nested far deeper than the macros parse, in every shape syn
    /// reads by recursion, in a tool (async with an awaiting tail and
    /// `return`, and sync), a helper and a `const` of a router's block, and
    /// a `ServerHandler` method: each expands on a thread with less stack
    /// than the compiler's, the deep body left as written.
    #[test]
    fn deep_bodies_expand_without_overflowing_the_stack() {
        let d = 100_000;
        let shapes = [
            format!("{}1{}", "(".repeat(d), ")".repeat(d)),
            format!("{}1{}", "{".repeat(d), "}".repeat(d)),
            format!("{}1{}", "[".repeat(d), "]".repeat(d)),
            format!("{}1", "|| ".repeat(d)),
            format!("{}1", "- ".repeat(d)),
            format!("{}true", "!".repeat(d)),
            format!("{}1", "a = ".repeat(d)),
            format!("1{}", ".a()".repeat(d)),
            format!("1{}", " + 1".repeat(d)),
            format!("if a {{ 1 }}{} else {{ 2 }}", " else if a { 1 }".repeat(d)),
            format!("{}1{}", "vec![".repeat(d), "]".repeat(d)),
        ];
        let items = |deep: &str| {
            [
                (
                    "tool",
                    format!(
                        "/// Doc.\nasync fn f(&self) -> Result<String, ToolError> {{ \
                         if a {{ return g().await; }} let x = {deep}; g().await }}"
                    ),
                ),
                (
                    "tool",
                    format!(
                        "/// Doc.\nfn f(&self) -> Result<String, ToolError> {{ let x = {deep}; \
                         Err(ToolError::invalid(\"Bad.\", \"Call f.\")) }}"
                    ),
                ),
                (
                    "tool_router",
                    format!(
                        "impl S {{ const C: i32 = {deep}; fn helper() {{ {deep} }} /// Doc.\n \
                         #[tool] async fn f(&self) -> Result<String, ToolError> {{ \
                         let x = {deep}; g().await }} }}"
                    ),
                ),
                (
                    "tool_handler",
                    format!("impl ServerHandler for S {{ fn get_info(&self) -> X {{ {deep} }} }}"),
                ),
            ]
        };
        for deep in shapes {
            for (name, item) in items(&deep) {
                let expand = MACROS.iter().find(|(n, _)| *n == name).expect("a macro").1;
                let shown = format!("#[{name}] on {}...", &item[..60.min(item.len())]);
                let expanded = std::thread::Builder::new()
                    .stack_size(2 << 20)
                    .spawn(move || {
                        let item: TokenStream = item.parse().expect("the item lexes");
                        let output = expand(TokenStream::new(), item);
                        // Not a compile error: the deep body is fine. (The
                        // errors come first, at the top level.)
                        !output.into_iter().any(|token| {
                            matches!(&token, TokenTree::Ident(ident) if ident == "compile_error")
                        })
                    })
                    .expect("the thread starts")
                    .join();
                assert!(matches!(expanded, Ok(true)), "{shown}");
            }
        }
    }

    /// A router of ten thousand tools, each text naming another: every
    /// text is checked against the one list, built once for the block, with
    /// the tool it answers set for each method.
    #[test]
    fn ten_thousand_tools_in_one_router() {
        let tools: String = (0..10_000)
            .map(|i| {
                format!(
                    "/// Returns {i}.\n#[tool] fn tool_{i}(&self) -> Result<String, ToolError> {{ \
                     Err(ToolError::invalid(\"No note.\", \"Call tool_{}.\")) }}\n",
                    (i + 1) % 10_000
                )
            })
            .collect();
        let item: TokenStream = format!("impl S {{ {tools} }}").parse().expect("lexes");
        let output = crate::router::expand(TokenStream::new(), item);
        let errors = output
            .into_iter()
            .filter(|token| matches!(token, TokenTree::Ident(ident) if ident == "compile_error"))
            .count();
        assert_eq!(errors, 0);
        // A misspelled name among them is still found, and named.
        let item: TokenStream = format!(
            "impl S {{ {tools} fn helper() {{ ToolError::invalid(\"No note.\", \"Call tool_1x.\"); }} }}"
        )
        .parse()
        .expect("lexes");
        let output = crate::router::expand(TokenStream::new(), item).to_string();
        assert!(
            output.contains("did you mean `tool_1`"),
            "{}",
            &output[..300]
        );
    }

    /// A small generator of random token trees; xorshift, so every run sees
    /// the same cases and a failure reproduces.
    struct Random(u64);

    impl Random {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: u64) -> usize {
            (self.next() % n) as usize
        }

        fn stream(&mut self, depth: u32) -> TokenStream {
            let length = self.below(12);
            (0..length).map(|_| self.tree(depth)).collect()
        }

        fn tree(&mut self, depth: u32) -> TokenTree {
            const WORDS: [&str; 18] = [
                "fn",
                "impl",
                "async",
                "self",
                "Self",
                "tool",
                "doc",
                "name",
                "description",
                "Result",
                "ToolError",
                "pub",
                "const",
                "router",
                "annotations",
                "local",
                "S",
                "for",
            ];
            const PUNCT: [char; 10] = ['#', '=', ',', ':', '&', '<', '>', '-', '!', ';'];
            match self.below(if depth == 0 { 4 } else { 5 }) {
                0 => TokenTree::Ident(Ident::new(WORDS[self.below(18)], Span::call_site())),
                1 => {
                    let spacing = if self.below(2) == 0 {
                        Spacing::Alone
                    } else {
                        Spacing::Joint
                    };
                    TokenTree::Punct(Punct::new(PUNCT[self.below(10)], spacing))
                }
                2 => TokenTree::Literal(Literal::string("Return a value. Fails if not.")),
                3 => TokenTree::Literal(Literal::u64_unsuffixed(self.next() % 100)),
                _ => {
                    let delimiter = [Delimiter::Brace, Delimiter::Bracket, Delimiter::Parenthesis]
                        [self.below(3)];
                    TokenTree::Group(Group::new(delimiter, self.stream(depth - 1)))
                }
            }
        }
    }

    #[test]
    fn random_token_trees_never_panic() {
        let mut random = Random(0x9E37_79B9_7F4A_7C15);
        for _ in 0..3000 {
            let attr = random.stream(2);
            let mut item = random.stream(3);
            if random.below(2) == 0 {
                // Half the cases look like a method, to get past the first
                // checks and into the deeper ones.
                item = format!("/// Doc.\nfn f(&self) -> Result<(), E> {{ {item} }}")
                    .parse()
                    .unwrap_or(item);
            }
            for (name, expand) in MACROS {
                let (attr, item) = (attr.clone(), item.clone());
                let shown = format!("#[{name}({attr})] {item}");
                std::panic::catch_unwind(move || expand(attr, item))
                    .unwrap_or_else(|_| panic!("panicked on {shown}"));
            }
        }
    }
}
