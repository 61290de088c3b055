//! Replicas of a server behind a round-robin load balancer, sessions and
//! jobs in one Redis: a session and its jobs outlive the replica that held
//! them, a session the client ended is gone on every replica, a stateless
//! client's job reads on any replica, a job whose replica died is settled
//! once, a Redis restarted with persistence keeps every answer, and a
//! Redis that is down or does not answer costs a bounded error, not a hang.
//!
//! Each replica is a process of the notes example (`--http`, `--redis`),
//! built with its `redis` feature; the Redis is a real redis-server the
//! harness starts; the load balancer is a TCP proxy of the test's own that
//! sends each connection to the next replica that accepts it. The client
//! speaks raw streamable HTTP, one connection per request, so that
//! consecutive requests reach consecutive replicas.

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener as StdListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use outcome_runtime::{message::FAULT_MESSAGE, message::RETRY_MESSAGE};
use outcome_tests::redis_server::RedisServer;
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};

/// The bound of each test, its replicas' start included.
const TEST_LIMIT: Duration = Duration::from_secs(120);
/// How long a replica has to start listening.
const START_LIMIT: Duration = Duration::from_secs(60);
/// The store timeout of both stores: every wait on a Redis that is down
/// ends within it.
const STORE_TIMEOUT: Duration = Duration::from_secs(2);
/// What a loaded machine may add to a bounded wait.
const SLACK: Duration = Duration::from_secs(3);
/// The `--max-run` of the replicas: a job whose replica died reads as a
/// fault this long after it started.
const MAX_RUN_SECONDS: u64 = 2;

const PROTOCOL: &str = "2025-06-18";

/// The notes example's executable with the `redis` feature, built once per
/// test binary.
fn notes_example() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| outcome_tests::redis_server::notes_example(&["--features", "notes/redis"]))
}

/// One replica: a process of the notes example, its log kept line by line.
struct Replica {
    port: u16,
    args: Vec<String>,
    child: Option<Child>,
    log: Arc<Mutex<Vec<String>>>,
}

impl Replica {
    /// A replica over streamable HTTP with `args` besides `--http`, once it
    /// listens.
    fn start(args: &[&str]) -> Replica {
        let mut replica = Replica {
            port: 0,
            args: args.iter().map(|arg| (*arg).to_owned()).collect(),
            child: None,
            log: Arc::default(),
        };
        // Another process may take the free port before the replica binds
        // it: then another port.
        for _ in 0..3 {
            replica.port = StdListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port();
            if replica.spawn() {
                return replica;
            }
        }
        panic!("the replica did not start:\n{}", replica.log().join("\n"));
    }

    /// Spawns the process on `self.port`; whether it listens.
    fn spawn(&mut self) -> bool {
        // The lines of the processes before this one do not count.
        let from = self.log.lock().unwrap().len();
        let mut child = Command::new(notes_example())
            .args(["--http", &format!("127.0.0.1:{}", self.port)])
            .args(&self.args)
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the notes example runs");
        let stderr = child.stderr.take().unwrap();
        let log = self.log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                log.lock().unwrap().push(line);
            }
        });
        let child = self.child.insert(child);
        let deadline = Instant::now() + START_LIMIT;
        loop {
            let listening = format!("url=http://127.0.0.1:{}/mcp", self.port);
            let log = self.log.lock().unwrap();
            if log[from..].iter().any(|line| line.contains(&listening)) {
                return true;
            }
            drop(log);
            if child.try_wait().unwrap().is_some() || Instant::now() >= deadline {
                self.kill();
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Kills the process, as a machine that dies would, and waits for it.
    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn address(&self) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], self.port))
    }

    fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A round-robin TCP load balancer: each connection goes to the next
/// replica that accepts one, both ways copied as they are.
struct Proxy {
    address: SocketAddr,
    /// The replica each connection went to, in order.
    served: Arc<Mutex<Vec<usize>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Proxy {
    async fn start(replicas: Vec<SocketAddr>) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let served = Arc::<Mutex<Vec<usize>>>::default();
        let next = Arc::new(AtomicUsize::new(0));
        let task = tokio::spawn({
            let served = served.clone();
            async move {
                while let Ok((mut client, _)) = listener.accept().await {
                    let (replicas, served, next) = (replicas.clone(), served.clone(), next.clone());
                    tokio::spawn(async move {
                        for _ in 0..replicas.len() {
                            let at = next.fetch_add(1, Ordering::Relaxed) % replicas.len();
                            let connect = TcpStream::connect(replicas[at]);
                            let Ok(Ok(mut replica)) =
                                tokio::time::timeout(Duration::from_secs(1), connect).await
                            else {
                                continue;
                            };
                            served.lock().unwrap().push(at);
                            let _ = tokio::io::copy_bidirectional(&mut client, &mut replica).await;
                            return;
                        }
                    });
                }
            }
        });
        Proxy {
            address,
            served,
            task,
        }
    }

    /// The replica the last connection went to.
    fn last(&self) -> usize {
        *self.served.lock().unwrap().last().expect("a connection")
    }

    /// The replicas the last `count` connections went to.
    fn recent(&self, count: usize) -> Vec<usize> {
        let served = self.served.lock().unwrap();
        served[served.len() - count..].to_vec()
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// What a request read: the HTTP status, and the JSON-RPC message that
/// answers it (or the body's text when there is none).
#[derive(Debug)]
struct Reply {
    status: u16,
    message: Option<Value>,
    body: String,
}

impl Reply {
    /// The tool call's result.
    fn result(&self) -> &Value {
        match self.message.as_ref().map(|message| &message["result"]) {
            Some(result) if !result.is_null() => result,
            _ => panic!("not a result: {self:?}"),
        }
    }

    /// The text of the tool call's result.
    fn text(&self) -> &str {
        self.result()["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("no text: {self:?}"))
    }
}

/// A client of the replicas behind the proxy, in one session or none.
struct Client {
    http: reqwest::Client,
    url: String,
    session: Option<String>,
    next_id: u64,
}

impl Client {
    /// A client in a new session, its handshake done.
    async fn session(proxy: &Proxy) -> Client {
        let mut client = Client::stateless(proxy);
        let reply = client
            .send(json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {
                    "protocolVersion": PROTOCOL,
                    "capabilities": {},
                    "clientInfo": {"name": "replicas", "version": "1"},
                },
            }))
            .await;
        assert_eq!(reply.0.status, 200, "{:?}", reply.0);
        client.session = Some(reply.1.expect("a session id"));
        let initialized = client
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        assert_eq!(initialized.0.status, 202, "{:?}", initialized.0);
        client
    }

    /// A client with no session, as a stateless server serves it.
    fn stateless(proxy: &Proxy) -> Client {
        Client {
            // No connection is reused: each request is the proxy's to place.
            http: reqwest::Client::builder()
                .pool_max_idle_per_host(0)
                .timeout(Duration::from_secs(30))
                .build()
                .unwrap(),
            url: format!("http://{}/mcp", proxy.address),
            session: None,
            next_id: 1,
        }
    }

    /// Sends `message`; the reply, and the session id the answer names.
    async fn send(&self, message: Value) -> (Reply, Option<String>) {
        let id = message.get("id").cloned();
        let mut request = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", PROTOCOL)
            .body(message.to_string());
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session);
        }
        let response = request.send().await.expect("the proxy answers");
        let status = response.status().as_u16();
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        let body = response.text().await.unwrap_or_default();
        let message = body
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .chain(std::iter::once(body.as_str()))
            .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
            .find(|message| id.is_some() && message.get("id") == id.as_ref());
        (
            Reply {
                status,
                message,
                body,
            },
            session,
        )
    }

    async fn request(&mut self, method: &str, params: Value) -> Reply {
        let id = self.next_id;
        self.next_id += 1;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send(message).await.0
    }

    async fn call(&mut self, tool: &str, arguments: Value) -> Reply {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
            .await
    }

    async fn status(&mut self, job: &str) -> Reply {
        self.call("job_status", json!({"job": job})).await
    }

    /// Starts the backlink rebuild, which answers with a job; its id.
    async fn start_job(&mut self) -> String {
        let reply = self.call("rebuild_backlinks", json!({})).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        let text = reply.text();
        text.strip_prefix("The work goes on as job '")
            .and_then(|rest| rest.split('\'').next())
            .unwrap_or_else(|| panic!("not a job: {text}"))
            .to_owned()
    }

    /// Polls `job` until it is no longer running; the answer.
    async fn finished(&mut self, job: &str) -> Reply {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let reply = self.status(job).await;
            let running = reply.status == 200 && reply.text().contains("is still running");
            if !running {
                return reply;
            }
            assert!(Instant::now() < deadline, "job {job} never ended");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Ends the session with HTTP DELETE; the status.
    async fn delete(&self) -> u16 {
        self.http
            .delete(&self.url)
            .header("mcp-protocol-version", PROTOCOL)
            .header("mcp-session-id", self.session.as_deref().unwrap())
            .send()
            .await
            .expect("the proxy answers")
            .status()
            .as_u16()
    }
}

/// The answer of a finished backlink rebuild.
fn assert_backlinks(reply: &Reply) {
    assert_eq!(reply.status, 200, "{reply:?}");
    let result = reply.result();
    assert_eq!(result["isError"], false, "{reply:?}");
    assert!(result["structuredContent"]["links"].is_u64(), "{reply:?}");
}

/// What a poll of a job this session does not hold reads.
fn assert_unknown(reply: &Reply, job: &str) {
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(
        reply
            .text()
            .starts_with(&format!("No result is kept for job '{job}'")),
        "{reply:?}"
    );
}

/// `count` replicas of the notes server with `args`, sessions and jobs in
/// `redis`, and the proxy in front of them.
async fn deployment(redis: &RedisServer, count: usize, args: &[&str]) -> (Vec<Replica>, Proxy) {
    let url = redis.url();
    let max_run = MAX_RUN_SECONDS.to_string();
    let mut all = vec!["--redis", &url, "--max-run", &max_run];
    all.extend_from_slice(args);
    let replicas: Vec<Replica> = (0..count).map(|_| Replica::start(&all)).collect();
    let proxy = Proxy::start(replicas.iter().map(Replica::address).collect()).await;
    (replicas, proxy)
}

/// Runs a test's body within [`TEST_LIMIT`], the notes example built
/// first.
async fn bounded(body: impl Future<Output = ()>) {
    notes_example();
    tokio::time::timeout(TEST_LIMIT, body)
        .await
        .expect("the test ends within its limit");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_and_its_job_outlive_their_replica() {
    bounded(async {
        let redis = RedisServer::start();
        let (mut replicas, proxy) = deployment(&redis, 3, &[]).await;
        let mut client = Client::session(&proxy).await;
        let job = client.start_job().await;
        let ran = proxy.last();
        assert_backlinks(&client.finished(&job).await);

        // The replica that ran the job, and held the session, dies; the
        // others restart, so that none holds the session in memory.
        replicas[ran].kill();
        for (at, replica) in replicas.iter_mut().enumerate() {
            if at != ran {
                replica.kill();
                assert!(replica.spawn(), "replica {at} restarts");
            }
        }
        for _ in 0..2 {
            let reply = client.status(&job).await;
            assert_ne!(proxy.last(), ran);
            assert_backlinks(&reply);
        }
        let listed = client.request("tools/list", json!({})).await;
        assert_eq!(listed.status, 200, "{listed:?}");

        // Another session reads what an unknown id reads.
        let mut other = Client::session(&proxy).await;
        assert_unknown(&other.status(&job).await, &job);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_session_is_gone_on_every_replica() {
    bounded(async {
        let redis = RedisServer::start();
        let (_replicas, proxy) = deployment(&redis, 3, &[]).await;
        let mut client = Client::session(&proxy).await;
        // Every replica serves the session, so every one holds it.
        let mut held = std::collections::BTreeSet::new();
        while held.len() < 3 {
            let listed = client.request("tools/list", json!({})).await;
            assert_eq!(listed.status, 200, "{listed:?}");
            held.insert(proxy.last());
        }

        assert_eq!(client.delete().await, 202);
        for _ in 0..3 {
            let reply = client.request("tools/list", json!({})).await;
            assert_eq!(reply.status, 404, "replica {}: {reply:?}", proxy.last());
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateless_clients_job_reads_on_every_replica() {
    bounded(async {
        let redis = RedisServer::start();
        let (_replicas, proxy) = deployment(&redis, 3, &["--stateless"]).await;
        let mut client = Client::stateless(&proxy);
        let job = client.start_job().await;
        assert_backlinks(&client.finished(&job).await);
        let mut read_on = std::collections::BTreeSet::new();
        for _ in 0..3 {
            assert_backlinks(&client.status(&job).await);
            read_on.insert(proxy.last());
        }
        assert_eq!(read_on.len(), 3);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_whose_replica_died_is_settled_once() {
    bounded(async {
        let redis = RedisServer::start();
        let (mut replicas, proxy) = deployment(&redis, 3, &[]).await;
        let mut client = Client::session(&proxy).await;
        // The work takes 300 ms past the call's answer; a replica killed
        // after it ended would prove nothing, so try again then.
        let (job, ran) = loop {
            let job = client.start_job().await;
            let ran = proxy.last();
            replicas[ran].kill();
            let key = format!("outcome:job:{job}");
            if redis.command(&["HEXISTS", &key, "answer"]) == ":0" {
                break (job, ran);
            }
            let port = replicas[ran].port;
            assert!(
                replicas[ran].spawn(),
                "replica {ran} restarts on port {port}"
            );
        };

        // Four pollers at once, through both survivors, race to settle
        // the job once it is past its limit: every one reads the one fault.
        // Request ids are the session's: each poller has its own.
        let polls: Vec<_> = (1..=4)
            .map(|poller| {
                let mut poller = Client {
                    http: client.http.clone(),
                    url: client.url.clone(),
                    session: client.session.clone(),
                    next_id: poller * 1000,
                };
                let job = job.clone();
                tokio::spawn(async move { poller.finished(&job).await })
            })
            .collect();
        for poll in polls {
            let reply = poll.await.unwrap();
            assert_eq!(reply.result()["isError"], true, "{reply:?}");
            assert_eq!(reply.text(), FAULT_MESSAGE, "{reply:?}");
        }
        let settled: Vec<(usize, String)> = replicas
            .iter()
            .enumerate()
            .flat_map(|(at, replica)| replica.log().into_iter().map(move |line| (at, line)))
            .filter(|(_, line)| line.contains(&job) && line.contains("reached its limit"))
            .collect();
        assert_eq!(settled.len(), 1, "{settled:#?}");
        assert_ne!(settled[0].0, ran);
        assert!(settled[0].1.contains("tool_failed"), "{settled:#?}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_restarted_with_persistence_keeps_every_answer() {
    bounded(async {
        let mut redis = RedisServer::start_persistent();
        let (mut replicas, proxy) = deployment(&redis, 2, &[]).await;
        let mut client = Client::session(&proxy).await;
        let job = client.start_job().await;
        assert_backlinks(&client.finished(&job).await);

        redis.restart();
        // Neither replica holds the session any more: both must load it
        // from the restarted Redis.
        for replica in &mut replicas {
            replica.kill();
            assert!(replica.spawn(), "the replica restarts");
        }
        for _ in 0..2 {
            assert_backlinks(&client.status(&job).await);
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_restarted_empty_loses_sessions_and_answers_alike() {
    bounded(async {
        let mut redis = RedisServer::start();
        let (mut replicas, proxy) = deployment(&redis, 2, &[]).await;
        let mut client = Client::session(&proxy).await;
        let job = client.start_job().await;
        let ran = proxy.last();
        assert_backlinks(&client.finished(&job).await);

        redis.restart();
        // The replica that holds the session in memory serves it still,
        // but the answer is gone.
        let other = 1 - ran;
        replicas[other].kill();
        assert_unknown(&client.status(&job).await, &job);
        assert_eq!(proxy.last(), ran);
        // A replica that does not hold it cannot load it: the client
        // starts a new session, as a 404 tells it to.
        assert!(replicas[other].spawn(), "the replica restarts");
        replicas[ran].kill();
        let reply = client.status(&job).await;
        assert_eq!(reply.status, 404, "{reply:?}");
    })
    .await;
}

/// How Redis stops serving the replicas in [`unavailable`].
#[derive(Clone, Copy)]
enum Outage {
    /// The process is killed: connections are refused at once.
    Down,
    /// Every client's commands wait, unanswered, for this long: each
    /// operation waits for the store timeout.
    Unanswered(Duration),
}

/// While Redis is unavailable, a replica serves the sessions it holds,
/// starting a job and loading a session fail within the store timeout, and
/// the client's retry succeeds once Redis is back.
async fn unavailable(outage: Outage) {
    let mut redis = RedisServer::start_persistent();
    let (mut replicas, proxy) = deployment(&redis, 3, &[]).await;
    // `held` is served by every replica, so each holds it in memory;
    // `moved` by the two its handshake reached, which then die.
    let mut held = Client::session(&proxy).await;
    let mut on = std::collections::BTreeSet::new();
    while on.len() < 3 {
        let listed = held.request("tools/list", json!({})).await;
        assert_eq!(listed.status, 200, "{listed:?}");
        on.insert(proxy.last());
    }
    let mut moved = Client::session(&proxy).await;
    for at in proxy.recent(2) {
        replicas[at].kill();
    }
    let back = match outage {
        Outage::Down => {
            redis.stop();
            None
        }
        Outage::Unanswered(pause) => {
            let millis = pause.as_millis().to_string();
            assert_eq!(redis.command(&["CLIENT", "PAUSE", &millis, "ALL"]), "+OK");
            Some(Instant::now() + pause)
        }
    };

    // A session a replica holds is served without the store.
    for _ in 0..2 {
        let started = Instant::now();
        let listed = held.request("tools/list", json!({})).await;
        assert_eq!(listed.status, 200, "{listed:?}");
        assert!(started.elapsed() < STORE_TIMEOUT + SLACK);
    }
    // A job cannot be started: a fault that heals itself, in time.
    let started = Instant::now();
    let reply = held.call("rebuild_backlinks", json!({})).await;
    assert!(started.elapsed() < STORE_TIMEOUT + SLACK);
    assert_eq!(reply.result()["isError"], true, "{reply:?}");
    assert_eq!(reply.text(), RETRY_MESSAGE);

    // A session that must be loaded fails with an HTTP error, in time,
    // which the client retries once Redis is back.
    let started = Instant::now();
    let reply = moved.request("tools/list", json!({})).await;
    assert!(started.elapsed() < STORE_TIMEOUT + SLACK);
    assert_eq!(reply.status, 500, "{reply:?}");
    assert!(reply.body.contains("restore session"), "{reply:?}");
    if let Some(back) = back {
        // Still paused: the failure was the store timeout's.
        assert!(Instant::now() < back, "the pause outlasts the requests");
    }

    if back.is_none() {
        redis.restart();
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let reply = moved.request("tools/list", json!({})).await;
        if reply.status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "{reply:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let job = held.start_job().await;
    assert_backlinks(&held.finished(&job).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_that_is_down_costs_a_bounded_error() {
    bounded(unavailable(Outage::Down)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_that_does_not_answer_costs_at_most_the_store_timeout() {
    bounded(unavailable(Outage::Unanswered(Duration::from_secs(20)))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_session_store_keeps_a_session_for_its_ttl_and_marks_it_closed() {
    use outcome_runtime::session_store::RedisSessionStore;
    use rmcp::model::{ClientCapabilities, Implementation, InitializeRequestParams};
    use rmcp::transport::streamable_http_server::session::store::{SessionState, SessionStore};

    bounded(async {
        let redis = RedisServer::start();
        let ttl = Duration::from_secs(60);
        let store = RedisSessionStore::open(&redis.url())
            .unwrap()
            .with_ttl(ttl)
            .with_timeout(Duration::from_millis(500));
        let params = InitializeRequestParams::new(
            ClientCapabilities::default(),
            Implementation::new("replicas", "1"),
        );
        store
            .store("s-1", &SessionState::new(params.clone()))
            .await
            .unwrap();
        let expiry: u64 = redis.command(&["PTTL", "outcome:session:s-1"])[1..]
            .parse()
            .unwrap();
        assert!(expiry > 50_000 && expiry <= 60_000, "{expiry}");
        let loaded = store.load("s-1").await.unwrap().expect("the session");
        assert_eq!(loaded.initialize_params, params);
        assert!(store.load("s-2").await.unwrap().is_none());

        store.delete("s-1").await.unwrap();
        assert!(store.load("s-1").await.unwrap().is_none());
        assert_eq!(redis.command(&["STRLEN", "outcome:session:s-1"]), ":6");
        // A DELETE of an id the store never held leaves nothing behind.
        store.delete("made-up").await.unwrap();
        assert_eq!(redis.command(&["EXISTS", "outcome:session:made-up"]), ":0");

        // A Redis that does not answer: an error within the timeout.
        assert_eq!(redis.command(&["CLIENT", "PAUSE", "5000", "ALL"]), "+OK");
        let started = Instant::now();
        let error = store.load("s-1").await.unwrap_err();
        assert!(started.elapsed() < Duration::from_millis(500) + SLACK);
        assert_eq!(
            error.to_string(),
            "the session store did not answer within 500ms"
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_expires_a_ttl_after_it_was_last_read() {
    use outcome_runtime::session_store::RedisSessionStore;
    use rmcp::model::{ClientCapabilities, Implementation, InitializeRequestParams};
    use rmcp::transport::streamable_http_server::session::store::{SessionState, SessionStore};

    bounded(async {
        let redis = RedisServer::start();
        let ttl = Duration::from_millis(1_500);
        let store = RedisSessionStore::open(&redis.url()).unwrap().with_ttl(ttl);
        let params = InitializeRequestParams::new(
            ClientCapabilities::default(),
            Implementation::new("replicas", "1"),
        );
        store
            .store("s-1", &SessionState::new(params))
            .await
            .unwrap();
        let expiry = || -> i64 {
            redis.command(&["PTTL", "outcome:session:s-1"])[1..]
                .parse()
                .unwrap()
        };
        // Let some of the TTL pass, then read: the read sets it again.
        let deadline = Instant::now() + Duration::from_secs(10);
        while expiry() > 1_000 {
            assert!(Instant::now() < deadline, "the key's TTL runs down");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let before = expiry();
        assert!(store.load("s-1").await.unwrap().is_some());
        let after = expiry();
        assert!(
            after > before,
            "a read sets the TTL again: {before} ms, then {after} ms"
        );
        // Unread (a load would set the TTL again), the session is gone once
        // the TTL has passed: a replica that must load it finds nothing,
        // and answers 404.
        while redis.command(&["EXISTS", "outcome:session:s-1"]) == ":1" {
            assert!(Instant::now() < deadline, "the session expires");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(store.load("s-1").await.unwrap().is_none());
        assert_eq!(redis.command(&["EXISTS", "outcome:session:s-1"]), ":0");
    })
    .await;
}
