//! What the end-to-end tests and the tour share: the notes server and a way
//! to call it through a real rmcp client while capturing the log.

#[path = "../../outcome-runtime/examples/notes/server.rs"]
pub mod notes;

pub mod mixed;

use outcome_runtime::testing::{LogCapture, Record, connect};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::{ClientHandler, ServerHandler};
use serde_json::Value;

/// A real rmcp client connected to a server in memory, with the log of this
/// thread captured. Run it on a current-thread runtime, so the server logs
/// on this thread.
pub struct Session<C: ClientHandler = ()> {
    pub client: RunningService<RoleClient, C>,
    pub capture: LogCapture,
    _guard: tracing::subscriber::DefaultGuard,
}

/// One call: what the client got back and the log records it produced.
pub struct Call {
    pub result: Result<CallToolResult, ServiceError>,
    pub records: Vec<Record>,
}

impl Session {
    /// Starts a notes server (`export` as `--export`) and connects to it.
    pub async fn start(export: bool) -> Session {
        Session::connect(notes::Notes::new(export), ()).await
    }
}

impl<C: ClientHandler> Session<C> {
    /// Serves `server`, connects `client` to it, and starts the capture
    /// empty.
    pub async fn connect<S: ServerHandler>(server: S, client: C) -> Session<C> {
        let capture = LogCapture::new();
        let guard = capture.set_default();
        let client = connect(server, client)
            .await
            .expect("the client connects to the in-memory server");
        // One round trip, so the server has handled `initialized` (and
        // logged it) before the first call's records are taken.
        client
            .list_all_tools()
            .await
            .expect("the server lists its tools");
        capture.take();
        Session {
            client,
            capture,
            _guard: guard,
        }
    }

    /// Calls `tool` with `arguments` (a JSON object).
    pub async fn call(&self, tool: &'static str, arguments: Value) -> Call {
        let mut params = CallToolRequestParams::new(tool);
        if let Value::Object(arguments) = arguments {
            params = params.with_arguments(arguments);
        }
        let result = self.client.call_tool(params).await;
        Call {
            result,
            records: self.capture.take(),
        }
    }

    /// The runtime's records since the last take, as `LEVEL name` lines.
    pub fn events(&self) -> Vec<String> {
        events(&self.capture.take())
    }
}

/// The records the runtime wrote, as `LEVEL name` lines.
pub fn events(records: &[Record]) -> Vec<String> {
    records
        .iter()
        .filter(|record| record.target == "outcome_runtime")
        .map(|record| format!("{} {}", record.level, record.name()))
        .collect()
}

impl Call {
    /// The result; panics on a JSON-RPC error.
    pub fn ok(&self) -> &CallToolResult {
        match &self.result {
            Ok(result) => result,
            Err(error) => panic!("expected a tool result, got {error:?}"),
        }
    }

    /// The single text block the model reads.
    pub fn text(&self) -> &str {
        let result = self.ok();
        assert_eq!(result.content.len(), 1, "one content block: {result:?}");
        &result.content[0]
            .as_text()
            .expect("the content is text")
            .text
    }

    /// The records the runtime wrote, as `LEVEL name` lines.
    pub fn events(&self) -> Vec<String> {
        events(&self.records)
    }

    /// The record named `name`; panics unless there is exactly one.
    pub fn record(&self, name: &str) -> &Record {
        let mut found = self.records.iter().filter(|record| record.name() == name);
        let record = found
            .next()
            .unwrap_or_else(|| panic!("no {name} in {:?}", self.records));
        assert!(
            found.next().is_none(),
            "more than one {name}: {:?}",
            self.records
        );
        record
    }

    /// Whether any record, from any target, is at ERROR.
    pub fn has_error(&self) -> bool {
        self.records
            .iter()
            .any(|record| record.level == tracing::Level::ERROR)
    }
}
