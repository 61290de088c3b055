//! What the end-to-end tests share: a way to call a server
//! (the notes server of the `notes` crate, or a test's own) through a real
//! rmcp client while capturing the log, in memory or, with
//! [`http_transport`], over rmcp's streamable HTTP transport, and the
//! fixtures that several test files use.
//!
//! Where a test goes, in short (this package's README.md has the whole
//! rule): a test of private code sits next to it, in `src/`; a test of what
//! a user of the crates can see goes in `tests/tests/<feature>.rs`, one
//! file per feature; a compiler message goes in `ui-tests/`.

pub mod hostile;
pub mod http_transport;
pub mod lazy_jobs;
pub mod mixed;
pub mod raw;
pub use outcome_redis_harness as redis_server;
pub mod side_by_side;

use std::sync::{Arc, Mutex};

use outcome_runtime::testing::{LogCapture, Record, connect};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::{ClientHandler, ServerHandler};
use serde_json::Value;
use tracing::subscriber::DefaultGuard;

/// A real rmcp client connected to a server, in memory or over HTTP, with
/// the log of this thread captured. Run it on a current-thread runtime, so
/// the server logs on this thread.
pub struct Session<C: ClientHandler = ()> {
    pub client: RunningService<RoleClient, C>,
    pub capture: LogCapture,
    session_ids: SessionIds,
    /// `None` when the capture is shared with other sessions, and whoever
    /// shares it keeps it the thread's default.
    _guard: Option<DefaultGuard>,
}

/// The HTTP session ids a client sent with its requests, each once, in the
/// order it first sent them. The HTTP harness fills them in from the
/// client's transport; in memory there are none.
#[derive(Clone, Debug, Default)]
pub struct SessionIds(Arc<Mutex<Vec<String>>>);

impl SessionIds {
    /// Notes that the client sent `id`.
    pub fn note(&self, id: &str) {
        let mut ids = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !ids.iter().any(|sent| sent == id) {
            ids.push(id.to_owned());
        }
    }

    /// Every id sent so far.
    pub fn all(&self) -> Vec<String> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
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
    /// Serves `server` in memory, connects `client` to it, and starts the
    /// capture empty.
    pub async fn connect<S: ServerHandler>(server: S, client: C) -> Session<C> {
        let capture = LogCapture::new();
        let guard = capture.set_default();
        let client = connect(server, client)
            .await
            .expect("the client connects to the in-memory server");
        Session::ready(client, capture, Some(guard), SessionIds::default()).await
    }

    /// A session of a client already connected, whose records `capture`
    /// takes: the capture is the thread's default while `guard` lives, or
    /// while its owner keeps it so when it is shared (`guard` is `None`).
    /// `session_ids` are those the client's transport notes.
    ///
    /// Makes one round trip, so that the server has handled `initialized`
    /// (and logged it) before the first call, then empties the capture.
    pub async fn ready(
        client: RunningService<RoleClient, C>,
        capture: LogCapture,
        guard: Option<DefaultGuard>,
        session_ids: SessionIds,
    ) -> Session<C> {
        client
            .list_all_tools()
            .await
            .expect("the server lists its tools");
        capture.take();
        Session {
            client,
            capture,
            session_ids,
            _guard: guard,
        }
    }

    /// The HTTP session id the client sent with its requests; `None` in
    /// memory. Panics if the client sent more than one: it lost its session
    /// and started another.
    pub fn session_id(&self) -> Option<String> {
        match self.session_ids.all().as_slice() {
            [] => None,
            [id] => Some(id.clone()),
            ids => panic!("the client sent several session ids: {ids:?}"),
        }
    }

    /// Calls `tool` with `arguments` (a JSON object).
    pub async fn call(&self, tool: &'static str, arguments: Value) -> Call {
        let mut call = self.call_leaving_records(tool, arguments).await;
        call.records = self.capture.take();
        call
    }

    /// Calls `tool` with `arguments`, and leaves the records in the
    /// capture: for sessions that share one, whose test reads the records
    /// of all their calls together, in the order they were written. The
    /// call's own `records` are empty.
    pub async fn call_leaving_records(&self, tool: &'static str, arguments: Value) -> Call {
        let mut params = CallToolRequestParams::new(tool);
        if let Value::Object(arguments) = arguments {
            params = params.with_arguments(arguments);
        }
        Call {
            result: self.client.call_tool(params).await,
            records: Vec::new(),
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

/// The line, counted from 1, of the one line of `source` that contains
/// `needle`: to check that a panic's location is the user's line. Panics
/// unless exactly one line does.
pub fn line_of(source: &str, needle: &str) -> u32 {
    let mut found = source
        .lines()
        .enumerate()
        .filter(|(_, line)| line.contains(needle));
    let (at, _) = found
        .next()
        .unwrap_or_else(|| panic!("no line contains {needle:?}"));
    assert!(found.next().is_none(), "several lines contain {needle:?}");
    u32::try_from(at + 1).expect("a source file of fewer than 4 billion lines")
}

/// The job id a deferred answer names ("The work goes on as job '…'").
pub fn job_of(result: &CallToolResult) -> String {
    let text = &result.content[0].as_text().expect("a text answer").text;
    let rest = text
        .strip_prefix("The work goes on as job '")
        .unwrap_or_else(|| panic!("not a job answer: {text}"));
    rest.split('\'').next().unwrap_or_default().to_owned()
}
