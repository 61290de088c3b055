//! The migration guide's steps, third round, on the shape of a real rmcp
//! file server: its own `thiserror` error type, one `impl From<FsError> for
//! McpError` that picks each variant's code, every tool returning an alias
//! of `Result<CallToolResult, McpError>`, and `?` on the server's own
//! errors throughout.
//!
//! The migration is the imports alone: the alias, the conversion and every
//! `?` stay. What must hold: each refusal stays the model's to change, at
//! INFO, and tells the model no less than before (the argument's value it
//! sent, quoted; the reason the error's `data` held); a path of the server
//! is masked where it stands; an OS error stays a fault, its chain in the
//! log. Each test runs both servers on the same calls.

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
    /// The file's path.
    pub path: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct EditArgs {
    /// The file's path.
    pub path: String,
    /// The text to replace, exactly as the file holds it.
    #[serde(rename = "oldText")]
    pub old_text: String,
    /// The text to put in its place.
    #[serde(rename = "newText")]
    pub new_text: String,
}

/// The server's own code, which the migration leaves alone: its error
/// type, the conversion into rmcp's, and the file system it serves.
mod fs {
    use std::collections::BTreeMap;
    use std::sync::Mutex;

    use rmcp::ErrorData as McpError;
    use serde_json::json;

    /// The only directory the server serves.
    pub const ALLOWED: &str = "/srv/mcp/share";

    #[derive(Debug, thiserror::Error)]
    pub enum FsError {
        #[error(
            "Access denied - path outside allowed directories: {path} not in [{}]",
            ALLOWED
        )]
        OutsideRoot { path: String },
        #[error("File not found: {0}")]
        NotFound(String),
        #[error("invalid_path")]
        InvalidEdit { reason: String },
        #[error("{0}")]
        AlreadyExists(std::io::Error),
        #[error(transparent)]
        Io(#[from] std::io::Error),
    }

    impl From<FsError> for McpError {
        fn from(error: FsError) -> Self {
            match error {
                FsError::OutsideRoot { .. } => McpError::invalid_request(error.to_string(), None),
                FsError::NotFound(path) => {
                    McpError::resource_not_found(format!("File not found: {path}"), None)
                }
                FsError::InvalidEdit { reason } => {
                    McpError::invalid_params("invalid_path", Some(json!({ "reason": reason })))
                }
                FsError::AlreadyExists(_) => McpError::invalid_params(error.to_string(), None),
                FsError::Io(io) => McpError::internal_error(io.to_string(), None),
            }
        }
    }

    pub type Files = Mutex<BTreeMap<String, String>>;

    pub fn files() -> Files {
        Mutex::new(BTreeMap::from([
            ("notes/plan.md".to_owned(), "# Plan".to_owned()),
            ("notes/".to_owned(), String::new()),
            ("broken.md".to_owned(), String::new()),
        ]))
    }

    /// The path as the server resolves it, inside the allowed directory.
    pub fn resolve(path: &str) -> Result<String, FsError> {
        if path.starts_with('/') && !path.starts_with(ALLOWED) {
            return Err(FsError::OutsideRoot {
                path: path.to_owned(),
            });
        }
        let relative = path.strip_prefix(ALLOWED).unwrap_or(path);
        Ok(relative.trim_start_matches('/').to_owned())
    }

    pub fn read(files: &Files, path: &str) -> Result<String, FsError> {
        let key = resolve(path)?;
        if key == "broken.md" {
            // A disk error: the server's, with its own path in the text.
            return Err(FsError::Io(std::io::Error::other(format!(
                "read {ALLOWED}/broken.md: Input/output error"
            ))));
        }
        let files = files.lock().unwrap();
        let text = files.get(&key).ok_or_else(|| {
            // The server names the path it resolved, not the model's.
            FsError::NotFound(format!("{ALLOWED}/{key}"))
        })?;
        Ok(text.clone())
    }

    pub fn edit(files: &Files, path: &str, old: &str, new: &str) -> Result<String, FsError> {
        let text = read(files, path)?;
        if !text.contains(old) {
            return Err(FsError::InvalidEdit {
                reason: format!("oldText not found in {path}: {old}"),
            });
        }
        let edited = text.replacen(old, new, 1);
        files.lock().unwrap().insert(resolve(path)?, edited.clone());
        Ok(edited)
    }

    pub fn create_directory(files: &Files, path: &str) -> Result<(), FsError> {
        let key = format!("{}/", resolve(path)?.trim_end_matches('/'));
        let mut files = files.lock().unwrap();
        if files.contains_key(&key) {
            let exists = std::io::Error::from_raw_os_error(17);
            return Err(FsError::AlreadyExists(exists));
        }
        files.insert(key, String::new());
        Ok(())
    }
}

/// Before: rmcp's macros.
mod with_rmcp {
    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::handler::server::wrapper::Parameters;
    use rmcp::model::{CallToolResult, ContentBlock};
    use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_handler, tool_router};

    use super::fs;
    use super::{EditArgs, PathArgs};

    type ToolResult = Result<CallToolResult, McpError>;

    pub struct Files {
        files: fs::Files,
        tool_router: ToolRouter<Files>,
    }

    #[tool_router]
    impl Files {
        pub fn new() -> Self {
            Files {
                files: fs::files(),
                tool_router: Self::tool_router(),
            }
        }

        /// Read a text file.
        #[tool]
        async fn read_text_file(&self, Parameters(args): Parameters<PathArgs>) -> ToolResult {
            let text = fs::read(&self.files, &args.path)?;
            Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
        }

        /// Replace a text in a file.
        #[tool]
        async fn edit_file(&self, Parameters(args): Parameters<EditArgs>) -> ToolResult {
            let text = fs::edit(&self.files, &args.path, &args.old_text, &args.new_text)?;
            Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
        }

        /// Create a directory.
        #[tool]
        async fn create_directory(&self, Parameters(args): Parameters<PathArgs>) -> ToolResult {
            fs::create_directory(&self.files, &args.path)?;
            Ok(CallToolResult::success(vec![ContentBlock::text("created")]))
        }
    }

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for Files {}
}

/// After: the imports of the three macros swapped; nothing else.
mod migrated {
    use outcome_runtime::{tool, tool_handler, tool_router};
    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::handler::server::wrapper::Parameters;
    use rmcp::model::{CallToolResult, ContentBlock};
    use rmcp::{ErrorData as McpError, ServerHandler};

    use super::fs;
    use super::{EditArgs, PathArgs};

    type ToolResult = Result<CallToolResult, McpError>;

    pub struct Files {
        files: fs::Files,
        tool_router: ToolRouter<Files>,
    }

    #[tool_router]
    impl Files {
        pub fn new() -> Self {
            Files {
                files: fs::files(),
                tool_router: Self::tool_router(),
            }
        }

        /// Read a text file.
        #[tool]
        pub async fn read_text_file(&self, Parameters(args): Parameters<PathArgs>) -> ToolResult {
            let text = fs::read(&self.files, &args.path)?;
            Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
        }

        /// Replace a text in a file.
        #[tool]
        async fn edit_file(&self, Parameters(args): Parameters<EditArgs>) -> ToolResult {
            let text = fs::edit(&self.files, &args.path, &args.old_text, &args.new_text)?;
            Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
        }

        /// Create a directory.
        #[tool]
        fn create_directory(&self, Parameters(args): Parameters<PathArgs>) -> ToolResult {
            if args.path == "panic" {
                panic!("the directory index is corrupt");
            }
            fs::create_directory(&self.files, &args.path)?;
            Ok(CallToolResult::success(vec![ContentBlock::text("created")]))
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
        ("read_text_file", json!({ "path": "notes/plan.md" })),
        (
            "read_text_file",
            json!({ "path": "/srv/mcp/share/notes/plan.md" }),
        ),
        (
            "edit_file",
            json!({ "path": "notes/plan.md", "oldText": "Plan", "newText": "Plans" }),
        ),
        ("create_directory", json!({ "path": "drafts" })),
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
async fn the_servers_own_refusal_stays_the_models_with_its_value_quoted() {
    let (before, after) = both().await;
    let arguments = json!({ "path": "/etc/passwd" });
    let old = before.call("read_text_file", arguments.clone()).await;
    assert_eq!(
        json_rpc_error(&old),
        (
            ErrorCode::INVALID_REQUEST,
            "Access denied - path outside allowed directories: /etc/passwd not in \
             [/srv/mcp/share]"
                .to_owned()
        )
    );
    let new = after.call("read_text_file", arguments).await;
    // The model's path, quoted; the server's, masked where it stood.
    assert_invalid(
        &new,
        "Access denied - path outside allowed directories: '/etc/passwd' not in \
         [a path on the server]. Correct the request, then call read_text_file again.",
    );
}

#[tokio::test]
async fn a_not_found_names_the_models_path_not_the_servers() {
    let (before, after) = both().await;
    let arguments = json!({ "path": "notes/gone.md" });
    let old = before.call("read_text_file", arguments.clone()).await;
    assert_eq!(
        json_rpc_error(&old),
        (
            ErrorCode::RESOURCE_NOT_FOUND,
            "File not found: /srv/mcp/share/notes/gone.md".to_owned()
        )
    );
    let new = after.call("read_text_file", arguments).await;
    assert_invalid(
        &new,
        "File not found: 'notes/gone.md'. Correct the request, then call read_text_file again.",
    );
}

#[tokio::test]
async fn a_reason_only_data_held_is_read() {
    let (before, after) = both().await;
    let arguments = json!({ "path": "notes/plan.md", "oldText": "Budget", "newText": "x" });
    let old = before.call("edit_file", arguments.clone()).await;
    assert_eq!(
        json_rpc_error(&old),
        (ErrorCode::INVALID_PARAMS, "invalid_path".to_owned())
    );
    let new = after.call("edit_file", arguments).await;
    assert_invalid(
        &new,
        "Invalid path: oldText not found in 'notes/plan.md': 'Budget'. Correct the request, \
         then call edit_file again.",
    );
}

#[tokio::test]
async fn an_os_errors_number_is_left_out() {
    let (before, after) = both().await;
    let arguments = json!({ "path": "notes" });
    let old = before.call("create_directory", arguments.clone()).await;
    let (code, text) = json_rpc_error(&old);
    assert_eq!(code, ErrorCode::INVALID_PARAMS);
    assert!(text.ends_with("(os error 17)"), "{text}");
    let new = after.call("create_directory", arguments).await;
    assert_eq!(new.ok().is_error, Some(true));
    assert!(!new.text().contains("os error"), "{}", new.text());
    assert!(
        new.text()
            .ends_with("Correct the request, then call create_directory again."),
        "{}",
        new.text()
    );
    assert_eq!(new.events(), ["INFO tool_call_failed"]);
}

#[tokio::test]
async fn an_internal_error_stays_a_fault_recorded_once() {
    let (_before, after) = both().await;
    let new = after
        .call("read_text_file", json!({ "path": "broken.md" }))
        .await;
    assert_eq!(new.ok().is_error, Some(true));
    assert_eq!(new.text(), FAULT_MESSAGE);
    assert_eq!(
        new.events(),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
    let record = new.record("tool_failed");
    assert!(
        record
            .field("error")
            .is_some_and(|error| error.contains("Input/output error")),
        "{record:?}"
    );
}

/// Called directly, as a unit test does, a tool still returns an
/// `McpError`: invalid params for a refusal (of any code), with the text
/// the model reads.
#[tokio::test]
async fn a_unit_test_reads_the_same_code() {
    use rmcp::handler::server::wrapper::Parameters;
    let files = migrated::Files::new();
    let error = files
        .read_text_file(Parameters(PathArgs {
            path: "/etc/passwd".to_owned(),
        }))
        .await
        .unwrap_err();
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert!(error.message.starts_with("Access denied"), "{error:?}");
}

#[tokio::test]
async fn a_panic_in_a_tool_that_returns_mcp_error_is_one_fault() {
    let (_before, after) = both().await;
    let new = after
        .call("create_directory", json!({ "path": "panic" }))
        .await;
    assert_eq!(new.text(), FAULT_MESSAGE);
    assert_eq!(
        new.events(),
        ["ERROR tool_failed", "ERROR tool_call_failed"]
    );
}
