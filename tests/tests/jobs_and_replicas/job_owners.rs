//! What a client's `Mcp-Session-Id` does to its jobs over streamable HTTP:
//! a job keeps a key of a fixed size, not the header, whatever its length;
//! where rmcp checks no session (its stateless mode, told to the jobs, or a
//! request of the stateless lifecycle), no job is bound to the header, and
//! a job's id alone reads it.
//!
//! Raw HTTP requests, so that the test chooses every header.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use outcome_runtime::job_store::{
    JobStore, MemoryStore, NewJob, StoreFuture, StoredAnswer, StoredJob,
};
use outcome_runtime::{Deferred, Jobs, ToolError, tool, tool_handler, tool_router};
use outcome_tests::http_transport::HttpServer;
use rmcp::ServerHandler;
use rmcp::handler::server::router::tool::ToolRouter;
use serde_json::{Value, json};

/// How long a call waits inline before it answers with a job.
const DEADLINE: Duration = Duration::from_millis(20);
/// How long the slow tool works.
const WORK: Duration = Duration::from_millis(200);

/// A header of 256 KiB: within what hyper reads of a request's head.
fn huge_header() -> String {
    "s".repeat(256 << 10)
}

struct Slow {
    jobs: Jobs,
    tools: ToolRouter<Slow>,
}

#[tool_router]
impl Slow {
    /// Finish after a while.
    #[tool]
    async fn slow(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(DEADLINE, async {
                tokio::time::sleep(WORK).await;
                Ok("slow".to_owned())
            })
            .await
    }
}

#[tool_handler(router = self.tools)]
impl ServerHandler for Slow {}

fn slow(jobs: Jobs) -> Slow {
    Slow {
        tools: Slow::tool_router().with_route(jobs.status_tool()),
        jobs,
    }
}

/// The memory store, noting the size of each owner it is handed, as its
/// `Debug` text: what the record keeps of the session.
#[derive(Clone, Default)]
struct Noting {
    store: MemoryStore,
    owners: Arc<Mutex<Vec<usize>>>,
}

impl JobStore for Noting {
    fn start<'a>(&'a self, id: &'a str, job: NewJob) -> StoreFuture<'a, ()> {
        let size = format!("{:?}", job.owner).len();
        self.owners.lock().unwrap().push(size);
        self.store.start(id, job)
    }

    fn finish<'a>(
        &'a self,
        id: &'a str,
        answer: StoredAnswer,
        keep: Duration,
    ) -> StoreFuture<'a, bool> {
        self.store.finish(id, answer, keep)
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredJob>> {
        self.store.get(id)
    }
}

/// A `tools/call` over HTTP with the `Mcp-Session-Id` `session`, if any;
/// `stateless` adds the `_meta` of protocol 2026-07-28's stateless
/// lifecycle. Returns the text of the result.
async fn call(
    url: &str,
    session: Option<&str>,
    stateless: bool,
    tool: &str,
    arguments: Value,
) -> String {
    let mut params = json!({ "name": tool, "arguments": arguments });
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if stateless {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": { "name": "stateless", "version": "1" }
        });
        request = request
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", tool);
    }
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params });
    let response = request
        .body(body.to_string())
        .send()
        .await
        .expect("the server answers");
    let status = response.status();
    let body = response.text().await.expect("a body");
    assert!(status.is_success(), "{status}: {body}");
    let message = body
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .find(|data| data.contains("\"result\"") || data.contains("\"error\""))
        .unwrap_or(body.trim());
    let message: Value = serde_json::from_str(message).expect("a JSON-RPC response");
    message["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("a tool result: {message}"))
        .to_owned()
}

fn job_in(text: &str) -> String {
    text.strip_prefix("The work goes on as job '")
        .and_then(|rest| rest.split('\'').next())
        .unwrap_or_else(|| panic!("a job: {text}"))
        .to_owned()
}

#[tokio::test]
async fn a_job_keeps_a_key_of_its_session_not_the_header_whatever_its_length() {
    // rmcp's stateless mode checks no session id, so any header reaches
    // the job; the jobs were not told that the transport keeps no session.
    let store = Noting::default();
    let server = HttpServer::start_stateless(slow(Jobs::with_store(store.clone()))).await;
    let huge = huge_header();
    let started = call(&server.url, Some(&huge), false, "slow", json!({})).await;
    let job = job_in(&started);
    let owners = store.owners.lock().unwrap().clone();
    assert_eq!(owners.len(), 1);
    assert!(owners[0] < 200, "the owner takes {} bytes", owners[0]);
    // The same header reads the job: the key stands for it.
    tokio::time::sleep(WORK * 2).await;
    let poll = call(
        &server.url,
        Some(&huge),
        false,
        "job_status",
        json!({ "job": job }),
    )
    .await;
    assert_eq!(poll, "slow");
}

#[tokio::test]
async fn in_rmcps_stateless_mode_a_jobs_id_alone_reads_it_whatever_the_header() {
    let jobs = Jobs::new().with_http_sessions(false);
    let server = HttpServer::start_stateless(slow(jobs)).await;
    let started = call(&server.url, Some(&huge_header()), false, "slow", json!({})).await;
    let job = job_in(&started);
    tokio::time::sleep(WORK * 2).await;
    for header in [None, Some("another")] {
        let poll = call(
            &server.url,
            header,
            false,
            "job_status",
            json!({ "job": job }),
        )
        .await;
        assert_eq!(poll, "slow", "with the header {header:?}");
    }
}

#[tokio::test]
async fn in_rmcps_stateless_mode_the_default_jobs_read_a_job_by_its_id_alone() {
    // Built as the guide shows, told nothing of the transport's mode.
    let server = HttpServer::start_stateless(slow(Jobs::new())).await;
    let started = call(&server.url, Some("from-a-proxy"), false, "slow", json!({})).await;
    let job = job_in(&started);
    tokio::time::sleep(WORK * 2).await;
    for header in [None, Some("another")] {
        let poll = call(
            &server.url,
            header,
            false,
            "job_status",
            json!({ "job": job }),
        )
        .await;
        assert_eq!(poll, "slow", "with the header {header:?}");
    }
}

#[tokio::test]
async fn a_request_of_the_stateless_lifecycle_binds_no_job_to_its_header() {
    // A server with sessions (rmcp's default): a request of protocol
    // 2026-07-28 is still served on its own, and rmcp checks no session id.
    let server = HttpServer::start(slow(Jobs::new())).await;
    let started = call(&server.url, Some("made-up"), true, "slow", json!({})).await;
    let job = job_in(&started);
    tokio::time::sleep(WORK * 2).await;
    for header in [None, Some("another")] {
        let poll = call(
            &server.url,
            header,
            true,
            "job_status",
            json!({ "job": job }),
        )
        .await;
        assert_eq!(poll, "slow", "with the header {header:?}");
    }
}
