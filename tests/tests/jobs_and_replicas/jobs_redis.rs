//! Jobs in Redis, shared by two replicas of one server: a job started on
//! one reads the same on the other, its log lines are written once, by the
//! replica that ran it; a replica that dies mid-job leaves a fault for the
//! polls after its deadline; a Redis that goes away makes calls and polls
//! faults that heal themselves, within a bound, until it is back; over
//! HTTP, a job is read only from the session that started it.
//!
//! Against a real redis-server that the harness starts, on the real clock:
//! tokio's paused clock would fire the Redis client's own timeouts early.

use std::time::{Duration, Instant};

use outcome_runtime::testing::{LogCapture, Record, connect};
use outcome_runtime::{
    Deferred, Jobs, Rule, ToolError, message::FAULT_MESSAGE, message::RETRY_MESSAGE, tool,
    tool_handler, tool_router,
};
use outcome_tests::http_transport::HttpServer;
use outcome_tests::job_of;
use outcome_tests::redis_server::RedisServer;
use rmcp::ServerHandler;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use serde_json::json;

/// How long a call waits inline before it answers with a job.
const DEADLINE: Duration = Duration::from_millis(50);
/// How long the slow tools work.
const WORK: Duration = Duration::from_millis(300);
/// The store timeout of these tests' jobs: the bound of every wait on a
/// Redis that does not answer.
const STORE_TIMEOUT: Duration = Duration::from_millis(500);

struct Slow {
    jobs: Jobs,
    deadline: Duration,
    tools: ToolRouter<Slow>,
}

#[tool_router]
impl Slow {
    /// Finish after a while.
    #[tool]
    async fn slow(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(self.deadline, async {
                tokio::time::sleep(WORK).await;
                Ok("slow".to_owned())
            })
            .await
    }

    /// Fail after a while, with a request the model must change.
    #[tool]
    async fn slow_refusal(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(self.deadline, async {
                tokio::time::sleep(WORK).await;
                // The step of a server whose archives tool is not here.
                Err(
                    ToolError::invalid("No archive named 'x'", "List the archives first")
                        .waive(Rule::NamesTool),
                )
            })
            .await
    }

    /// Finish after a while with an answer of 2 MiB.
    #[tool]
    async fn big(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(self.deadline, async {
                tokio::time::sleep(WORK).await;
                Ok("x".repeat(2 << 20))
            })
            .await
    }

    /// Never finish.
    #[tool]
    async fn endless(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(self.deadline, async {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok("never".to_owned())
            })
            .await
    }
}

#[tool_handler(router = self.tools)]
impl ServerHandler for Slow {}

/// A replica: a server over `jobs`, and a client connected to it.
async fn replica(jobs: Jobs, deadline: Duration) -> RunningService<RoleClient, ()> {
    let tools = Slow::tool_router().with_route(jobs.status_tool());
    outcome_runtime::testing::assert_wrapped(&tools);
    let server = Slow {
        jobs,
        deadline,
        tools,
    };
    connect(server, ()).await.expect("the client connects")
}

/// Jobs in the test's Redis, with the tests' store timeout.
fn redis_jobs(redis: &RedisServer) -> Jobs {
    Jobs::redis(&redis.url())
        .expect("a valid Redis URL")
        .with_store_timeout(STORE_TIMEOUT)
}

async fn call(
    client: &RunningService<RoleClient, ()>,
    tool: &'static str,
    arguments: serde_json::Value,
) -> CallToolResult {
    let params = CallToolRequestParams::new(tool)
        .with_arguments(arguments.as_object().cloned().unwrap_or_default());
    client.call_tool(params).await.expect("a tool result")
}

async fn poll(client: &RunningService<RoleClient, ()>, job: &str) -> CallToolResult {
    call(client, "job_status", json!({ "job": job })).await
}

fn text(result: &CallToolResult) -> &str {
    &result.content[0].as_text().expect("text").text
}

/// The runtime's records since the last look, as `LEVEL name tool`.
fn events(capture: &LogCapture) -> Vec<String> {
    capture
        .take()
        .iter()
        .filter(|r: &&Record| r.target == "outcome_runtime")
        .map(|r| format!("{} {} {}", r.level, r.name(), r.field("tool").unwrap_or("")))
        .collect()
}

fn assert_still_running(result: &CallToolResult) {
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert!(
        text(result).contains("is still running"),
        "{}",
        text(result)
    );
}

#[tokio::test]
async fn a_job_started_on_one_replica_reads_the_same_on_the_other() {
    let redis = RedisServer::start();
    let capture = LogCapture::new();
    let _guard = capture.set_default();
    let a = replica(redis_jobs(&redis), DEADLINE).await;
    let b = replica(redis_jobs(&redis), DEADLINE).await;
    // What the model reads when the same work answers inline.
    let inline = replica(Jobs::new(), Duration::from_secs(10)).await;
    let inline_ok = call(&inline, "slow", json!({})).await;
    let inline_refusal = call(&inline, "slow_refusal", json!({})).await;
    events(&capture);

    for (tool, inline) in [("slow", inline_ok), ("slow_refusal", inline_refusal)] {
        let job = job_of(&call(&a, tool, json!({})).await);
        // The client alternates between the replicas.
        assert_still_running(&poll(&b, &job).await);
        assert_still_running(&poll(&a, &job).await);
        tokio::time::sleep(WORK).await;
        let on_b = poll(&b, &job).await;
        let on_a = poll(&a, &job).await;
        for done in [&on_b, &on_a] {
            assert_eq!(done.is_error, inline.is_error, "{tool}: {done:?}");
            assert_eq!(done.content, inline.content, "{tool}");
            assert_eq!(done.structured_content, inline.structured_content, "{tool}");
        }
        let outcome = if tool == "slow" {
            "INFO tool_call_completed"
        } else {
            "INFO tool_call_failed"
        };
        // The call's own lines once, by A, which ran the work; every poll
        // logs as a poll.
        assert_eq!(
            events(&capture),
            [
                format!("INFO tool_call_deferred {tool}"),
                "INFO tool_call_completed job_status".to_owned(),
                "INFO tool_call_completed job_status".to_owned(),
                format!("{outcome} {tool}"),
                "INFO tool_call_completed job_status".to_owned(),
                "INFO tool_call_completed job_status".to_owned(),
            ],
            "{tool}"
        );
    }
}

#[tokio::test]
async fn a_replica_that_dies_mid_job_leaves_a_fault_for_the_polls_after_its_deadline() {
    let redis = RedisServer::start();
    let max_run = Duration::from_millis(800);
    // Replica A runs on a runtime of its own, which is then dropped with
    // every task on it: the work and its bookkeeping die mid-job, as with
    // the replica's process.
    let url = redis.url();
    let (job, started) = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let job = runtime.block_on(async {
            let jobs = Jobs::redis(&url).unwrap().with_max_run(max_run);
            let a = replica(jobs, DEADLINE).await;
            job_of(&call(&a, "endless", json!({})).await)
        });
        // The call started about DEADLINE before it answered.
        let started = Instant::now() - DEADLINE;
        drop(runtime);
        (job, started)
    })
    .join()
    .unwrap();

    let capture = LogCapture::new();
    let _guard = capture.set_default();
    let b = replica(redis_jobs(&redis).with_max_run(max_run), DEADLINE).await;
    // Until its deadline nobody can tell a dead replica from a slow one.
    assert_still_running(&poll(&b, &job).await);
    assert_eq!(events(&capture), ["INFO tool_call_completed job_status"]);

    tokio::time::sleep(
        (started + max_run + Duration::from_millis(100)).duration_since(Instant::now()),
    )
    .await;
    let stopped = poll(&b, &job).await;
    assert_eq!(stopped.is_error, Some(true));
    assert_eq!(text(&stopped), FAULT_MESSAGE);
    // The job's own lines, once, by the poll that settled it.
    assert_eq!(
        events(&capture),
        [
            "ERROR tool_failed endless",
            "ERROR tool_call_failed endless",
            "INFO tool_call_completed job_status",
        ]
    );
    let again = poll(&b, &job).await;
    assert_eq!(text(&again), FAULT_MESSAGE);
    assert_eq!(events(&capture), ["INFO tool_call_completed job_status"]);
}

#[tokio::test]
async fn with_redis_down_calls_and_polls_heal_themselves_until_it_is_back() {
    let mut redis = RedisServer::start();
    let capture = LogCapture::new();
    let _guard = capture.set_default();
    let a = replica(redis_jobs(&redis), DEADLINE).await;
    let job = job_of(&call(&a, "slow", json!({})).await);
    events(&capture);

    redis.stop();
    // A poll: the store's fault, which heals itself, within the bound.
    let asked = Instant::now();
    let polled = poll(&a, &job).await;
    assert!(asked.elapsed() < STORE_TIMEOUT + Duration::from_millis(500));
    assert_eq!(polled.is_error, Some(true));
    assert_eq!(text(&polled), RETRY_MESSAGE);
    assert_eq!(
        events(&capture),
        [
            "WARN tool_failed job_status",
            "WARN tool_call_failed job_status"
        ]
    );
    // A call that must start a job: the same, and its work is stopped.
    let asked = Instant::now();
    let started = call(&a, "slow", json!({})).await;
    assert!(asked.elapsed() < DEADLINE + STORE_TIMEOUT + Duration::from_millis(500));
    assert_eq!(started.is_error, Some(true));
    assert_eq!(text(&started), RETRY_MESSAGE);
    // The work's answer, had it gone on, is lost with the store: the job
    // that was running when Redis went down says so once, at WARNING, and
    // its one final line is that fault's, never a completed call's.
    tokio::time::sleep(WORK + STORE_TIMEOUT * 3).await;
    let mut logged = events(&capture);
    logged.sort();
    assert_eq!(
        logged,
        [
            "WARN job_answer_lost slow",
            // The running job's final line, and the second call's.
            "WARN tool_call_failed slow",
            "WARN tool_call_failed slow",
            "WARN tool_failed slow",
        ]
    );

    // Back, empty: the old job is gone, and jobs work again.
    redis.restart();
    let gone = poll(&a, &job).await;
    assert_eq!(gone.is_error, Some(true));
    assert!(
        text(&gone).starts_with("No result is kept for job '"),
        "{}",
        text(&gone)
    );
    let job = job_of(&call(&a, "slow", json!({})).await);
    assert_still_running(&poll(&a, &job).await);
    tokio::time::sleep(WORK).await;
    let done = poll(&a, &job).await;
    assert_eq!(done.is_error, Some(false));
    assert_eq!(text(&done), "slow");
}

#[tokio::test]
async fn over_http_a_job_in_redis_is_read_only_from_the_session_that_started_it() {
    let redis = RedisServer::start();
    let server = |jobs: Jobs| {
        let tools = Slow::tool_router().with_route(jobs.status_tool());
        Slow {
            jobs,
            deadline: DEADLINE,
            tools,
        }
    };
    let a = HttpServer::start(server(redis_jobs(&redis))).await;
    let b = HttpServer::start(server(redis_jobs(&redis))).await;
    let owner = a.session().await;
    let job = job_of(owner.call("slow", json!({})).await.ok());
    // What a made-up id reads, on each replica.
    let made_up = "j-0123456789abcdef0123456789abcdef";
    let unknown = |text: &str| text.replace(made_up, &job);
    let unknown_on_a = unknown(
        owner
            .call("job_status", json!({ "job": made_up }))
            .await
            .text(),
    );

    // Another session on the same replica, and one on the other: the record
    // in Redis carries the session, so both read what an unknown id reads.
    for other in [a.session().await, b.session().await] {
        assert_ne!(other.session_id(), owner.session_id());
        let guessed = other.call("job_status", json!({ "job": job })).await;
        assert_eq!(guessed.ok().is_error, Some(true));
        assert_eq!(guessed.text(), unknown_on_a);
    }
    assert_still_running(owner.call("job_status", json!({ "job": job })).await.ok());
    tokio::time::sleep(WORK).await;
    let done = owner.call("job_status", json!({ "job": job })).await;
    assert_eq!(done.text(), "slow");
}

#[tokio::test]
async fn a_redis_that_accepts_but_never_answers_is_a_fault_that_heals_itself_within_the_bound() {
    // A listener that takes every connection and never writes a byte: a
    // Redis hung, or a firewall that swallows replies.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((connection, _)) = listener.accept().await {
            held.push(connection);
        }
    });
    let jobs = Jobs::redis(&format!("redis://{address}"))
        .expect("a valid Redis URL")
        .with_store_timeout(STORE_TIMEOUT);
    let capture = LogCapture::new();
    let _guard = capture.set_default();
    let a = replica(jobs, DEADLINE).await;

    let bound = STORE_TIMEOUT + Duration::from_millis(500);
    let asked = Instant::now();
    let started = call(&a, "slow", json!({})).await;
    assert!(asked.elapsed() < DEADLINE + bound, "{:?}", asked.elapsed());
    assert_eq!(started.is_error, Some(true));
    assert_eq!(text(&started), RETRY_MESSAGE);
    assert_eq!(
        events(&capture),
        ["WARN tool_failed slow", "WARN tool_call_failed slow"]
    );

    let asked = Instant::now();
    let polled = poll(&a, "j-0123456789abcdef0123456789abcdef").await;
    assert!(asked.elapsed() < bound, "{:?}", asked.elapsed());
    assert_eq!(polled.is_error, Some(true));
    assert_eq!(text(&polled), RETRY_MESSAGE);
}

/// Asserts that a poll read that the job's answer is gone, as a fault, and
/// was logged at WARNING.
fn assert_lost(polled: &CallToolResult, capture: &LogCapture) {
    assert_eq!(polled.is_error, Some(true));
    assert!(
        text(polled).contains("may have taken effect"),
        "{}",
        text(polled)
    );
    assert_eq!(
        events(capture),
        [
            "WARN tool_failed job_status",
            "WARN tool_call_failed job_status"
        ]
    );
}

#[tokio::test]
async fn a_flushed_redis_makes_a_running_job_a_fault_logged_once_not_the_models_mistake() {
    let redis = RedisServer::start();
    let capture = LogCapture::new();
    let _guard = capture.set_default();
    let a = replica(redis_jobs(&redis), DEADLINE).await;
    let job = job_of(&call(&a, "slow", json!({})).await);
    assert_eq!(events(&capture), ["INFO tool_call_deferred slow"]);
    assert_eq!(redis.command(&["FLUSHALL"]), "+OK");
    tokio::time::sleep(WORK * 2).await;
    assert_eq!(
        events(&capture),
        ["WARN job_answer_lost slow", "WARN tool_call_failed slow"]
    );
    let asked = Instant::now();
    let polled = poll(&a, &job).await;
    assert!(asked.elapsed() < STORE_TIMEOUT, "{:?}", asked.elapsed());
    assert_lost(&polled, &capture);
}

#[tokio::test]
async fn an_answer_redis_refuses_is_lost_once_and_no_poll_reads_still_running() {
    let redis = RedisServer::start();
    // Redis refuses a bulk string past this: the 2 MiB answer.
    assert_eq!(
        redis.command(&["CONFIG", "SET", "proto-max-bulk-len", "1mb"]),
        "+OK"
    );
    let capture = LogCapture::new();
    let _guard = capture.set_default();
    let a = replica(redis_jobs(&redis), DEADLINE).await;
    let job = job_of(&call(&a, "big", json!({})).await);
    assert_eq!(events(&capture), ["INFO tool_call_deferred big"]);
    tokio::time::sleep(WORK + STORE_TIMEOUT * 3).await;
    // One final line, the fault's; never `tool_call_completed` first.
    assert_eq!(
        events(&capture),
        ["WARN job_answer_lost big", "WARN tool_call_failed big"]
    );
    let polled = poll(&a, &job).await;
    assert_lost(&polled, &capture);
}
