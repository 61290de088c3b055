//! `pass/`: what must compile. `fail/`: what must not, with the compiler's
//! exact messages in the `.stderr` beside each case. Regenerate those with
//! `TRYBUILD=overwrite cargo test -p outcome-ui-tests` and review the diff.
//! Cases too large to check in (bodies nested hundreds of levels deep) are
//! written by the test, into the target directory, and compiled with the
//! rest.

use std::path::PathBuf;

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("pass/*.rs");
    cases.pass(deep_bodies());
    cases.compile_fail("fail/*.rs");
}

/// How deep the generated bodies nest: deeper than the macros' parse goes,
/// and deep enough that parsing them by recursion overflowed the
/// compiler's stack.
const DEPTH: usize = 800;

/// Expressions that syn parses by recursion, `DEPTH` levels deep, that
/// rustc compiles after the macros moved them into the boundary. (The
/// macros' unit tests take every other shape syn recurses on, far deeper.)
fn deep_expressions() -> Vec<String> {
    let d = DEPTH;
    vec![format!("{}1{}", "(".repeat(d), ")".repeat(d))]
}

/// A server whose tools, helpers, constants and `ServerHandler` methods
/// hold the deep expressions, with the paths through the macros that parse
/// a body: an async tool whose tail awaits, a `return` that awaits, a text
/// of `ToolError::invalid` deep inside.
fn deep_bodies() -> PathBuf {
    let mut items = String::new();
    for (i, deep) in deep_expressions().iter().enumerate() {
        items += &format!(
            r#"
    const DEEP_{i}: () = {{ let _ = {deep}; }};

    /// Returns the number {i}.
    #[tool]
    async fn tail_{i}(&self) -> Result<String, ToolError> {{
        let _ = {deep};
        std::future::ready(Ok(String::new())).await
    }}

    /// Returns the number {i}.
    #[tool]
    async fn returns_{i}(&self) -> Result<String, ToolError> {{
        if false {{
            return std::future::ready(Ok(String::new())).await;
        }}
        let _ = {deep};
        Ok(String::new())
    }}

    /// Returns the number {i}.
    #[tool]
    fn sync_{i}(&self) -> Result<String, ToolError> {{
        let _ = {deep};
        Err(({open}ToolError::invalid("No note at that path.", "Find the path with sync_{i}."){close}))
    }}

    fn helper_{i}(&self) -> i64 {{
        let _ = {deep};
        1
    }}
"#,
            open = "(".repeat(DEPTH),
            close = ")".repeat(DEPTH),
        );
    }
    let handler_body = deep_expressions().join(";\n        let _ = ");
    let source = format!(
        r#"//! Written by tests/ui.rs: bodies nested {DEPTH} levels deep.
#![allow(unused, clippy::all)]

use outcome_runtime::{{ToolError, tool, tool_handler, tool_router}};
use rmcp::ServerHandler;

struct Server;

#[tool_router]
impl Server {{
{items}
}}

#[tool_handler]
impl ServerHandler for Server {{
    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {{
        let _ = {handler_body};
        Self::tool_router().get(name).cloned()
    }}
}}

fn main() {{
    let _ = Server.get_tool("tail_0");
}}
"#
    );
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("deep-bodies.rs");
    std::fs::write(&path, source).expect("the generated case is written");
    path
}
