//! A client that writes JSON-RPC by hand, for what rmcp's own client
//! cannot send (request ids, names and params of any shape), with the
//! server's log written by `tracing-subscriber`'s own formatters, plain
//! text and JSON, as a deployment writes it.

use std::io;
use std::sync::{Arc, Mutex};

use rmcp::{ServerHandler, ServiceExt};
use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};
use tracing::subscriber::DefaultGuard;
use tracing_subscriber::Registry;
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::{Layer, SubscriberExt};

/// How long a request waits for its answer before the test fails.
const ANSWER_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// What the formatters wrote.
#[derive(Clone, Default)]
pub struct Written(Arc<Mutex<Vec<u8>>>);

impl Written {
    /// Everything written so far, as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }

    /// Everything written so far, emptied.
    pub fn take(&self) -> String {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()));
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl io::Write for Written {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Written {
    type Writer = Written;

    fn make_writer(&'a self) -> Written {
        self.clone()
    }
}

/// The log of a server as the notes example writes it to stderr: plain
/// text, and JSON with the current span, both with no colours.
pub struct TextLog {
    pub plain: Written,
    pub json: Written,
    _guard: DefaultGuard,
}

impl TextLog {
    /// Both formatters, for the runtime's records only (target
    /// `outcome_runtime`), the thread's default subscriber until dropped.
    pub fn runtime_only() -> TextLog {
        TextLog::start(Some("outcome_runtime"))
    }

    /// The notes example's set-up: INFO and above from every target, the
    /// plain text with its escaping field formatter.
    pub fn notes() -> TextLog {
        TextLog::build(None, LevelFilter::INFO, true)
    }

    /// Both formatters, for every target, or `target` only.
    pub fn start(target: Option<&str>) -> TextLog {
        TextLog::build(target, LevelFilter::TRACE, false)
    }

    /// Both formatters, behind `filter`, as a server's own subscriber has
    /// them.
    pub fn filtered(filter: Targets) -> TextLog {
        TextLog::with(filter, false)
    }

    fn build(target: Option<&str>, level: LevelFilter, notes_fields: bool) -> TextLog {
        let filter = match target {
            Some(target) => Targets::new().with_target(target, level),
            None => Targets::new().with_default(level),
        };
        TextLog::with(filter, notes_fields)
    }

    fn with(filter: Targets, notes_fields: bool) -> TextLog {
        let plain = Written::default();
        let json = Written::default();
        let plain_layer = tracing_subscriber::fmt::layer()
            .with_ansi(false)
            .with_writer(plain.clone());
        let plain_layer: Box<dyn Layer<Registry> + Send + Sync> = if notes_fields {
            plain_layer.fmt_fields(notes::log::escaped_fields()).boxed()
        } else {
            plain_layer.boxed()
        };
        let json_layer = tracing_subscriber::fmt::layer()
            .with_ansi(false)
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .with_writer(json.clone())
            .boxed();
        let subscriber = tracing_subscriber::registry().with(vec![plain_layer, json_layer]);
        let guard = tracing::subscriber::set_default(subscriber.with(filter));
        TextLog {
            plain,
            json,
            _guard: guard,
        }
    }

    /// Empties both.
    pub fn take(&self) {
        self.plain.take();
        self.json.take();
    }
}

/// A session whose client writes JSON-RPC lines by hand.
pub struct RawSession {
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    write: WriteHalf<DuplexStream>,
}

impl RawSession {
    /// Serves `server` over an in-memory byte stream, as on stdio, and
    /// initializes the session.
    pub async fn start<S: ServerHandler>(server: S) -> RawSession {
        RawSession::start_as(
            server,
            "2025-06-18",
            json!({ "name": "raw", "version": "1" }),
        )
        .await
    }

    /// [`start`](Self::start), with the protocol version and client info
    /// the client's `initialize` names.
    pub async fn start_as<S: ServerHandler>(
        server: S,
        protocol_version: &str,
        client_info: Value,
    ) -> RawSession {
        let (client, server_side) = tokio::io::duplex(64 << 20);
        let (read, write) = tokio::io::split(server_side);
        tokio::spawn(async move {
            if let Ok(running) = server.serve((read, write)).await {
                let _ = running.waiting().await;
            }
        });
        let (read, write) = tokio::io::split(client);
        let mut session = RawSession {
            lines: BufReader::new(read).lines(),
            write,
        };
        let answer = session
            .request(json!({
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": protocol_version,
                    "capabilities": {},
                    "clientInfo": client_info
                }
            }))
            .await;
        assert!(answer.get("result").is_some(), "{answer}");
        session
            .send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await;
        session
    }

    /// Writes one message.
    pub async fn send(&mut self, message: &Value) {
        let mut line = serde_json::to_vec(message).expect("a JSON value serializes");
        line.push(b'\n');
        self.write.write_all(&line).await.expect("the server reads");
    }

    /// Writes one request and reads the server's answer to it (skipping
    /// notifications).
    pub async fn request(&mut self, message: Value) -> Value {
        self.send(&message).await;
        loop {
            let line = tokio::time::timeout(ANSWER_WAIT, self.lines.next_line())
                .await
                .unwrap_or_else(|_| panic!("no answer within {ANSWER_WAIT:?} to {message}"))
                .expect("the server writes")
                .expect("the server answers before it closes");
            let answer: Value = serde_json::from_str(&line).expect("the server writes JSON");
            if answer.get("id").is_some() {
                return answer;
            }
        }
    }

    /// Calls `tools/call` with request id `id` and `params` as given.
    pub async fn call(&mut self, id: Value, params: Value) -> Value {
        self.request(json!({
            "jsonrpc": "2.0",
            "id": id,
            "method": "tools/call",
            "params": params,
        }))
        .await
    }
}
