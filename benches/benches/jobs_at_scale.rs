//! Jobs at scale: 64 clients at once, each starting a job and polling it
//! over streamable HTTP, against replicas of the notes example in their own
//! processes. The anchor is one replica keeping its jobs in memory; the
//! case measured is two replicas sharing a Redis for their sessions and
//! jobs (`--redis`), the clients split between
//! them. Reported: the p50 and p99 of a `job_status` poll, and their ratio.
//! Over HTTP on a small machine the HTTP round trips of 64 clients queue
//! behind each other, so the same 64 clients are measured again in this
//! process, over rmcp's in-memory transport, against servers whose jobs are
//! in memory, then in a shared Redis through two `Jobs` (two replicas'
//! worth of connections): what the store itself adds at that load.
//!
//! `cargo bench -p outcome-benches --bench jobs_at_scale` builds the notes
//! example with the `redis` feature and starts a redis-server of its own on
//! a free loopback port, as the tests do.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use outcome_runtime::testing::connect;
use outcome_runtime::{Deferred, Jobs, ToolError, tool, tool_handler, tool_router};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ServerHandler, ServiceExt};

#[allow(dead_code)] // The harness's other helpers serve the tests.
use outcome_redis_harness as redis_server;

/// Clients at once.
const CLIENTS: usize = 64;

/// Polls each client makes and keeps, after as many again to warm up.
const POLLS: usize = 100;

/// The notes example's executable, built with the `redis` feature.
fn notes_example() -> PathBuf {
    redis_server::notes_example(&["--release", "--features", "notes/redis"])
}

/// A replica of the notes example serving streamable HTTP; killed on drop.
struct Replica {
    child: Child,
    address: SocketAddr,
}

impl Replica {
    fn start(notes: &PathBuf, redis: Option<&str>) -> Replica {
        let address = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port");
        let mut command = Command::new(notes);
        command.args(["--http", &address.to_string()]);
        if let Some(url) = redis {
            command.args(["--redis", url]);
        }
        // A deployment writes its log; here it costs the same but nobody
        // reads it.
        let child = command
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the replica starts");
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(address).is_err() {
            assert!(Instant::now() < deadline, "the replica listens in time");
            std::thread::sleep(Duration::from_millis(20));
        }
        Replica { child, address }
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.address)
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A server whose one tool answers with a job that ends soon.
struct Worker {
    jobs: Jobs,
    tools: ToolRouter<Worker>,
}

#[tool_router]
impl Worker {
    /// Start work that ends soon; poll it with job_status.
    #[tool]
    async fn work(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(Duration::ZERO, async {
                tokio::time::sleep(Duration::from_millis(20)).await;
                Ok("done".repeat(64))
            })
            .await
    }
}

#[tool_handler(router = self.tools)]
impl ServerHandler for Worker {}

/// One client in this process, over the in-memory transport, against a
/// server of its own whose jobs are in `jobs`: the time of its last
/// `POLLS` polls.
async fn client_in_process(jobs: Jobs) -> Vec<Duration> {
    let tools = Worker::tool_router().with_route(jobs.status_tool());
    let client = connect(Worker { jobs, tools }, ())
        .await
        .expect("the client connects");
    let started = client
        .call_tool(CallToolRequestParams::new("work"))
        .await
        .expect("an answer");
    polls(&client, &job_of(&started)).await
}

/// Runs `CLIENTS` clients in this process at once, spread over `jobs`; the
/// p50 and p99 of their polls.
async fn measure_in_process(jobs: &[Jobs]) -> (Duration, Duration) {
    let clients: Vec<_> = (0..CLIENTS)
        .map(|index| tokio::spawn(client_in_process(jobs[index % jobs.len()].clone())))
        .collect();
    let mut took = Vec::with_capacity(CLIENTS * POLLS);
    for client in clients {
        took.extend(client.await.expect("the client ends"));
    }
    percentiles(took)
}

fn percentiles(mut took: Vec<Duration>) -> (Duration, Duration) {
    took.sort();
    (took[took.len() / 2], took[took.len() * 99 / 100])
}

fn job_of(result: &CallToolResult) -> String {
    let text = &result.content[0].as_text().expect("text").text;
    let start = text.find("j-").expect("a job id");
    text[start..start + 34].to_owned()
}

/// One client: starts a job on `url`, then polls it `2 * POLLS` times and
/// gives the time of the last `POLLS`.
async fn client(url: String) -> Vec<Duration> {
    let transport = StreamableHttpClientTransport::from_uri(url);
    let client = ().serve(transport).await.expect("the client connects");
    let started = client
        .call_tool(CallToolRequestParams::new("rebuild_backlinks"))
        .await
        .expect("an answer");
    let took = polls(&client, &job_of(&started)).await;
    let _ = client.cancel().await;
    took
}

/// Polls `job` `2 * POLLS` times; the time of the last `POLLS`.
async fn polls<S>(
    client: &rmcp::service::RunningService<rmcp::RoleClient, S>,
    job: &str,
) -> Vec<Duration>
where
    S: rmcp::service::Service<rmcp::RoleClient>,
{
    let mut arguments = serde_json::Map::new();
    arguments.insert("job".into(), job.into());
    let poll = CallToolRequestParams::new("job_status").with_arguments(arguments);
    let mut took = Vec::with_capacity(POLLS);
    for round in 0..2 * POLLS {
        let at = Instant::now();
        let answer = client.call_tool(poll.clone()).await.expect("a poll");
        let elapsed = at.elapsed();
        assert_eq!(answer.is_error, Some(false), "{answer:?}");
        if round >= POLLS {
            took.push(elapsed);
        }
    }
    took
}

/// Runs `CLIENTS` clients at once, spread over `replicas`; the p50 and p99
/// of their polls.
async fn measure(replicas: &[Replica]) -> (Duration, Duration) {
    let urls: Arc<[String]> = replicas.iter().map(Replica::url).collect();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|index| tokio::spawn(client(urls[index % urls.len()].clone())))
        .collect();
    let mut took = Vec::with_capacity(CLIENTS * POLLS);
    for client in clients {
        took.extend(client.await.expect("the client ends"));
    }
    percentiles(took)
}

fn main() {
    // `cargo test --benches` runs this with `--bench` absent: nothing to
    // measure then.
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    let notes = notes_example();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    println!("job_status poll over streamable HTTP, {CLIENTS} clients at once, {POLLS} polls each");
    let memory = [Replica::start(&notes, None)];
    let (memory_p50, memory_p99) = runtime.block_on(measure(&memory));
    drop(memory);
    println!("memory, 1 replica     p50 {memory_p50:>9.2?}   p99 {memory_p99:>9.2?}");
    let redis = redis_server::RedisServer::start();
    let url = redis.url();
    let replicas = [
        Replica::start(&notes, Some(&url)),
        Replica::start(&notes, Some(&url)),
    ];
    let (redis_p50, redis_p99) = runtime.block_on(measure(&replicas));
    println!("redis, 2 replicas     p50 {redis_p50:>9.2?}   p99 {redis_p99:>9.2?}");
    ratio(memory_p50, memory_p99, redis_p50, redis_p99);
    drop(replicas);
    println!("the same clients in this process, over the in-memory transport");
    let (memory_p50, memory_p99) = runtime.block_on(measure_in_process(&[Jobs::new()]));
    println!("memory, 1 store       p50 {memory_p50:>9.2?}   p99 {memory_p99:>9.2?}");
    let (redis_p50, redis_p99) = runtime.block_on(async {
        let jobs = [
            Jobs::redis(&url).expect("a valid Redis URL"),
            Jobs::redis(&url).expect("a valid Redis URL"),
        ];
        measure_in_process(&jobs).await
    });
    println!("redis, 2 connections  p50 {redis_p50:>9.2?}   p99 {redis_p99:>9.2?}");
    ratio(memory_p50, memory_p99, redis_p50, redis_p99);
}

fn ratio(memory_p50: Duration, memory_p99: Duration, redis_p50: Duration, redis_p99: Duration) {
    println!(
        "redis / memory        p50 {:>8.2}x   p99 {:>8.2}x",
        redis_p50.as_secs_f64() / memory_p50.as_secs_f64(),
        redis_p99.as_secs_f64() / memory_p99.as_secs_f64()
    );
}
