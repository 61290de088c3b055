//! Every promise of the boundary under hostile input: errors whose `Display`
//! panics, fails or writes megabytes, source chains that cycle or run deep,
//! values that drop with a panic, subscribers that panic, message parts that
//! are empty or span lines, and a second session that guesses a job.

use std::error::Error;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use outcome_runtime::testing::{Record, connect};
use outcome_runtime::{
    Deferred, FAULT_MESSAGE, Jobs, MESSAGE_LIMIT, RETRY_MESSAGE, ToolError, quote, tool,
    tool_handler, tool_router,
};
use outcome_tests::job_of;
use outcome_tests::{Session, events};
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock};
use rmcp::{ServerHandler, schemars};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The bound of the `error` field of a `tool_failed` record, with room for
/// the note that says what was cut.
const RECORD_BOUND: usize = 64 * 1024 + 256;

/// An error whose `Display` panics.
#[derive(Debug)]
struct Unprintable;

impl fmt::Display for Unprintable {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        panic!("the Display of Unprintable panicked")
    }
}

impl Error for Unprintable {}

/// An error whose `Display` fails, which makes `to_string` panic.
#[derive(Debug)]
struct Refusing;

impl fmt::Display for Refusing {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        Err(fmt::Error)
    }
}

impl Error for Refusing {}

/// A timeout whose `Display` panics: still a timeout.
#[derive(Debug)]
struct UnprintableTimeout(std::io::Error);

impl fmt::Display for UnprintableTimeout {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        panic!("the Display of UnprintableTimeout panicked")
    }
}

impl Error for UnprintableTimeout {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&self.0)
    }
}

/// An error that is its own source.
#[derive(Debug)]
struct Cycle;

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("cycle")
    }
}

impl Error for Cycle {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(self)
    }
}

/// One link of a chain 100,000 errors long.
#[derive(Debug)]
struct Deep {
    links: &'static [Deep],
    at: usize,
}

impl fmt::Display for Deep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "link {}", self.at)
    }
}

impl Error for Deep {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.links.get(self.at + 1).map(|next| next as _)
    }
}

fn deep_chain() -> &'static Deep {
    static LINKS: std::sync::OnceLock<&'static [Deep]> = std::sync::OnceLock::new();
    let links = LINKS.get_or_init(|| {
        let links: &'static mut [Deep] = Vec::leak(
            (0..100_000)
                .map(|at| Deep { links: &[], at })
                .collect::<Vec<_>>(),
        );
        let all: *const [Deep] = links;
        for link in links.iter_mut() {
            // SAFETY: the leaked slice lives for the rest of the process and
            // is only read from here on.
            link.links = unsafe { &*all };
        }
        links
    });
    &links[0]
}

/// An error whose `Display` writes 10 MB.
#[derive(Debug)]
struct Huge;

impl fmt::Display for Huge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let chunk = "x".repeat(1024);
        for _ in 0..10 * 1024 {
            f.write_str(&chunk)?;
        }
        Ok(())
    }
}

impl Error for Huge {}

/// An error whose drop panics.
#[derive(Debug)]
struct DropPanics;

impl fmt::Display for DropPanics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an error that panics when dropped")
    }
}

impl Error for DropPanics {}

impl Drop for DropPanics {
    fn drop(&mut self) {
        panic!("dropping the error panicked")
    }
}

/// A value whose serialization fails.
struct Unserializable;

impl Serialize for Unserializable {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("no"))
    }
}

impl schemars::JsonSchema for Unserializable {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Unserializable".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "object" })
    }
}

/// A value whose serialization panics.
struct SerializePanics;

impl Serialize for SerializePanics {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        panic!("serializing the value panicked")
    }
}

impl schemars::JsonSchema for SerializePanics {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SerializePanics".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "object" })
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Parts {
    /// What was wrong.
    problem: String,
    /// What to do next.
    next: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Path {
    /// A path.
    path: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Address {
    /// An address.
    ip: std::net::IpAddr,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Initial {
    /// One letter.
    letter: char,
}

/// A tag that must be lowercase: the schema says "a string", the type says
/// more.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(try_from = "String")]
#[schemars(with = "String")]
struct Tag(String);

impl TryFrom<String> for Tag {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        if text.chars().all(|c| c.is_ascii_lowercase()) {
            Ok(Tag(text))
        } else {
            Err(format!("a tag is lowercase letters only, not {text:?}"))
        }
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Tagged {
    /// A tag.
    tag: Tag,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Limit {
    /// How many.
    limit: u32,
}

static SECOND_PANIC_LINE: AtomicU32 = AtomicU32::new(0);
static WAITING: AtomicBool = AtomicBool::new(false);

/// A value of a body that panics when the body is dropped.
struct Fragile;

impl Drop for Fragile {
    fn drop(&mut self) {
        panic!("the cancelled body's value panicked when dropped")
    }
}

struct Hostile {
    jobs: Jobs,
    tools: ToolRouter<Hostile>,
}

#[tool_router]
impl Hostile {
    /// Fail with an error whose text cannot be formatted.
    #[tool]
    fn unprintable(&self) -> Result<String, ToolError> {
        Err(Unprintable)?
    }

    /// Fail with an error whose formatting fails.
    #[tool]
    fn refusing(&self) -> Result<String, ToolError> {
        Err(Refusing)?
    }

    /// Time out, with an error whose text cannot be formatted.
    #[tool]
    fn unprintable_timeout(&self) -> Result<String, ToolError> {
        let timeout = std::io::Error::new(std::io::ErrorKind::TimedOut, "slow");
        Err(UnprintableTimeout(timeout))?
    }

    /// Fail with an error that is its own source.
    #[tool]
    fn cycle(&self) -> Result<String, ToolError> {
        Err(ToolError::fault(Box::new(Cycle)))
    }

    /// Fail with a chain of 100,000 errors.
    #[tool]
    fn deep(&self) -> Result<String, ToolError> {
        Err(ToolError::fault(Box::new(Deep {
            links: deep_chain().links,
            at: 0,
        })))
    }

    /// Fail with an error whose text is 10 MB.
    #[tool]
    fn huge(&self) -> Result<String, ToolError> {
        Err(Huge)?
    }

    /// Fail with an error that panics when dropped.
    #[tool]
    fn drop_panics(&self) -> Result<String, ToolError> {
        Err(DropPanics)?
    }

    /// Panic with a message of 10 MB.
    #[tool]
    fn huge_panic(&self) -> Result<String, ToolError> {
        panic!("{}", "p".repeat(10 << 20))
    }

    /// Catch a panic, then panic again.
    #[tool]
    fn second_panic(&self) -> Result<String, ToolError> {
        let _ = std::panic::catch_unwind(|| panic!("the first panic"));
        SECOND_PANIC_LINE.store(line!() + 1, Ordering::SeqCst);
        panic!("the second panic")
    }

    /// Wait for a long time, holding a value that panics when dropped.
    #[tool]
    async fn wait_fragile(&self) -> Result<String, ToolError> {
        let _value = Fragile;
        WAITING.store(true, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_secs(3600)).await;
        Ok("done".to_owned())
    }

    /// Refuse the request with the parts given.
    #[tool]
    fn refuse(
        &self,
        Parameters(Parts { problem, next }): Parameters<Parts>,
    ) -> Result<String, ToolError> {
        Err(ToolError::invalid(problem, next))
    }

    /// Report stale input with the parts given.
    #[tool]
    fn outdated(
        &self,
        Parameters(Parts { problem, next }): Parameters<Parts>,
    ) -> Result<String, ToolError> {
        Err(ToolError::stale(problem, next))
    }

    /// Ask for a retry with the text given.
    #[tool]
    fn later(
        &self,
        Parameters(Parts { problem, .. }): Parameters<Parts>,
    ) -> Result<String, ToolError> {
        Err(ToolError::retry_later(problem))
    }

    /// Look a path up.
    #[tool]
    fn look_up(&self, Parameters(Path { path }): Parameters<Path>) -> Result<String, ToolError> {
        Err(ToolError::invalid(
            format_args!("No note at {}", quote(&path)),
            "Find the path with search_notes",
        ))
    }

    /// Answer with an error result whose text looks like rmcp's own.
    #[tool]
    fn lookalike(&self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::error(vec![ContentBlock::text(
            "failed to deserialize parameters: the tool wrote this itself",
        )]))
    }

    /// Ping an address.
    #[tool]
    fn ping(&self, Parameters(Address { ip }): Parameters<Address>) -> Result<String, ToolError> {
        Ok(ip.to_string())
    }

    /// Spell a letter.
    #[tool]
    fn spell(
        &self,
        Parameters(Initial { letter }): Parameters<Initial>,
    ) -> Result<String, ToolError> {
        Ok(letter.to_string())
    }

    /// Tag something.
    #[tool]
    fn tag(&self, Parameters(Tagged { tag }): Parameters<Tagged>) -> Result<String, ToolError> {
        Ok(tag.0)
    }

    /// Count up to a limit.
    #[tool]
    fn count(&self, Parameters(Limit { limit }): Parameters<Limit>) -> Result<String, ToolError> {
        Ok(limit.to_string())
    }

    /// A job whose fault cannot be formatted.
    #[tool]
    async fn job_unprintable(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(DEADLINE, async {
                tokio::time::sleep(WORK).await;
                Err(Unprintable)?
            })
            .await
    }

    /// A job whose fault's formatting fails.
    #[tool]
    async fn job_refusing(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(DEADLINE, async {
                tokio::time::sleep(WORK).await;
                Err(Refusing)?
            })
            .await
    }

    /// A job whose error panics when dropped.
    #[tool]
    async fn job_drop_panics(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(DEADLINE, async {
                tokio::time::sleep(WORK).await;
                Err(DropPanics)?
            })
            .await
    }

    /// A job whose value does not serialize.
    #[tool]
    async fn job_unserializable(&self) -> Result<Deferred<Json<Unserializable>>, ToolError> {
        self.jobs
            .run(DEADLINE, async {
                tokio::time::sleep(WORK).await;
                Ok(Json(Unserializable))
            })
            .await
    }

    /// A job whose value panics while it serializes.
    #[tool]
    async fn job_serialize_panics(&self) -> Result<Deferred<Json<SerializePanics>>, ToolError> {
        self.jobs
            .run(DEADLINE, async {
                tokio::time::sleep(WORK).await;
                Ok(Json(SerializePanics))
            })
            .await
    }

    /// A job that never ends by itself.
    #[tool]
    async fn job_endless(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(DEADLINE, async {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok("never".to_owned())
            })
            .await
    }

    /// A job that ends well.
    #[tool]
    async fn job_fine(&self) -> Result<Deferred<String>, ToolError> {
        self.jobs
            .run(DEADLINE, async {
                tokio::time::sleep(WORK).await;
                Ok("fine".to_owned())
            })
            .await
    }
}

#[tool_handler(router = self.tools)]
impl ServerHandler for Hostile {}

const DEADLINE: Duration = Duration::from_millis(30);
const WORK: Duration = Duration::from_millis(150);
const MAX_RUN: Duration = Duration::from_millis(600);
const KEEP: Duration = Duration::from_millis(300);

/// A body that answers at once, then panics when it is dropped: a route
/// added by hand, outside the boundary, so that only the request log's
/// guard stands between the panic and rmcp.
struct AnswersThenPanics;

impl std::future::Future for AnswersThenPanics {
    type Output = Result<rmcp::model::CallToolResponse, rmcp::ErrorData>;

    fn poll(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        let done = CallToolResult::success(vec![ContentBlock::text("done")]);
        std::task::Poll::Ready(Ok(done.into()))
    }
}

impl Drop for AnswersThenPanics {
    fn drop(&mut self) {
        panic!("the finished body panicked when dropped")
    }
}

fn answers_then_panics() -> ToolRoute<Hostile> {
    let attr = rmcp::model::Tool::new(
        "answers_then_panics",
        "Answer, then panic when dropped.",
        Arc::new(Default::default()),
    );
    ToolRoute::new_dyn(attr, |_| Box::pin(AnswersThenPanics))
}

fn hostile(jobs: &Jobs) -> Hostile {
    let tools = Hostile::tool_router()
        .with_route(jobs.status_tool())
        .with_route(answers_then_panics());
    Hostile {
        jobs: jobs.clone(),
        tools,
    }
}

fn jobs() -> Jobs {
    Jobs::new().with_max_run(MAX_RUN).with_keep(KEEP)
}

async fn session() -> (Session, Jobs) {
    let jobs = jobs();
    (Session::connect(hostile(&jobs), ()).await, jobs)
}

fn text(result: &CallToolResult) -> &str {
    &result.content[0].as_text().unwrap().text
}

fn failed(records: &[Record]) -> Vec<&Record> {
    records
        .iter()
        .filter(|r| r.name() == "tool_failed")
        .collect()
}

/// Polls `job` until it no longer says it is running, or `limit` passes;
/// the answer, and every record since the call that started the job.
async fn poll_until_done(
    session: &Session,
    job: &str,
    limit: Duration,
) -> (CallToolResult, Vec<Record>) {
    let started = tokio::time::Instant::now();
    let mut records = Vec::new();
    loop {
        let polled = session.call("job_status", json!({ "job": job })).await;
        records.extend(polled.records.iter().cloned());
        let result = polled.ok().clone();
        if !text(&result).contains("still running") {
            return (result, records);
        }
        assert!(
            started.elapsed() < limit,
            "job {job} still says it is running after {:?}",
            started.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

// 1. Nothing outlives its bound.

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

// 2. No panic is silent; one call, one tool_failed.

#[tokio::test]
async fn a_second_panic_after_a_caught_one_keeps_its_own_location() {
    let (session, _jobs) = session().await;
    let call = session.call("second_panic", json!({})).await;
    assert_eq!(call.text(), FAULT_MESSAGE);
    let failed = call.record("tool_failed");
    assert_eq!(failed.field("error"), Some("the second panic"));
    let line = SECOND_PANIC_LINE.load(Ordering::SeqCst);
    let location = failed.field("panic.location").expect("a location");
    assert!(
        location.contains(&format!("hardening.rs:{line}:")),
        "{location} is not line {line}"
    );
}

#[tokio::test]
async fn an_error_that_panics_when_dropped_is_logged_once() {
    let (session, _jobs) = session().await;
    let call = session.call("drop_panics", json!({})).await;
    assert_eq!(call.text(), FAULT_MESSAGE);
    assert_eq!(
        call.events(),
        ["ERROR tool_failed", "ERROR tool_call_failed"],
        "{:?}",
        call.records
    );
    let next = session.call("look_up", json!({ "path": "a" })).await;
    assert_eq!(next.ok().is_error, Some(true));
}

#[tokio::test]
async fn a_body_that_panics_when_dropped_after_answering_keeps_its_answer() {
    let (session, _jobs) = session().await;
    let call = session.call("answers_then_panics", json!({})).await;
    assert_eq!(call.text(), "done");
    assert_eq!(call.ok().is_error, Some(false));
    assert_eq!(
        call.events(),
        ["ERROR tool_failed", "INFO tool_call_completed"],
        "{:?}",
        call.records
    );
    let failed = failed(&call.records)[0];
    assert_eq!(
        failed.field("error"),
        Some("the finished body panicked when dropped")
    );
    assert_eq!(failed.field("tool"), Some("answers_then_panics"));
    let next = session.call("count", json!({ "limit": 1 })).await;
    assert_eq!(next.text(), "1");
}

#[tokio::test]
async fn a_cancelled_body_that_panics_when_dropped_is_logged_once() {
    let (session, _jobs) = session().await;
    let call = tokio::spawn({
        let peer = session.client.peer().clone();
        async move {
            peer.call_tool(CallToolRequestParams::new("wait_fragile"))
                .await
        }
    });
    let started = Instant::now();
    while !WAITING.load(Ordering::SeqCst) {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the body starts"
        );
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    // Dropping the request makes rmcp's client send a cancellation.
    call.abort();
    let mut records = Vec::new();
    while !records
        .iter()
        .any(|r: &Record| r.name() == "tool_call_cancelled")
    {
        assert!(started.elapsed() < Duration::from_secs(10), "{records:?}");
        tokio::time::sleep(Duration::from_millis(5)).await;
        records.extend(session.capture.take());
    }
    assert_eq!(
        events(&records),
        ["ERROR tool_failed", "INFO tool_call_cancelled"],
        "{records:?}"
    );
    let failed = failed(&records)[0];
    assert_eq!(
        failed.field("error"),
        Some("the cancelled body's value panicked when dropped")
    );
    let next = session.call("count", json!({ "limit": 1 })).await;
    assert_eq!(next.text(), "1");
}

/// A subscriber that panics on every event of the runtime, and records the
/// others.
#[derive(Clone, Default)]
struct Panicking {
    seen: Arc<Mutex<Vec<String>>>,
}

impl tracing::Subscriber for Panicking {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        if event.metadata().target() == "outcome_runtime" {
            self.seen
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(event.metadata().level().to_string());
            panic!("the subscriber panicked");
        }
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[tokio::test]
async fn a_subscriber_that_panics_does_not_leave_a_call_unanswered() {
    let subscriber = Panicking::default();
    let _guard = tracing::subscriber::set_default(subscriber.clone());
    let jobs = jobs();
    let client = connect(hostile(&jobs), ()).await.unwrap();
    for (tool, arguments, error) in [
        ("count", json!({ "limit": 3 }), false),
        ("look_up", json!({ "path": "x" }), true),
        ("unprintable", json!({}), true),
        ("second_panic", json!({}), true),
        ("count", json!({ "limit": "ten" }), true),
    ] {
        let params = CallToolRequestParams::new(tool)
            .with_arguments(arguments.as_object().cloned().unwrap());
        let result = tokio::time::timeout(Duration::from_secs(10), client.call_tool(params))
            .await
            .unwrap_or_else(|_| panic!("{tool} is answered"))
            .unwrap();
        assert_eq!(result.is_error, Some(error), "{tool}");
    }
    assert!(!subscriber.seen.lock().unwrap().is_empty());
}

/// A subscriber that panics when it handles the runtime's spans at `at`:
/// `new_span`, `record`, `enter`, `exit` or `close`.
#[derive(Clone)]
struct PanickingSpans {
    at: &'static str,
    ours: Arc<Mutex<Vec<u64>>>,
    next: Arc<AtomicU32>,
    panicked: Arc<AtomicBool>,
}

impl PanickingSpans {
    fn new(at: &'static str) -> Self {
        PanickingSpans {
            at,
            ours: Arc::default(),
            next: Arc::default(),
            panicked: Arc::default(),
        }
    }

    fn maybe_panic(&self, at: &str, id: &tracing::span::Id) {
        let ours = self.ours.lock().unwrap_or_else(|e| e.into_inner());
        if at == self.at && ours.contains(&id.into_u64()) {
            drop(ours);
            self.panicked.store(true, Ordering::SeqCst);
            panic!("the subscriber panicked at {at}");
        }
    }
}

impl tracing::Subscriber for PanickingSpans {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        let id = u64::from(self.next.fetch_add(1, Ordering::SeqCst)) + 1;
        if span.metadata().target() == "outcome_runtime" {
            if self.at == "new_span" {
                self.panicked.store(true, Ordering::SeqCst);
                panic!("the subscriber panicked at new_span");
            }
            self.ours.lock().unwrap_or_else(|e| e.into_inner()).push(id);
        }
        tracing::span::Id::from_u64(id)
    }
    fn record(&self, id: &tracing::span::Id, _: &tracing::span::Record<'_>) {
        self.maybe_panic("record", id);
    }
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, _: &tracing::Event<'_>) {}
    fn enter(&self, id: &tracing::span::Id) {
        self.maybe_panic("enter", id);
    }
    fn exit(&self, id: &tracing::span::Id) {
        self.maybe_panic("exit", id);
    }
    fn try_close(&self, id: tracing::span::Id) -> bool {
        self.maybe_panic("close", &id);
        true
    }
}

#[tokio::test]
async fn a_subscriber_that_panics_on_the_calls_span_does_not_leave_a_call_unanswered() {
    for at in ["new_span", "record", "enter", "exit", "close"] {
        let subscriber = PanickingSpans::new(at);
        let _guard = tracing::subscriber::set_default(subscriber.clone());
        let jobs = jobs();
        let client = connect(hostile(&jobs), ()).await.unwrap();
        for (tool, arguments, error) in [
            ("count", json!({ "limit": 3 }), false),
            ("look_up", json!({ "path": "x" }), true),
            ("second_panic", json!({}), true),
            ("count", json!({ "limit": "ten" }), true),
            ("no_such_tool", json!({}), true),
            ("job_fine", json!({}), false),
        ] {
            let params = CallToolRequestParams::new(tool)
                .with_arguments(arguments.as_object().cloned().unwrap());
            let result = tokio::time::timeout(Duration::from_secs(10), client.call_tool(params))
                .await
                .unwrap_or_else(|_| {
                    panic!("{tool} is answered when the subscriber panics at {at}")
                });
            match result {
                Ok(result) => assert_eq!(result.is_error, Some(error), "{tool} at {at}"),
                // An unknown tool is a JSON-RPC error.
                Err(_) => assert_eq!(tool, "no_such_tool", "{at}"),
            }
        }
        assert!(subscriber.panicked.load(Ordering::SeqCst), "{at}");
    }
}

// 3. Bounded work on hostile errors.

#[tokio::test]
async fn hostile_error_chains_are_answered_promptly_with_a_bounded_record() {
    let (session, _jobs) = session().await;
    for tool in ["cycle", "deep", "huge", "unprintable", "refusing"] {
        let call = tokio::time::timeout(Duration::from_secs(10), session.call(tool, json!({})))
            .await
            .unwrap_or_else(|_| panic!("{tool} is answered"));
        assert_eq!(call.text(), FAULT_MESSAGE, "{tool}");
        assert_eq!(
            call.events(),
            ["ERROR tool_failed", "ERROR tool_call_failed"],
            "{tool}: {:?}",
            call.records
        );
        let failed = call.record("tool_failed");
        let error = failed.field("error").unwrap_or("");
        assert!(
            error.len() <= RECORD_BOUND,
            "{tool}: a record of {} bytes",
            error.len()
        );
        assert_ne!(failed.field("error.type"), Some("panic"), "{tool}");
    }
}

#[tokio::test]
async fn a_ten_megabyte_panic_message_is_logged_cut() {
    let (session, _jobs) = session().await;
    let call = session.call("huge_panic", json!({})).await;
    assert_eq!(call.text(), FAULT_MESSAGE);
    let failed = call.record("tool_failed");
    assert_eq!(failed.field("error.type"), Some("panic"));
    let error = failed.field("error").unwrap();
    assert!(
        error.len() <= RECORD_BOUND,
        "a record of {} bytes",
        error.len()
    );
    assert!(
        error.starts_with("pppp") && error.contains("[cut"),
        "{}",
        &error[error.len() - 80..]
    );
}

#[tokio::test]
async fn an_unknown_tool_name_is_logged_with_its_invisible_characters_escaped() {
    let (session, _jobs) = session().await;
    let call = session
        .call("read\u{e0041}\u{202e}\u{200b}_note", json!({}))
        .await;
    assert!(
        call.result.is_err(),
        "an unknown tool stays a JSON-RPC error"
    );
    let logged = call.record("tool_call_failed").field("tool").unwrap();
    assert!(
        logged.chars().all(|c| c.is_ascii_graphic()),
        "nothing invisible reaches the log: {logged:?}"
    );
    assert!(
        logged.contains("e0041") && logged.contains("202e"),
        "{logged}"
    );
}

#[tokio::test]
async fn the_cut_record_says_what_was_cut() {
    let (session, _jobs) = session().await;
    let call = session.call("huge", json!({})).await;
    let error = call
        .record("tool_failed")
        .field("error")
        .unwrap()
        .to_owned();
    assert!(error.starts_with("xxxx"), "{}", &error[..40]);
    assert!(error.contains("cut"), "{}", &error[error.len() - 100..]);
    let call = session.call("cycle", json!({})).await;
    let error = call
        .record("tool_failed")
        .field("error")
        .unwrap()
        .to_owned();
    assert!(error.starts_with("cycle: cycle"), "{error}");
    assert!(error.contains("cut"), "{error}");
}

#[tokio::test]
async fn an_error_whose_display_panics_keeps_its_type_and_level() {
    let (session, _jobs) = session().await;
    let call = session.call("unprintable_timeout", json!({})).await;
    assert_eq!(call.text(), RETRY_MESSAGE);
    assert_eq!(
        call.events(),
        ["WARN tool_failed", "WARN tool_call_failed"],
        "{:?}",
        call.records
    );
    let failed = call.record("tool_failed");
    assert!(
        failed
            .field("error.type")
            .unwrap()
            .ends_with("UnprintableTimeout"),
        "{failed:?}"
    );
    assert!(!call.has_error());
}

// 4. Model-facing text is bounded and clean.

fn assert_clean(text: &str) {
    assert!(!text.is_empty());
    assert!(
        text.chars().count() <= MESSAGE_LIMIT,
        "{} chars",
        text.len()
    );
    assert!(!text.contains(['\n', '\r']), "{text:?}");
    assert!(!text.starts_with(['.', ' ', ',']), "{text:?}");
    assert!(!text.contains(". ."), "{text:?}");
    assert!(text.ends_with(['.', '!', '?']), "{text:?}");
}

#[tokio::test]
async fn built_messages_are_one_bounded_line_whatever_the_parts() {
    let (session, _jobs) = session().await;
    let long = "word ".repeat(20_000);
    let cases = [
        ("line one\nline two\r\n\tthree", "Call refuse\nagain"),
        (long.as_str(), "Call refuse again"),
        ("No such thing", long.as_str()),
        ("", "Call refuse with a name"),
        ("No such thing", ""),
        ("", ""),
        ("   ", " \n "),
    ];
    for tool in ["refuse", "outdated", "later"] {
        for (problem, next) in cases {
            let call = session
                .call(tool, json!({ "problem": problem, "next": next }))
                .await;
            let text = call.text();
            assert_clean(text);
            let expected = if tool == "later" {
                "WARN tool_failed"
            } else {
                "INFO tool_call_failed"
            };
            assert!(
                call.events().contains(&expected.to_owned()),
                "{tool}({problem:.20?}, {next:.20?}): {:?}",
                call.records
            );
            assert!(!call.has_error(), "{tool}: {:?}", call.records);
            if tool != "later" && next.trim().is_empty() {
                assert!(text.contains(tool), "the fallback names the tool: {text}");
            }
        }
    }
}

#[tokio::test]
async fn quoted_values_hide_nothing() {
    let (session, _jobs) = session().await;
    let smuggled = "a\u{e0049}\u{e0067}\u{fe0f}\u{3164}\u{200d}\u{202e}b";
    let call = session.call("look_up", json!({ "path": smuggled })).await;
    let text = call.text();
    assert!(
        text.chars().all(|c| c.is_ascii_graphic() || c == ' '),
        "{text:?}"
    );
    assert!(text.contains("\\u{e0049}"), "{text}");
}

// 5. Classified by what happened, not by text.

#[tokio::test]
async fn a_tools_own_result_that_looks_like_an_argument_error_is_a_fault() {
    let (session, _jobs) = session().await;
    let call = session.call("lookalike", json!({})).await;
    assert_eq!(
        call.text(),
        "failed to deserialize parameters: the tool wrote this itself"
    );
    assert_eq!(call.events(), ["ERROR tool_call_failed"]);
    assert_eq!(
        call.record("tool_call_failed").field("outcome"),
        Some("fault")
    );
}

#[tokio::test]
async fn values_the_schema_allows_but_the_type_refuses_are_explained() {
    let (session, _jobs) = session().await;
    for (tool, arguments, argument) in [
        ("ping", json!({ "ip": "not an address" }), "ip"),
        ("spell", json!({ "letter": "ab" }), "letter"),
        ("tag", json!({ "tag": "UPPER" }), "tag"),
    ] {
        let call = session.call(tool, arguments).await;
        let text = call.text();
        assert_clean(text);
        assert!(text.contains(tool), "{text}");
        assert!(
            !text.contains("deserialize") && !text.contains("IpAddr"),
            "{text}"
        );
        assert_eq!(call.events(), ["INFO tool_call_failed"], "{tool}");
        // The argument, in this crate's words: never serde's text, not
        // even the type's own reason, which may hold anything.
        assert!(text.contains(argument), "{text}");
        assert!(!text.contains("lowercase letters only"), "{text}");
    }
}

// 6. Jobs are private to whoever started them.

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

// 7. What holds today.

#[tokio::test]
async fn a_one_megabyte_argument_is_answered_in_model_terms() {
    let (session, _jobs) = session().await;
    let big = "y".repeat(1 << 20);
    let call = session.call("look_up", json!({ "path": big })).await;
    assert_clean(call.text());
    assert!(call.text().starts_with("No note at 'yyyy"));
    let call = session.call("count", json!({ "limit": big })).await;
    assert_clean(call.text());
    assert!(call.text().contains("limit"), "{}", call.text());
    assert_eq!(call.events(), ["INFO tool_call_failed"]);
}
