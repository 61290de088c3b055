//! How a job ends: its answer made as the inline call's would be, kept
//! in the store, and its call's lines written once, by what the store did
//! with the answer.

use std::future::Future;
use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
// tokio's clock, as the job's.
use tokio::time::Instant;
use tracing::Level;

use super::Jobs;
use crate::answer::error::ToolError;
use crate::base::bounds::ToolName;
use crate::base::panics::catch;
use crate::base::report::{self, Report};
use crate::base::scope::{CALL, CallScope};
use crate::call::fault::{answer, caught_panic};
use crate::lasting::job_store::{JobState, StoredAnswer, StoredJob};
use crate::logs::records;
use crate::logs::request_log::{self, Line};
use crate::logs::telemetry::Telemetry;

/// Settles a job: its answer when the work ends, and the fault answer if the
/// bookkeeping itself ends first, so no job can say "still running" for
/// ever.
pub(super) struct JobFinisher {
    pub(super) jobs: Jobs,
    pub(super) id: String,
    pub(super) tool: Arc<ToolName>,
    pub(super) started: Instant,
    /// The work's span, until the job is settled: the span ends then, not
    /// when its answer is swept.
    pub(super) telemetry: Option<Telemetry>,
}

/// What became of a finished job's answer in the store.
enum Recorded {
    /// Recorded: polls read it.
    Kept,
    /// Lost, for the reason given: polls read what an unknown job reads.
    Lost(String),
    /// The job was settled already, by a poll that found it past its
    /// deadline: polls read that fault, whose line was written then.
    SettledBefore,
}

impl JobFinisher {
    /// Ends the job as `ended` says, once: records its answer, then writes
    /// the call's final line by what the store did with it. Kept: the inline
    /// call's lines. Lost: `job_answer_lost` and a WARNING fault (the
    /// server's, never the model's). Settled first by a poll:
    /// `job_answer_lost` only, as that poll wrote the final line.
    ///
    /// The span stays in `self` until the store answers, so bookkeeping
    /// dropped while waiting (a runtime shutting down) still writes a final
    /// line, from the drop.
    pub(super) async fn settle<T: IntoCallToolResult>(&mut self, ended: Result<T, ToolError>) {
        let Some(telemetry) = &self.telemetry else {
            return;
        };
        let concluded = {
            let _inside = telemetry.enter();
            conclude(&self.tool, ended)
        };
        let duration_ms = records::millis(self.started.elapsed());
        let jobs = &self.jobs;
        let kept = match jobs
            .stored(jobs.store.finish(&self.id, concluded.answer(), jobs.keep))
            .await
        {
            Ok(true) => Recorded::Kept,
            Ok(false) => match jobs.stored(jobs.store.get(&self.id)).await {
                Ok(Some(StoredJob {
                    state: JobState::Done(_),
                    ..
                })) => Recorded::SettledBefore,
                Ok(_) => Recorded::Lost(
                    "the job store no longer holds the job's record (evicted, flushed, or \
                     lost in a restart)"
                        .to_owned(),
                ),
                Err(error) => Recorded::Lost(crate::answer::classify::chain_text(&error)),
            },
            Err(error) => Recorded::Lost(crate::answer::classify::chain_text(&error)),
        };
        if let Recorded::Lost(_) = kept {
            jobs.forget(&self.id).await;
        }
        let Some(telemetry) = self.telemetry.take() else {
            return;
        };
        let _inside = telemetry.enter();
        match kept {
            Recorded::Kept => concluded.log(&telemetry, &self.tool, duration_ms),
            Recorded::Lost(reason) => {
                answer_lost(&self.tool, &self.id, &reason);
                let line = Line::Failed {
                    level: Level::WARN,
                    outcome: crate::base::outcome::Outcome::Fault,
                    error_type: Some(ANSWER_LOST),
                    error_code: None,
                };
                request_log::write(&telemetry, &self.tool.logged(), line, duration_ms);
            }
            Recorded::SettledBefore => answer_lost(
                &self.tool,
                &self.id,
                "a poll settled the job as a fault before its work ended",
            ),
        }
    }

    /// Ends the job as `ended` says, once: its call's log lines written in
    /// the work's span, and its answer to record; `None` when it was ended
    /// already.
    fn conclude_now<T: IntoCallToolResult>(
        &mut self,
        ended: Result<T, ToolError>,
    ) -> Option<StoredAnswer> {
        let telemetry = self.telemetry.take()?;
        let _inside = telemetry.enter();
        Some(end_job(&telemetry, &self.tool, self.started, ended))
    }
}

impl Drop for JobFinisher {
    fn drop(&mut self) {
        let failed = Err::<String, _>(ToolError::fault(format!(
            "the bookkeeping of job {} of {} ended before the job did",
            self.id, self.tool
        )));
        let Some(answer) = self.conclude_now(failed) else {
            return;
        };
        // No waiting in a drop: a store that answers at once (memory) is
        // written now, any other from a task of its own, if the runtime
        // still runs one. If neither can, the job's polls settle it when
        // its deadline passes.
        let jobs = self.jobs.clone();
        let (id, tool) = (std::mem::take(&mut self.id), Arc::clone(&self.tool));
        let mut record = Box::pin(async move { jobs.keep_answer(&id, &tool, answer).await });
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        if record.as_mut().poll(&mut context).is_pending()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            runtime.spawn(record);
        }
    }
}

/// [`conclude`], logged: the job's answer, and its call's lines, once.
pub(super) fn end_job<T: IntoCallToolResult>(
    telemetry: &Telemetry,
    tool: &ToolName,
    started: Instant,
    ended: Result<T, ToolError>,
) -> StoredAnswer {
    let concluded = conclude(tool, ended);
    concluded.log(telemetry, tool, records::millis(started.elapsed()));
    concluded.into_answer()
}

/// The `error.type` of a job whose answer was lost.
const ANSWER_LOST: &str = "job_answer_lost";

/// `job_answer_lost`, at WARNING: a job's answer that no poll can read.
pub(super) fn answer_lost(tool: &ToolName, job: &str, reason: &str) {
    records::event_at!(
        Level::WARN,
        tool = tool.logged().as_str(),
        job,
        error = &*crate::base::bounds::bounded_text(reason),
        "job_answer_lost"
    );
}

/// How a job's call ended, before anything but the boundary's own record
/// is logged.
struct JobEnding {
    response: Result<CallToolResponse, ErrorData>,
    report: Option<Report>,
}

impl JobEnding {
    /// The call's final line.
    fn log(&self, telemetry: &Telemetry, tool: &ToolName, duration_ms: f64) {
        let line = crate::call::ending::line_of(&self.response, self.report.as_ref());
        request_log::write(telemetry, &tool.logged(), line, duration_ms);
    }

    /// The answer a poll reads, cloned: this is logged once the store says
    /// what became of it.
    fn answer(&self) -> StoredAnswer {
        Self::poll_answer(self.response.clone())
    }

    /// The answer a poll reads.
    fn into_answer(self) -> StoredAnswer {
        Self::poll_answer(self.response)
    }

    fn poll_answer(response: Result<CallToolResponse, ErrorData>) -> StoredAnswer {
        response.map(|response| match response {
            CallToolResponse::Complete(result) => result,
            // Made a fault by `conclude`, which is a result.
            _ => CallToolResult::error(vec![ContentBlock::text(
                crate::base::message::FAULT_MESSAGE,
            )]),
        })
    }
}

/// Turns how a job's work ended into the answer the inline call would have
/// given. Whatever the value or the error do while they turn into an answer
/// (fail to serialize, panic), the job ends.
fn conclude<T: IntoCallToolResult>(tool: &ToolName, ended: Result<T, ToolError>) -> JobEnding {
    let scope = CallScope {
        tool: tool.clone(),
        ..CallScope::default()
    };
    let logged = &tool.logged();
    CALL.sync_scope(scope, || {
        let converted = catch(|| match ended {
            Ok(value) => value.into_call_tool_result(),
            Err(error) => answer(error, Some(logged)),
        });
        let mut response = match converted {
            Ok(answer) => answer,
            Err(payload) => answer(caught_panic(logged, payload), Some(logged)),
        };
        let mut report = report::take(&mut response);
        // The value did not become an answer: a fault of this call.
        let protocol = report.as_ref().is_some_and(Report::is_protocol);
        response = match response {
            Err(error) if !protocol => {
                let mut fault = answer(ToolError::from(error), Some(logged));
                report = report::take(&mut fault);
                fault
            }
            kept => kept,
        };
        // A job hands over a result or an error; an answer that asks the
        // client for input or makes a task has no one to go to, and the
        // job ends as a fault.
        if !matches!(response, Ok(CallToolResponse::Complete(_)) | Err(_)) {
            response = answer(
                ToolError::fault(format!(
                    "job of {tool} answered with a request for input or a task, which a job \
                     cannot hand over"
                )),
                Some(logged),
            );
            report = report::take(&mut response);
        }
        JobEnding { response, report }
    })
}
