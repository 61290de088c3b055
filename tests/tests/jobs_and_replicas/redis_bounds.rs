//! What one client can make Redis hold, which every replica shares: a job
//! keeps a key of its session, not the header; the job store and the
//! session store hold a bounded number of records, each of a bounded size,
//! and past either bound a new job or session fails in a way the client
//! (and, for a job, the model) can act on, with the operator told at
//! WARNING.
//!
//! Against a real redis-server that the harness starts, on the real clock.

use std::sync::Arc;
use std::time::Duration;

use outcome_runtime::job_store::RedisStore;
use outcome_runtime::testing::{LogCapture, Record};
use outcome_runtime::{
    Deferred, Jobs, ToolError, message::RETRY_MESSAGE, session_store::RedisSessionStore,
    session_store::SessionsInRedis, tool, tool_handler, tool_router,
};
use outcome_tests::redis_server::RedisServer;
use rmcp::ServerHandler;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{ClientCapabilities, Implementation, InitializeRequestParams};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::store::{SessionState, SessionStore};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};

/// How long a call waits inline before it answers with a job.
const DEADLINE: Duration = Duration::from_millis(20);
/// How long the slow tools work.
const WORK: Duration = Duration::from_millis(200);

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

    /// Finish after a while with an answer of 2,000 bytes.
    #[tool]
    async fn wordy(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(DEADLINE, async {
                tokio::time::sleep(WORK).await;
                Ok("x".repeat(2_000))
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

/// Serves `server` over streamable HTTP on a free loopback port, its
/// sessions in `sessions` when given; returns the endpoint.
async fn serve(server: Slow, stateless: bool, sessions: Option<RedisSessionStore>) -> String {
    let server = Arc::new(server);
    let factory = move || Ok(server.clone());
    let mut config = StreamableHttpServerConfig::default().with_legacy_session_mode(!stateless);
    let router = match sessions {
        None => {
            let manager = Arc::new(LocalSessionManager::default());
            axum::Router::new()
                .nest_service("/mcp", StreamableHttpService::new(factory, manager, config))
        }
        Some(store) => {
            config.session_store = Some(Arc::new(store.clone()));
            let manager = Arc::new(SessionsInRedis::new(LocalSessionManager::default(), store));
            axum::Router::new()
                .nest_service("/mcp", StreamableHttpService::new(factory, manager, config))
        }
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{address}/mcp")
}

/// Posts one JSON-RPC message with the `Mcp-Session-Id` `session`, if any:
/// the status, the body's JSON-RPC message (or its text), and the session
/// id the server answered with.
async fn post(url: &str, session: Option<&str>, message: Value) -> (u16, Value, Option<String>) {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    let response = request.body(message.to_string()).send().await.unwrap();
    let status = response.status().as_u16();
    let session = response
        .headers()
        .get("mcp-session-id")
        .map(|id| id.to_str().unwrap().to_owned());
    let body = response.text().await.unwrap();
    let message = body
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .find(|data| data.contains("\"result\"") || data.contains("\"error\""))
        .and_then(|data| serde_json::from_str(data).ok())
        .unwrap_or(Value::String(body));
    (status, message, session)
}

async fn call(url: &str, session: Option<&str>, tool: &str, arguments: Value) -> String {
    let message = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": tool, "arguments": arguments }
    });
    let (status, message, _) = post(url, session, message).await;
    assert_eq!(status, 200, "{message}");
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

fn events(capture: &LogCapture) -> Vec<String> {
    capture
        .take()
        .iter()
        .filter(|r: &&Record| r.target == "outcome_runtime")
        .map(|r| format!("{} {}", r.level, r.name()))
        .collect()
}

/// A session of a server with sessions: its `initialize`, then its
/// `initialized`; the session id the server chose.
async fn open_session(url: &str) -> String {
    let initialize = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": { "name": "a-client", "version": "1.0" }
        }
    });
    let (status, _, session) = post(url, None, initialize).await;
    assert_eq!(status, 200);
    let session = session.expect("a session id");
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    let (status, _, _) = post(url, Some(&session), initialized).await;
    assert_eq!(status, 202);
    session
}

#[tokio::test]
async fn a_job_in_redis_keeps_a_key_of_its_session_not_the_header() {
    let redis = RedisServer::start();
    let jobs = Jobs::redis(&redis.url()).unwrap();
    let url = serve(slow(jobs), false, None).await;
    let (owner, other) = (open_session(&url).await, open_session(&url).await);
    let job = job_in(&call(&url, Some(&owner), "slow", json!({})).await);
    let key = format!("outcome:job:{job}");
    assert_eq!(redis.command(&["HSTRLEN", &key, "owner"]), ":32");
    // The session that started the job reads it; another does not.
    tokio::time::sleep(WORK * 2).await;
    let poll = call(&url, Some(&owner), "job_status", json!({ "job": job })).await;
    assert_eq!(poll, "slow");
    let other = call(&url, Some(&other), "job_status", json!({ "job": job })).await;
    assert!(other.starts_with("No result is kept"), "{other}");
}

#[tokio::test]
async fn in_rmcps_stateless_mode_a_job_in_redis_keeps_no_owner_whatever_the_header() {
    let redis = RedisServer::start();
    // As the guide builds it: nothing said of the transport's mode.
    let jobs = Jobs::redis(&redis.url()).unwrap();
    let url = serve(slow(jobs), true, None).await;
    let huge = "s".repeat(256 << 10);
    let job = job_in(&call(&url, Some(&huge), "slow", json!({})).await);
    let key = format!("outcome:job:{job}");
    assert_eq!(redis.command(&["HSTRLEN", &key, "owner"]), ":0");
    tokio::time::sleep(WORK * 2).await;
    for header in [Some(huge.as_str()), Some("another"), None] {
        let poll = call(&url, header, "job_status", json!({ "job": job })).await;
        assert_eq!(poll, "slow");
    }
}

#[tokio::test]
async fn past_its_capacity_the_redis_job_store_answers_the_retry_message_on_every_replica() {
    let redis = RedisServer::start();
    let capture = LogCapture::new();
    let _guard = capture.set_default();
    // Long enough that both jobs still hold the store while the two calls
    // after them are refused, on a loaded machine too.
    let keep = Duration::from_secs(1);
    let jobs = || {
        Jobs::with_store(RedisStore::open(&redis.url()).unwrap().with_capacity(2))
            .with_keep(keep)
            .with_http_sessions(false)
    };
    // Two replicas share the store and its count.
    let a = serve(slow(jobs()), true, None).await;
    let b = serve(slow(jobs()), true, None).await;
    job_in(&call(&a, None, "slow", json!({})).await);
    let second = job_in(&call(&b, None, "slow", json!({})).await);
    events(&capture);
    for replica in [&a, &b] {
        let refused = call(replica, None, "slow", json!({})).await;
        assert_eq!(refused, RETRY_MESSAGE);
    }
    let records = capture.take();
    // A job whose work ends meanwhile, on a loaded machine, logs its own
    // `tool_call_completed`: the refused calls' lines are the others.
    let logged: Vec<_> = records
        .iter()
        .filter(|r| r.target == "outcome_runtime" && r.name() != "tool_call_completed")
        .map(|r| format!("{} {}", r.level, r.name()))
        .collect();
    assert_eq!(
        logged,
        ["WARN tool_failed", "WARN tool_call_failed"].repeat(2)
    );
    let failed = records.iter().find(|r| r.name() == "tool_failed").unwrap();
    let error = failed.field("error").unwrap_or_default();
    assert!(error.contains("holds 2 jobs, as many as it may"), "{error}");
    assert_eq!(redis.command(&["ZCARD", "outcome:jobs"]), ":2");
    // Once the answers' keep is over, their keys expire, and there is room
    // again; the index counts only the live ones. Polled for, not slept
    // for: a loaded machine ends the work late.
    tokio::time::sleep(WORK + keep).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let poll = call(&a, None, "job_status", json!({ "job": second })).await;
        if poll.starts_with("No result is kept") {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "still kept: {poll}");
        tokio::time::sleep(keep / 4).await;
    }
    job_in(&call(&b, None, "slow", json!({})).await);
    assert_eq!(redis.command(&["ZCARD", "outcome:jobs"]), ":1");
}

#[tokio::test]
async fn an_answer_past_the_redis_value_limit_is_lost_and_said_so() {
    let redis = RedisServer::start();
    let capture = LogCapture::new();
    let _guard = capture.set_default();
    let store = RedisStore::open(&redis.url())
        .unwrap()
        .with_value_limit(1_000);
    let url = serve(slow(Jobs::with_store(store)), true, None).await;
    let job = job_in(&call(&url, None, "wordy", json!({})).await);
    events(&capture);
    tokio::time::sleep(WORK * 2).await;
    assert_eq!(
        events(&capture),
        ["WARN job_answer_lost", "WARN tool_call_failed"]
    );
    let poll = call(&url, None, "job_status", json!({ "job": job })).await;
    assert!(poll.starts_with("No result is kept"), "{poll}");
    assert_eq!(
        redis.command(&["EXISTS", &format!("outcome:job:{job}")]),
        ":0"
    );
    assert_eq!(redis.command(&["EXISTS", "outcome:jobs"]), ":0");
}

fn initialize(name: &str) -> Value {
    json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": { "name": name, "version": "1" }
        }
    })
}

#[tokio::test]
async fn a_session_past_the_value_limit_is_refused_and_the_client_reads_why() {
    let redis = RedisServer::start();
    let store = RedisSessionStore::open(&redis.url()).unwrap();
    let url = serve(slow(Jobs::new()), false, Some(store)).await;
    // Client info of 100 KB, where 16 KiB is the default bound.
    let (status, body, session) = post(&url, None, initialize(&"c".repeat(100_000))).await;
    assert_eq!(status, 500, "{body}");
    assert!(
        body.to_string().contains("initialize parameters take 100"),
        "{body}"
    );
    assert_eq!(session, None);
    assert_eq!(redis.command(&["DBSIZE"]), ":0");
    // A client whose parameters fit starts its session as before.
    let (status, body, session) = post(&url, None, initialize("small")).await;
    assert_eq!(status, 200, "{body}");
    let session = session.expect("a session id");
    assert_eq!(
        redis.command(&["EXISTS", &format!("outcome:session:{session}")]),
        ":1"
    );
}

#[tokio::test]
async fn past_its_capacity_the_session_store_refuses_a_new_session_and_warns_once() {
    let redis = RedisServer::start();
    let capture = LogCapture::new();
    let _guard = capture.set_default();
    let store = RedisSessionStore::open(&redis.url())
        .unwrap()
        .with_capacity(2);
    let state = SessionState::new(InitializeRequestParams::new(
        ClientCapabilities::default(),
        Implementation::new("bounds", "1"),
    ));
    store.store("s-1", &state).await.unwrap();
    store.store("s-2", &state).await.unwrap();
    for id in ["s-3", "s-4"] {
        let refused = store.store(id, &state).await.unwrap_err();
        assert_eq!(
            refused.to_string(),
            "the session store holds 2 sessions, as many as it may"
        );
    }
    // A session the store holds is written again.
    store.store("s-1", &state).await.unwrap();
    assert_eq!(events(&capture), ["WARN session_store_full"]);
    assert_eq!(redis.command(&["EXISTS", "outcome:session:s-3"]), ":0");

    // Over HTTP, a new session is refused before its handshake, and the
    // client reads why.
    let url = serve(slow(Jobs::new()), false, Some(store.clone())).await;
    let (status, body, session) = post(&url, None, initialize("third")).await;
    assert_eq!(status, 500, "{body}");
    assert!(body.to_string().contains("holds 2 sessions"), "{body}");
    assert_eq!(session, None);
    // The store had room when it last wrote (s-1): a crossing again.
    assert_eq!(events(&capture), ["WARN session_store_full"]);
    // Once a session's key is gone, there is room again, and the next
    // crossing is told again.
    redis.command(&["DEL", "outcome:session:s-2"]);
    redis.command(&["ZREM", "outcome:sessions", "s-2"]);
    store.store("s-5", &state).await.unwrap();
    store.store("s-6", &state).await.unwrap_err();
    assert_eq!(events(&capture), ["WARN session_store_full"]);
}

#[tokio::test]
async fn a_session_id_past_its_bound_is_not_kept_and_names_no_session() {
    let redis = RedisServer::start();
    let store = RedisSessionStore::open(&redis.url()).unwrap();
    let state = SessionState::new(InitializeRequestParams::new(
        ClientCapabilities::default(),
        Implementation::new("bounds", "1"),
    ));
    let long = "s".repeat(10_000);
    assert!(store.store(&long, &state).await.is_err());
    assert!(store.load(&long).await.unwrap().is_none());
    store.delete(&long).await.unwrap();
    assert_eq!(redis.command(&["DBSIZE"]), ":0");
}
