//! Long-running tools: past the deadline the call answers with a job; the
//! poll reads what the inline call would have given; the log gets that
//! call's lines once; nothing outlives its bound, not even a job whose
//! fault or value is hostile; a job is read only from the session that
//! started it.
//!
//! Most run on tokio's paused clock: time moves only when every task waits
//! on a timer, so the bounds are exact and the tests take no real time.

use std::time::Duration;

use outcome_runtime::job_store::MemoryStore;
use outcome_runtime::testing::{Record, connect};
use outcome_runtime::{
    Deferred, Jobs, Rule, ToolError, message::FAULT_MESSAGE, message::RETRY_MESSAGE, quote, tool,
    tool_handler, tool_router,
};
use outcome_tests::Session;
use outcome_tests::hostile::{KEEP, MAX_RUN, failed, hostile, jobs, poll_until_done, session};
use outcome_tests::job_of;
use rmcp::ServerHandler;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use serde_json::json;

const DEADLINE: Duration = Duration::from_millis(50);
const WORK: Duration = Duration::from_millis(300);

struct Slow {
    jobs: Jobs,
    tools: ToolRouter<Slow>,
}

#[tool_router]
impl Slow {
    /// Finish well inside the deadline.
    #[tool]
    async fn quick(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(DEADLINE, async { Ok("quick".to_owned()) })
            .await
    }

    /// Finish past the deadline.
    #[tool]
    async fn slow(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(DEADLINE, async {
                tokio::time::sleep(WORK).await;
                Ok("slow".to_owned())
            })
            .await
    }

    /// Fail past the deadline, with a request the model must change.
    #[tool]
    async fn slow_refusal(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(DEADLINE, async {
                tokio::time::sleep(WORK).await;
                // The step of a server whose archives tool is not here.
                Err(
                    ToolError::invalid("No archive named 'x'", "List the archives first")
                        .waive(Rule::NamesTool),
                )
            })
            .await
    }

    /// Panic past the deadline.
    #[tool]
    async fn slow_panic(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(DEADLINE, async {
                tokio::time::sleep(WORK).await;
                panic!("the job panicked")
            })
            .await
    }

    /// Never finish.
    #[tool]
    async fn endless(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(DEADLINE, async {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok("never".to_owned())
            })
            .await
    }
}

#[tool_handler(router = self.tools)]
impl ServerHandler for Slow {}

/// A session with the slow server, and its jobs.
struct Harness {
    session: Session,
    jobs: Jobs,
}

impl Harness {
    async fn start(jobs: Jobs) -> Harness {
        let tools = Slow::tool_router().with_route(jobs.status_tool());
        outcome_runtime::testing::assert_wrapped(&tools);
        let server = Slow {
            jobs: jobs.clone(),
            tools,
        };
        Harness {
            session: Session::connect(server, ()).await,
            jobs,
        }
    }

    /// Calls `tool`, leaving its records for `events` with what follows.
    async fn call(&self, tool: &'static str, arguments: serde_json::Value) -> CallToolResult {
        let params = CallToolRequestParams::new(tool)
            .with_arguments(arguments.as_object().cloned().unwrap_or_default());
        self.session.client.call_tool(params).await.unwrap()
    }

    /// The runtime's records since the last look, as `LEVEL name tool`.
    fn events(&self) -> Vec<String> {
        self.session
            .capture
            .take()
            .iter()
            .filter(|r: &&Record| r.target == "outcome_runtime")
            .map(|r| format!("{} {} {}", r.level, r.name(), r.field("tool").unwrap_or("")))
            .collect()
    }
}

fn text(result: &CallToolResult) -> &str {
    &result.content[0].as_text().unwrap().text
}

#[tokio::test(start_paused = true)]
async fn work_that_ends_in_time_answers_as_usual() {
    let harness = Harness::start(Jobs::new()).await;
    let result = harness.call("quick", json!({})).await;
    assert_eq!(text(&result), "quick");
    assert_eq!(harness.events(), ["INFO tool_call_completed quick"]);
    assert!(harness.jobs.is_empty());
}

#[tokio::test(start_paused = true)]
async fn past_the_deadline_the_model_polls_for_the_same_answer() {
    let harness = Harness::start(Jobs::new()).await;
    let deferred = harness.call("slow", json!({})).await;
    assert_eq!(deferred.is_error, Some(false));
    let job = job_of(&deferred);
    assert_eq!(harness.events(), ["INFO tool_call_deferred slow"]);

    let running = harness.call("job_status", json!({ "job": job })).await;
    assert!(
        text(&running).contains("is still running"),
        "{}",
        text(&running)
    );
    assert_eq!(harness.events(), ["INFO tool_call_completed job_status"]);

    tokio::time::sleep(WORK * 2).await;
    assert_eq!(harness.events(), ["INFO tool_call_completed slow"]);
    let done = harness.call("job_status", json!({ "job": job })).await;
    assert_eq!(done.is_error, Some(false));
    assert_eq!(text(&done), "slow");
    assert_eq!(harness.events(), ["INFO tool_call_completed job_status"]);
}

#[tokio::test(start_paused = true)]
async fn a_job_that_fails_reads_as_the_inline_failure_and_logs_once() {
    let harness = Harness::start(Jobs::new()).await;
    let job = job_of(&harness.call("slow_refusal", json!({})).await);
    tokio::time::sleep(WORK * 2).await;
    let done = harness.call("job_status", json!({ "job": job })).await;
    assert_eq!(done.is_error, Some(true));
    assert_eq!(
        text(&done),
        "No archive named 'x'. List the archives first."
    );
    assert_eq!(
        harness.events(),
        [
            "INFO tool_call_deferred slow_refusal",
            "INFO tool_call_failed slow_refusal",
            "INFO tool_call_completed job_status",
        ]
    );

    let job = job_of(&harness.call("slow_panic", json!({})).await);
    tokio::time::sleep(WORK * 2).await;
    let done = harness.call("job_status", json!({ "job": job })).await;
    assert_eq!(text(&done), FAULT_MESSAGE);
    assert_eq!(
        harness.events(),
        [
            "INFO tool_call_deferred slow_panic",
            "ERROR tool_failed slow_panic",
            "ERROR tool_call_failed slow_panic",
            "INFO tool_call_completed job_status",
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn an_unpolled_job_is_dropped_after_its_keep_time() {
    let keep = Duration::from_millis(100);
    let harness = Harness::start(Jobs::new().with_keep(keep)).await;
    let job = job_of(&harness.call("slow", json!({})).await);
    assert_eq!(harness.jobs.len(), 1);
    // Ends after WORK, then is kept for `keep`, with nobody polling: measure
    // when it is gone.
    let started = tokio::time::Instant::now();
    while !harness.jobs.is_empty() {
        assert!(
            started.elapsed() < WORK + keep + Duration::from_secs(5),
            "the job stays"
        );
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    // The call answered at the deadline; the work ended WORK after it
    // began, and its answer was kept for `keep` after that.
    let gone_after = started.elapsed();
    let expected = WORK - DEADLINE + keep;
    assert!(
        gone_after >= expected && gone_after <= expected + Duration::from_millis(2),
        "gone {gone_after:?} after the call, not {expected:?}"
    );
    let gone = harness.call("job_status", json!({ "job": job })).await;
    assert_eq!(gone.is_error, Some(true));
    assert!(
        text(&gone).contains("so tell the user before you call the tool that started it again"),
        "{}",
        text(&gone)
    );
}

#[tokio::test(start_paused = true)]
async fn a_job_past_its_longest_run_is_stopped_as_a_fault() {
    let max_run = Duration::from_millis(150);
    let keep = Duration::from_millis(400);
    let harness = Harness::start(Jobs::new().with_max_run(max_run).with_keep(keep)).await;
    let job = job_of(&harness.call("endless", json!({})).await);
    tokio::time::sleep(max_run + Duration::from_millis(50)).await;
    let stopped = harness.call("job_status", json!({ "job": job })).await;
    assert_eq!(text(&stopped), FAULT_MESSAGE);
    let events = harness.events();
    assert!(
        events.contains(&"ERROR tool_failed endless".to_owned()),
        "{events:?}"
    );
    tokio::time::sleep(keep + Duration::from_millis(50)).await;
    assert!(harness.jobs.is_empty());
}

#[tokio::test(start_paused = true)]
async fn past_the_stores_bound_a_call_heals_itself_until_a_record_goes() {
    let max_run = Duration::from_millis(1000);
    let keep = Duration::from_millis(100);
    let jobs = Jobs::with_store(MemoryStore::with_capacity(2))
        .with_max_run(max_run)
        .with_keep(keep);
    let harness = Harness::start(jobs).await;
    let started = tokio::time::Instant::now();
    let first = job_of(&harness.call("endless", json!({})).await);
    job_of(&harness.call("slow", json!({})).await);
    assert_eq!(harness.jobs.len(), 2);
    harness.events();
    // A third job has no room: the call is a fault that heals itself, and
    // its work is stopped.
    let refused = harness.call("endless", json!({})).await;
    assert_eq!(refused.is_error, Some(true));
    assert_eq!(text(&refused), RETRY_MESSAGE);
    let records = harness.session.capture.take();
    let logged: Vec<_> = records
        .iter()
        .filter(|r| r.target == "outcome_runtime")
        .map(|r| format!("{} {}", r.level, r.name()))
        .collect();
    assert_eq!(logged, ["WARN tool_failed", "WARN tool_call_failed"]);
    let failed = records.iter().find(|r| r.name() == "tool_failed").unwrap();
    let error = failed.field("error").unwrap_or_default();
    assert!(error.contains("holds 2 jobs, as many as it may"), "{error}");
    assert_eq!(harness.jobs.len(), 2);
    // The slow job's answer goes after its keep, polled or not: room for
    // one more.
    tokio::time::sleep(WORK + keep).await;
    assert_eq!(harness.jobs.len(), 1);
    let third = job_of(&harness.call("endless", json!({})).await);
    assert_eq!(harness.jobs.len(), 2);
    // The first job is stopped at its longest run and goes after its
    // keep; the third runs on.
    tokio::time::sleep_until(started + max_run + keep + DEADLINE).await;
    assert_eq!(harness.jobs.len(), 1);
    let gone = harness.call("job_status", json!({ "job": first })).await;
    assert!(
        text(&gone).contains("may have taken effect"),
        "{}",
        text(&gone)
    );
    let running = harness.call("job_status", json!({ "job": third })).await;
    assert_eq!(running.is_error, Some(false), "{}", text(&running));
}

/// The memory store, with a way to lose every record, as a Redis that
/// evicts them, is flushed, or restarts without persistence does.
#[derive(Clone, Default)]
struct Forgetful {
    store: outcome_runtime::job_store::MemoryStore,
    lost: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Forgetful {
    fn lose_everything(&self) {
        self.lost.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

impl outcome_runtime::job_store::JobStore for Forgetful {
    fn start<'a>(
        &'a self,
        id: &'a str,
        job: outcome_runtime::job_store::NewJob,
    ) -> outcome_runtime::job_store::StoreFuture<'a, ()> {
        self.store.start(id, job)
    }

    fn finish<'a>(
        &'a self,
        id: &'a str,
        answer: outcome_runtime::job_store::StoredAnswer,
        keep: Duration,
    ) -> outcome_runtime::job_store::StoreFuture<'a, bool> {
        if self.lost.load(std::sync::atomic::Ordering::SeqCst) {
            return Box::pin(std::future::ready(Ok(false)));
        }
        self.store.finish(id, answer, keep)
    }

    fn get<'a>(
        &'a self,
        id: &'a str,
    ) -> outcome_runtime::job_store::StoreFuture<'a, Option<outcome_runtime::job_store::StoredJob>>
    {
        if self.lost.load(std::sync::atomic::Ordering::SeqCst) {
            return Box::pin(std::future::ready(Ok(None)));
        }
        self.store.get(id)
    }
}

#[tokio::test(start_paused = true)]
async fn a_job_whose_record_is_lost_is_the_servers_fault_not_the_models() {
    let store = Forgetful::default();
    let harness = Harness::start(Jobs::with_store(store.clone())).await;
    let job = job_of(&harness.call("slow", json!({})).await);
    assert_eq!(harness.events(), ["INFO tool_call_deferred slow"]);
    store.lose_everything();
    tokio::time::sleep(WORK * 2).await;
    // The work ended, and its answer had nowhere to go: one final line, a
    // fault that nobody but the store could have prevented.
    assert_eq!(
        harness.events(),
        ["WARN job_answer_lost slow", "WARN tool_call_failed slow"]
    );
    let polled = harness.call("job_status", json!({ "job": job })).await;
    assert_eq!(polled.is_error, Some(true));
    let read = text(&polled);
    assert!(read.contains("may have taken effect"), "{read}");
    assert!(!read.contains("is still running"), "{read}");
    assert_eq!(
        harness.events(),
        [
            "WARN tool_failed job_status",
            "WARN tool_call_failed job_status"
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn a_poll_for_an_id_no_job_could_have_is_the_models_to_fix() {
    let harness = Harness::start(Jobs::new()).await;
    for made_up in ["42", "j-", "j-0123456789ABCDEF0123456789ABCDEF", "slow"] {
        let polled = harness.call("job_status", json!({ "job": made_up })).await;
        assert_eq!(polled.is_error, Some(true));
        let read = text(&polled);
        assert!(read.contains("is not a job id"), "{read}");
        assert!(read.contains("Call job_status with job set to"), "{read}");
        assert_eq!(harness.events(), ["INFO tool_call_failed job_status"]);
    }
    // An id of the right shape that no job has: the server cannot tell it
    // from one whose answer it lost.
    let polled = harness
        .call(
            "job_status",
            json!({ "job": "j-0123456789abcdef0123456789abcdef" }),
        )
        .await;
    assert!(
        text(&polled).contains("may have taken effect"),
        "{}",
        text(&polled)
    );
    assert_eq!(
        harness.events(),
        [
            "WARN tool_failed job_status",
            "WARN tool_call_failed job_status"
        ]
    );
}

#[tokio::test]
async fn a_job_of_the_wrong_type_is_the_models_to_fix() {
    let (session, _jobs) = session().await;
    let call = session.call("job_status", json!({ "job": 42 })).await;
    let text = call.text();
    assert_eq!(call.ok().is_error, Some(true));
    assert!(text.contains("job") && text.contains("string"), "{text}");
    assert!(text.contains("'42'"), "{text}");
    assert_eq!(call.events(), ["INFO tool_call_failed"]);
}

// Jobs whose fault or value is hostile.

// On tokio's paused clock: the bounds are exact, and no real time passes.
#[tokio::test(start_paused = true)]
async fn a_job_whose_fault_cannot_be_formatted_still_ends_and_is_dropped() {
    let (session, jobs) = session().await;
    for tool in ["job_unprintable", "job_refusing", "job_drop_panics"] {
        let job = job_of(session.call(tool, json!({})).await.ok());
        let (done, records) =
            poll_until_done(&session, &job, MAX_RUN + Duration::from_millis(200)).await;
        assert_eq!(done.is_error, Some(true), "{tool}");
        assert_eq!(text(&done), FAULT_MESSAGE, "{tool}");
        assert_eq!(
            failed(&records).len(),
            1,
            "one tool_failed for {tool}: {records:?}"
        );
    }
    let started = tokio::time::Instant::now();
    while !jobs.is_empty() {
        assert!(started.elapsed() < KEEP * 4, "the jobs outlive their keep");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

// On tokio's paused clock: the bounds are exact, and no real time passes.
#[tokio::test(start_paused = true)]
async fn a_job_whose_value_does_not_convert_ends_as_a_fault() {
    let (session, _jobs) = session().await;
    for tool in ["job_unserializable", "job_serialize_panics"] {
        let job = job_of(session.call(tool, json!({})).await.ok());
        let (done, records) =
            poll_until_done(&session, &job, MAX_RUN + Duration::from_millis(200)).await;
        assert_eq!(done.is_error, Some(true), "{tool}");
        assert_eq!(text(&done), FAULT_MESSAGE, "{tool}");
        // The job's own lines: a fault, logged once, by the job.
        let lines: Vec<_> = records
            .iter()
            .filter(|r| r.field("tool") == Some(tool))
            .map(|r| format!("{} {}", r.level, r.name()))
            .collect();
        assert_eq!(
            lines,
            ["ERROR tool_failed", "ERROR tool_call_failed"],
            "{tool}: {records:?}"
        );
    }
}

#[test]
fn a_job_whose_bookkeeping_is_dropped_ends_as_a_fault_and_goes() {
    let jobs = jobs();
    let capture = outcome_runtime::testing::LogCapture::new();
    let _guard = capture.set_default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = connect(hostile(&jobs), ()).await.unwrap();
        let deferred = client
            .call_tool(CallToolRequestParams::new("job_endless"))
            .await
            .unwrap();
        job_of(&deferred);
    });
    // A runtime shutting down drops every task, the job's bookkeeping too.
    drop(runtime);
    assert_eq!(jobs.len(), 1, "settled, kept for a poll");
    let records = capture.take();
    let failed: Vec<_> = records
        .iter()
        .filter(|r| r.field("tool") == Some("job_endless"))
        .map(|r| format!("{} {}", r.level, r.name()))
        .collect();
    assert_eq!(
        failed,
        [
            "INFO tool_call_deferred",
            "ERROR tool_failed",
            "ERROR tool_call_failed"
        ]
    );
    std::thread::sleep(KEEP + Duration::from_millis(50));
    assert!(jobs.is_empty(), "gone after keep");
}

// A job is private to the session that started it.

#[tokio::test]
async fn another_session_reads_a_job_as_unknown() {
    let jobs = jobs();
    let first = Session::connect(hostile(&jobs), ()).await;
    let second = connect(hostile(&jobs), ()).await.unwrap();

    let job = job_of(first.call("job_fine", json!({})).await.ok());
    let other = job_of(first.call("job_fine", json!({})).await.ok());
    assert_ne!(job, other);
    let hex: String = job.chars().filter(char::is_ascii_hexdigit).collect();
    assert!(hex.len() >= 31, "at least 122 random bits: {job}");

    let poll = |id: &str| {
        CallToolRequestParams::new("job_status")
            .with_arguments(json!({ "job": id }).as_object().cloned().unwrap())
    };
    let theirs = second.call_tool(poll(&job)).await.unwrap();
    let made_up = format!("j-{}", "0".repeat(32));
    let unknown = second.call_tool(poll(&made_up)).await.unwrap();
    let mine = first.call("job_status", json!({ "job": job })).await;
    assert!(text(mine.ok()).contains("still running"));
    assert_eq!(theirs.is_error, Some(true));
    assert_eq!(
        text(&theirs).replace(&*quote(&job).to_string(), "<job>"),
        text(&unknown).replace(&*quote(&made_up).to_string(), "<job>")
    );

    let (done, _) = poll_until_done(&first, &job, MAX_RUN).await;
    assert_eq!(text(&done), "fine");
    let theirs = second.call_tool(poll(&job)).await.unwrap();
    assert_eq!(theirs.is_error, Some(true));
    assert!(!text(&theirs).contains("fine"));
}

/// A `Jobs` made inside a call, the first of the process: the call that
/// made it is bound to its session as every call is, so it answers with a
/// job as the calls after it do. (A call once read its session only after
/// the process had made a `Jobs`, and such a call ran its work inline up to
/// the limit; no state of the process decides that any more.)
#[tokio::test(start_paused = true)]
async fn a_call_that_makes_the_first_jobs_answers_with_a_job_as_the_next_does() {
    use outcome_tests::lazy_jobs::LazyJobs;
    let session = Session::connect(LazyJobs::new(Duration::from_secs(600), WORK), ()).await;
    for _ in 0..2 {
        let call = session.call("work", json!({})).await;
        assert_eq!(call.ok().is_error, Some(false));
        job_of(call.ok());
        assert_eq!(call.events(), ["INFO tool_call_deferred"]);
    }
}

/// A tool that is not `async`, blocking its thread on a job.
struct Blocking {
    jobs: Jobs,
}

#[tool_router]
impl Blocking {
    /// Block on a job that outlives its deadline.
    #[tool]
    fn blocking(&self) -> Result<Deferred<String>, ToolError> {
        tokio::task::block_in_place(|| {
            tokio::runtime::Handle::current().block_on(self.jobs.run(DEADLINE, async {
                tokio::time::sleep(WORK).await;
                Ok("blocked".to_owned())
            }))
        })
    }
}

// The router built once, which knows which bodies run whole.
#[tool_handler]
impl ServerHandler for Blocking {}

/// A body that is not `async` runs whole when it is called, and its call
/// reads no session: a job it blocks on past the deadline could be bound
/// to none, readable by whoever holds its id. The call is the server's
/// fault, which says to make the tool `async`; no job is left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_blocked_on_by_a_body_that_is_not_async_is_a_fault() {
    let jobs = jobs();
    let server = Blocking { jobs: jobs.clone() };
    let session = Session::connect(server, ()).await;
    let call = session.call("blocking", json!({})).await;
    assert_eq!(call.ok().is_error, Some(true), "{:?}", call.ok());
    assert_eq!(call.text(), FAULT_MESSAGE);
    assert_eq!(jobs.len(), 0);
}
