//! Writes the pass case too large to check in: a server whose bodies nest
//! hundreds of levels deep, compiled by `tests/pass.rs`.

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("deep-bodies.rs"), deep_bodies())
        .expect("the generated case is written");
    println!("cargo::rerun-if-changed=build.rs");
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
fn deep_bodies() -> String {
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
        r#"// Written by build.rs: bodies nested {DEPTH} levels deep.
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

pub fn main() {{
    let _ = Server.get_tool("tail_0");
}}
"#
    );
    source
}
