//! How long a `job_status` poll takes, through a real rmcp client in
//! memory, with the jobs in this process's memory and in Redis: the p50 and
//! p99 of many polls of a running job and of a finished one.
//!
//! `cargo bench -p outcome-benches --bench job_poll` starts a redis-server
//! of its own on a free loopback port, as the tests do; without
//! redis-server installed it measures memory alone and says so.

use std::time::{Duration, Instant};

use outcome_runtime::testing::connect;
use outcome_runtime::{Deferred, Jobs, ToolError, tool, tool_handler, tool_router};
use rmcp::ServerHandler;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};

#[allow(dead_code)] // The harness's other helpers serve the tests.
use outcome_redis_harness as redis_server;

/// Polls measured per case, after as many again to warm up.
const POLLS: usize = 5_000;

struct Slow {
    jobs: Jobs,
    tools: ToolRouter<Slow>,
}

#[tool_router]
impl Slow {
    /// Answer with a job at once; the work ends soon after.
    #[tool]
    async fn work(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(Duration::ZERO, async {
                tokio::time::sleep(Duration::from_millis(20)).await;
                Ok("done".repeat(64))
            })
            .await
    }

    /// Answer with a job that runs for the whole bench.
    #[tool]
    async fn endless(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(Duration::ZERO, async {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok("never".to_owned())
            })
            .await
    }
}

#[tool_handler(router = self.tools)]
impl ServerHandler for Slow {}

async fn call(client: &RunningService<RoleClient, ()>, tool: &'static str) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(tool))
        .await
        .expect("a tool result")
}

fn job_of(result: &CallToolResult) -> String {
    let text = &result.content[0].as_text().expect("text").text;
    text["The work goes on as job '".len()..]
        .split('\'')
        .next()
        .expect("a job id")
        .to_owned()
}

/// The p50 and p99 of `POLLS` polls of `job`.
async fn polls(client: &RunningService<RoleClient, ()>, job: &str) -> (Duration, Duration) {
    let mut arguments = serde_json::Map::new();
    arguments.insert("job".into(), job.into());
    let params = CallToolRequestParams::new("job_status").with_arguments(arguments);
    let mut took = Vec::with_capacity(POLLS);
    for round in 0..2 * POLLS {
        let started = Instant::now();
        let answer = client.call_tool(params.clone()).await.expect("a poll");
        let elapsed = started.elapsed();
        assert_eq!(answer.is_error, Some(false), "{answer:?}");
        if round >= POLLS {
            took.push(elapsed);
        }
    }
    took.sort();
    (took[POLLS / 2], took[POLLS * 99 / 100])
}

async fn measure(name: &str, jobs: Jobs) {
    let tools = Slow::tool_router().with_route(jobs.status_tool());
    let client = connect(Slow { jobs, tools }, ())
        .await
        .expect("the client connects");
    let running = job_of(&call(&client, "endless").await);
    let finished = job_of(&call(&client, "work").await);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (p50, p99) = polls(&client, &running).await;
    println!("{name:<8} running   p50 {p50:>10.1?}   p99 {p99:>10.1?}");
    let (p50, p99) = polls(&client, &finished).await;
    println!("{name:<8} finished  p50 {p50:>10.1?}   p99 {p99:>10.1?}");
}

fn main() {
    // `cargo test --benches` runs this with `--bench` absent: nothing to
    // measure then.
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    println!("job_status poll latency, {POLLS} polls each, through an in-memory rmcp client");
    runtime.block_on(measure("memory", Jobs::new()));
    let installed = std::process::Command::new("redis-server")
        .arg("--version")
        .output()
        .is_ok();
    if !installed {
        println!("redis      skipped: redis-server is not installed");
        return;
    }
    let redis = redis_server::RedisServer::start();
    runtime.block_on(async {
        let jobs = Jobs::redis(&redis.url()).expect("a valid Redis URL");
        measure("redis", jobs).await;
    });
}
