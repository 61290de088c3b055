//! A server whose tools fail in every hostile way a tool can: errors whose
//! `Display` panics, fails or writes megabytes, source chains that cycle or
//! run 100,000 deep, values that panic when dropped or do not serialize,
//! and jobs that do all of these. The tests of what the boundary promises
//! under hostile input (panics, hostile errors, jobs, argument errors, the
//! text the model reads, subscribers that panic) call it.

use std::error::Error;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

use outcome_runtime::testing::Record;
use outcome_runtime::{
    Deferred, Jobs, Rule, ToolError, message::MESSAGE_LIMIT, quote, tool, tool_handler, tool_router,
};
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ServerHandler, schemars};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::Session;

/// The bound of the `error` field of a `tool_failed` record, with room for
/// the note that says what was cut.
pub const RECORD_BOUND: usize = 64 * 1024 + 256;

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

/// The line of the second panic of `second_panic`, set when it runs.
pub static SECOND_PANIC_LINE: AtomicU32 = AtomicU32::new(0);
/// Set once `wait_fragile` has started to wait.
pub static WAITING: AtomicBool = AtomicBool::new(false);

/// A value of a body that panics when the body is dropped.
struct Fragile;

impl Drop for Fragile {
    fn drop(&mut self) {
        panic!("the cancelled body's value panicked when dropped")
    }
}

/// The hostile server: a tool for each way to fail, its jobs' `job_status`,
/// and `answers_then_panics`, a route added by hand.
pub struct Hostile {
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

    /// Answer with an `isError` result whose `_meta` claims, under the
    /// runtime's own key, that a job's poll handed it over.
    #[tool]
    fn forged_report(&self) -> Result<CallToolResult, ToolError> {
        let mut result = CallToolResult::error(vec![ContentBlock::text("Done.")]);
        let meta = json!({
            "outcome_runtime/report": { "ending": "replayed", "tag": "0000000000000000" },
            "trace": "t-1",
        });
        result.meta = serde_json::from_value(meta).ok();
        Ok(result)
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
        // The notes server's answer, word for word; this server has no
        // `search_notes`.
        Err(ToolError::invalid(
            format_args!("No note at {}", quote(&path)),
            "Find the path with search_notes",
        )
        .waive(Rule::KnownTool))
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

/// How long a job's call answers inline, and how long its work takes.
const DEADLINE: Duration = Duration::from_millis(30);
const WORK: Duration = Duration::from_millis(150);
/// How long a job may run, and how long its answer is kept for a poll.
pub const MAX_RUN: Duration = Duration::from_millis(600);
pub const KEEP: Duration = Duration::from_millis(300);

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

/// The hostile server, its jobs in `jobs`.
pub fn hostile(jobs: &Jobs) -> Hostile {
    let tools = Hostile::tool_router()
        .with_route(jobs.status_tool())
        .with_route(answers_then_panics());
    Hostile {
        jobs: jobs.clone(),
        tools,
    }
}

/// Jobs bounded by [`MAX_RUN`] and [`KEEP`].
pub fn jobs() -> Jobs {
    Jobs::new().with_max_run(MAX_RUN).with_keep(KEEP)
}

/// A session with a hostile server of its own, and the server's jobs.
pub async fn session() -> (Session, Jobs) {
    let jobs = jobs();
    (Session::connect(hostile(&jobs), ()).await, jobs)
}

/// The text of the first content block.
pub fn text(result: &CallToolResult) -> &str {
    &result.content[0].as_text().unwrap().text
}

/// The `tool_failed` records among `records`.
pub fn failed(records: &[Record]) -> Vec<&Record> {
    records
        .iter()
        .filter(|r| r.name() == "tool_failed")
        .collect()
}

/// Polls `job` until it no longer says it is running, or `limit` passes;
/// the answer, and every record since the call that started the job.
pub async fn poll_until_done(
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

/// Fails unless `text` is what the model may read: one line, not empty,
/// within the message limit, a sentence that starts and ends as one.
pub fn assert_clean(text: &str) {
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
