//! The migration guide's steps, second round, on the shape many real servers
//! have: a thin `#[tool_router]` whose tools call a handlers module that
//! returns `Result<CallToolResult, McpError>` and uses rmcp's codes as such
//! servers do: `invalid_request` for a path outside the root, on the deny
//! list or too large; `resource_not_found` for a file that is not there,
//! with its text or, as rmcp's examples write it, a code name and the URI in
//! `data`; `invalid_params` with a step that names a tool (with an
//! underscore or, as `tree`, without); `internal_error` for an OS error,
//! the model's to fix ("Directory not empty") or not.
//!
//! The handlers stay as they are. The router changes where the migration guide's
//! table says: the imports, `Result<_, ToolError>`, `Ok(handlers::..?)` as
//! the tail, and one `ToolError::invalid` where the tool knows an OS error
//! is the model's to fix. Each test runs both servers on the same calls.

use std::collections::BTreeMap;

use outcome_runtime::message::FAULT_MESSAGE;
use outcome_tests::{Call, Session};
use rmcp::model::{ErrorCode, Tool};
use rmcp::schemars;
use rmcp::service::ServiceError;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize, schemars::JsonSchema)]
pub struct PathArgs {
    /// The path, relative to the root.
    pub path: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct TreeArgs {
    /// The directory, relative to the root.
    pub path: String,
    /// How many levels deep to go.
    pub depth: u32,
}

/// The handlers, shared by both servers: the migration does not touch them.
mod handlers {
    use std::collections::BTreeMap;
    use std::sync::Mutex;

    use rmcp::ErrorData as McpError;
    use rmcp::model::{CallToolResult, ContentBlock};

    /// The files under the root, by path; a path ending in `/` is a
    /// directory.
    pub type Files = Mutex<BTreeMap<String, String>>;

    /// Files larger than this are refused.
    const MAX_SIZE: usize = 16;

    pub fn files() -> Files {
        Mutex::new(BTreeMap::from([
            ("notes/".to_owned(), String::new()),
            ("notes/plan.md".to_owned(), "# Plan".to_owned()),
            ("big.log".to_owned(), "x".repeat(100)),
            ("secrets.env".to_owned(), "TOKEN=1".to_owned()),
        ]))
    }

    fn checked(path: &str) -> Result<&str, McpError> {
        if path.starts_with('/') || path.split('/').any(|part| part == "..") {
            return Err(McpError::invalid_request(
                format!("Access denied - path outside allowed directories: {path}"),
                None,
            ));
        }
        if path.ends_with(".env") {
            return Err(McpError::invalid_request(
                format!("Access denied - {path} is on the deny list"),
                None,
            ));
        }
        Ok(path)
    }

    pub fn read_file(files: &Files, path: &str) -> Result<CallToolResult, McpError> {
        let path = checked(path)?;
        let files = files.lock().unwrap();
        if path.ends_with('/') {
            return Err(McpError::invalid_params(
                format!("{path} is a directory. Call list_directory to read it."),
                None,
            ));
        }
        let Some(text) = files.get(path) else {
            return Err(McpError::resource_not_found(format!("file://{path}"), None));
        };
        if text.len() > MAX_SIZE {
            return Err(McpError::invalid_request(
                format!(
                    "File too large: {} bytes, the limit is {MAX_SIZE}",
                    text.len()
                ),
                None,
            ));
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(
            text.clone(),
        )]))
    }

    pub fn list_directory(files: &Files, path: &str) -> Result<CallToolResult, McpError> {
        let path = checked(path)?;
        let files = files.lock().unwrap();
        if !files.contains_key(path) {
            return Err(McpError::resource_not_found(
                "resource_not_found",
                Some(serde_json::json!({ "uri": format!("file://{path}") })),
            ));
        }
        let names: Vec<&str> = files
            .keys()
            .filter_map(|name| name.strip_prefix(path))
            .filter(|rest| !rest.is_empty())
            .collect();
        Ok(CallToolResult::success(vec![ContentBlock::text(
            names.join("\n"),
        )]))
    }

    /// Files are at most this deep.
    const MAX_DEPTH: u32 = 3;

    pub fn tree(files: &Files, path: &str, depth: u32) -> Result<CallToolResult, McpError> {
        if depth > MAX_DEPTH {
            return Err(McpError::invalid_params(
                format!(
                    "A depth of {depth} is too deep. Call tree again with a depth of \
                     {MAX_DEPTH} or less."
                ),
                None,
            ));
        }
        list_directory(files, path)
    }

    /// The OS error a directory delete meets, as `std::fs` reports it.
    pub fn remove_dir(files: &Files, path: &str) -> std::io::Result<()> {
        let files = files.lock().unwrap();
        if files
            .keys()
            .any(|name| name.starts_with(path) && name != path)
        {
            return Err(std::io::Error::new(
                std::io::ErrorKind::DirectoryNotEmpty,
                "Directory not empty (os error 39)",
            ));
        }
        Err(std::io::Error::other(format!(
            "I/O error on /srv/root/{path}: read-only file system"
        )))
    }

    pub fn delete_directory(files: &Files, path: &str) -> Result<CallToolResult, McpError> {
        let path = checked(path)?;
        remove_dir(files, path)
            .map_err(|error| McpError::internal_error(error.to_string(), None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text("deleted")]))
    }
}

/// Before: rmcp's macros, a thin router over the handlers.
mod with_rmcp {
    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::handler::server::wrapper::Parameters;
    use rmcp::model::CallToolResult;
    use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_handler, tool_router};

    use super::{PathArgs, TreeArgs, handlers};

    pub struct Files {
        files: handlers::Files,
        tool_router: ToolRouter<Files>,
    }

    #[tool_router]
    impl Files {
        pub fn new() -> Self {
            Files {
                files: handlers::files(),
                tool_router: Self::tool_router(),
            }
        }

        /// Read a file's text.
        #[tool]
        async fn read_file(
            &self,
            Parameters(args): Parameters<PathArgs>,
        ) -> Result<CallToolResult, McpError> {
            handlers::read_file(&self.files, &args.path)
        }

        /// List a directory's entries.
        #[tool]
        async fn list_directory(
            &self,
            Parameters(args): Parameters<PathArgs>,
        ) -> Result<CallToolResult, McpError> {
            handlers::list_directory(&self.files, &args.path)
        }

        /// List a directory and what it holds.
        #[tool]
        async fn tree(
            &self,
            Parameters(args): Parameters<TreeArgs>,
        ) -> Result<CallToolResult, McpError> {
            handlers::tree(&self.files, &args.path, args.depth)
        }

        /// Delete an empty directory.
        #[tool]
        async fn delete_directory(
            &self,
            Parameters(args): Parameters<PathArgs>,
        ) -> Result<CallToolResult, McpError> {
            handlers::delete_directory(&self.files, &args.path)
        }
    }

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for Files {}
}

/// After: the same router, changed where the migration guide's table says.
mod migrated {
    use outcome_runtime::{ToolError, quote, tool, tool_handler, tool_router};
    use rmcp::ServerHandler;
    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::handler::server::wrapper::Parameters;
    use rmcp::model::CallToolResult;

    use super::{PathArgs, TreeArgs, handlers};

    pub struct Files {
        files: handlers::Files,
        tool_router: ToolRouter<Files>,
    }

    #[tool_router]
    impl Files {
        pub fn new() -> Self {
            Files {
                files: handlers::files(),
                tool_router: Self::tool_router(),
            }
        }

        /// Read a file's text.
        #[tool]
        async fn read_file(
            &self,
            Parameters(args): Parameters<PathArgs>,
        ) -> Result<CallToolResult, ToolError> {
            Ok(handlers::read_file(&self.files, &args.path)?)
        }

        /// List a directory's entries.
        #[tool]
        async fn list_directory(
            &self,
            Parameters(args): Parameters<PathArgs>,
        ) -> Result<CallToolResult, ToolError> {
            Ok(handlers::list_directory(&self.files, &args.path)?)
        }

        /// List a directory and what it holds.
        #[tool]
        async fn tree(
            &self,
            Parameters(args): Parameters<TreeArgs>,
        ) -> Result<CallToolResult, ToolError> {
            Ok(handlers::tree(&self.files, &args.path, args.depth)?)
        }

        /// Delete an empty directory.
        #[tool]
        async fn delete_directory(
            &self,
            Parameters(args): Parameters<PathArgs>,
        ) -> Result<CallToolResult, ToolError> {
            // The one OS error the model can act on, said where the tool
            // knows it; every other stays a fault.
            if let Err(error) = handlers::remove_dir(&self.files, &args.path)
                && error.kind() == std::io::ErrorKind::DirectoryNotEmpty
            {
                return Err(ToolError::invalid(
                    format_args!("Directory {} is not empty", quote(&args.path)),
                    "Call list_directory to see what it holds, and delete that first",
                ));
            }
            Ok(handlers::delete_directory(&self.files, &args.path)?)
        }
    }

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for Files {}
}

async fn both() -> (Session, Session) {
    (
        Session::connect(with_rmcp::Files::new(), ()).await,
        Session::connect(migrated::Files::new(), ()).await,
    )
}

async fn tools(session: &Session) -> BTreeMap<String, Value> {
    let tools: Vec<Tool> = session.client.list_all_tools().await.unwrap();
    tools
        .into_iter()
        .map(|tool| (tool.name.to_string(), serde_json::to_value(&tool).unwrap()))
        .collect()
}

/// The JSON-RPC error rmcp answered with, before the migration.
fn json_rpc_error(call: &Call) -> (ErrorCode, String) {
    match &call.result {
        Err(ServiceError::McpError(error)) => (error.code, error.message.to_string()),
        other => panic!("a JSON-RPC error: {other:?}"),
    }
}

/// Outcome 2 after the migration: what the model reads, at INFO only.
fn assert_invalid(call: &Call, text: &str) {
    assert_eq!(call.ok().is_error, Some(true));
    assert_eq!(call.text(), text);
    assert_eq!(call.events(), ["INFO tool_call_failed"]);
    assert_eq!(
        call.record("tool_call_failed").field("outcome"),
        Some("invalid")
    );
}

#[tokio::test]
async fn tools_list_and_results_are_the_same_after_the_migration() {
    let (before, after) = both().await;
    assert_eq!(tools(&before).await, tools(&after).await);
    for (tool, arguments) in [
        ("read_file", json!({ "path": "notes/plan.md" })),
        ("list_directory", json!({ "path": "notes/" })),
        ("tree", json!({ "path": "notes/", "depth": 2 })),
    ] {
        let old = before.call(tool, arguments.clone()).await;
        let new = after.call(tool, arguments).await;
        assert_eq!(
            serde_json::to_value(old.ok()).unwrap(),
            serde_json::to_value(new.ok()).unwrap()
        );
        assert_eq!(new.events(), ["INFO tool_call_completed"]);
    }
}

#[tokio::test]
async fn invalid_request_stays_the_models_to_change() {
    let (before, after) = both().await;
    let cases = [
        (
            // The path the model sent is its own to read back, quoted.
            "/etc/passwd",
            "Access denied - path outside allowed directories: '/etc/passwd'. \
             Correct the request, then call read_file again.",
        ),
        (
            "secrets.env",
            "Access denied - 'secrets.env' is on the deny list. \
             Correct the request, then call read_file again.",
        ),
        (
            "big.log",
            "File too large: 100 bytes, the limit is 16. \
             Correct the request, then call read_file again.",
        ),
    ];
    for (path, text) in cases {
        // Before: a JSON-RPC error; rmcp logs it at WARN with no tool.
        let old = before.call("read_file", json!({ "path": path })).await;
        assert_eq!(json_rpc_error(&old).0, ErrorCode::INVALID_REQUEST);
        // After: outcome 2 at INFO, never the fault message, never ERROR.
        let new = after.call("read_file", json!({ "path": path })).await;
        assert_invalid(&new, text);
        assert_ne!(new.text(), FAULT_MESSAGE);
    }
}

#[tokio::test]
async fn resource_not_found_stays_the_models_to_change() {
    let (before, after) = both().await;
    let old = before
        .call("read_file", json!({ "path": "notes/gone.md" }))
        .await;
    assert_eq!(json_rpc_error(&old).0, ErrorCode::RESOURCE_NOT_FOUND);
    let new = after
        .call("read_file", json!({ "path": "notes/gone.md" }))
        .await;
    assert_invalid(
        &new,
        "Not found: file://notes/gone.md. Correct the request, then call read_file again.",
    );
    // As rmcp's examples write it: a code name, and the URI in `data`.
    let old = before
        .call("list_directory", json!({ "path": "drafts/" }))
        .await;
    assert_eq!(
        json_rpc_error(&old),
        (
            ErrorCode::RESOURCE_NOT_FOUND,
            "resource_not_found".to_owned()
        )
    );
    let new = after
        .call("list_directory", json!({ "path": "drafts/" }))
        .await;
    assert_invalid(
        &new,
        "Resource not found: 'file://drafts/'. Correct the request, then call list_directory \
         again.",
    );
}

#[tokio::test]
async fn a_step_the_server_wrote_is_not_said_twice() {
    let (_before, after) = both().await;
    let new = after.call("read_file", json!({ "path": "notes/" })).await;
    assert_invalid(
        &new,
        "'notes/' is a directory. Call list_directory to read it.",
    );
    // A tool whose name has no underscore, named as the step.
    let new = after
        .call("tree", json!({ "path": "notes/", "depth": 9 }))
        .await;
    assert_invalid(
        &new,
        "A depth of 9 is too deep. Call tree again with a depth of 3 or less.",
    );
}

#[tokio::test]
async fn an_os_error_is_a_fault_unless_the_tool_says_it_is_the_models() {
    let (before, after) = both().await;
    // Not empty: the model's to fix, said by the migrated tool.
    let old = before
        .call("delete_directory", json!({ "path": "notes/" }))
        .await;
    assert_eq!(json_rpc_error(&old).0, ErrorCode::INTERNAL_ERROR);
    let new = after
        .call("delete_directory", json!({ "path": "notes/" }))
        .await;
    assert_invalid(
        &new,
        "Directory 'notes/' is not empty. \
         Call list_directory to see what it holds, and delete that first.",
    );
    // Any other: a fault, the server path in the log only.
    let old = before
        .call("delete_directory", json!({ "path": "empty/" }))
        .await;
    assert!(
        json_rpc_error(&old).1.contains("/srv/root"),
        "before: the path reached the client"
    );
    let new = after
        .call("delete_directory", json!({ "path": "empty/" }))
        .await;
    assert_eq!(new.text(), FAULT_MESSAGE);
    assert_eq!(
        new.events(),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
    let logged = new.record("tool_failed").field("error").unwrap_or_default();
    assert!(logged.contains("/srv/root/empty/"), "{logged}");
}
