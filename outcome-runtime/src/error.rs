//! [`ToolError`]: how a tool call that did not meet its contract ends.

use std::borrow::Cow;
use std::error::Error;
use std::fmt::{self, Display};

use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, ErrorCode};
use tracing::Level;

use crate::{boundary, classify, logging, message, sentences};

/// How a tool call ended: the four outcomes of the design.
///
/// The outcome fixes what the model reads, what the message tells it to do
/// next and the log level, which answers "who must act?".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Outcome {
    /// 1: the contract is met; the model reads the value. An empty search is
    /// a result.
    Result,
    /// 2: the model must change the request (not found, invalid argument, a
    /// parameter it must pass, a feature this deployment leaves off). INFO.
    Invalid,
    /// 3: the model must refresh what it read, then retry (stale version,
    /// conflicting change). INFO.
    Stale,
    /// 4: the server failed; the request was fine. WARNING when it heals
    /// itself, ERROR when an operator must act.
    Fault,
}

impl Outcome {
    /// The value of the `outcome` field in log records: `result`, `invalid`,
    /// `stale` or `fault`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Result => "result",
            Outcome::Invalid => "invalid",
            Outcome::Stale => "stale",
            Outcome::Fault => "fault",
        }
    }
}

impl Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A tool call that did not produce its result, and what the model reads
/// about it.
///
/// Every `#[tool]` returns `Result<T, ToolError>`. Build one for outcomes 2
/// and 3 at the place where the tool knows what went wrong, with
/// [`invalid`](Self::invalid) or [`stale`](Self::stale); both need the next
/// step the model must take. Anything else is a fault: `?` on any
/// `std::error::Error + Send + Sync + 'static` makes one, which keeps the
/// error for the log and sends the model a fixed message that never names the
/// cause.
///
/// ```
/// use outcome_runtime::{Outcome, ToolError, quote};
///
/// let path = "inbox/todo.md";
/// let error = ToolError::invalid(
///     format_args!("No note at {}", quote(path)),
///     "Find the path with search_notes",
/// );
/// assert_eq!(error.outcome(), Outcome::Invalid);
/// assert_eq!(error.message(), "No note at 'inbox/todo.md'. Find the path with search_notes.");
///
/// fn read(path: &str) -> Result<String, ToolError> {
///     // A missing file here is a fault: the path came from the server's
///     // configuration, not from the model.
///     Ok(std::fs::read_to_string(path)?)
/// }
/// assert_eq!(read("/no/such/file").unwrap_err().outcome(), Outcome::Fault);
/// ```
///
/// Like `anyhow::Error`, `ToolError` does not implement `std::error::Error`
/// itself: that is what lets `?` convert every error type into it.
pub struct ToolError {
    inner: Box<Inner>,
}

struct Inner {
    kind: Kind,
    /// What the model reads.
    message: Cow<'static, str>,
    /// Where the message's fallback step starts, when the author gave
    /// none: the answer names the tool there.
    fallback: Option<sentences::Fallback>,
    /// The error behind a fault, for the log only.
    source: Option<Box<dyn Error + Send + Sync>>,
    /// The source's type name, the `error.type` log field.
    error_type: Option<&'static str>,
    /// Set once `tool_failed` was written, so a fault is logged exactly once.
    logged: bool,
}

#[derive(Debug)]
enum Kind {
    Invalid,
    Stale,
    Fault {
        heals: bool,
    },
    /// A protocol error that must reach the client as itself (-32021).
    PassThrough(ErrorData),
}

impl ToolError {
    /// Outcome 2: the model must change its request.
    ///
    /// `problem` says what was wrong, naming the argument and quoting the
    /// value the model sent (use [`quote`](crate::quote)); `next_step` says
    /// exactly what to do instead, naming the tool and the parameter. Each
    /// becomes one sentence. Logged at INFO.
    ///
    /// ```
    /// # use outcome_runtime::{ToolError, quote};
    /// let error = ToolError::invalid(
    ///     format_args!("Exporting is turned off in this deployment"),
    ///     "Read each note with read_note instead",
    /// );
    /// assert_eq!(
    ///     error.message(),
    ///     "Exporting is turned off in this deployment. Read each note with read_note instead.",
    /// );
    /// ```
    ///
    /// The model reads one line of at most [`MESSAGE_LIMIT`](crate::MESSAGE_LIMIT)
    /// characters, whatever the parts hold: line breaks become spaces,
    /// invisible characters are escaped, and a part too long is cut. A part
    /// that is empty never yields a sentence built from nothing: without a
    /// problem the message is the next step alone; without a next step it
    /// ends with "Correct the request, then call `<tool>` again." naming the
    /// tool called. An empty literal is a compile error inside a `#[tool]`.
    pub fn invalid(problem: impl Display, next_step: impl Display) -> Self {
        let built = sentences::invalid(&problem, &next_step);
        Self::model_facing(Kind::Invalid, built)
    }

    /// Outcome 3: what the model read is stale; it must refresh, then retry.
    ///
    /// `problem` says what changed, quoting the value the model sent;
    /// `refresh` says where the fresh value comes from and how to retry. The
    /// message always adds that resending the same call fails again. Logged
    /// at INFO.
    ///
    /// ```
    /// # use outcome_runtime::{ToolError, quote};
    /// let error = ToolError::stale(
    ///     format_args!("Note {} changed since version {}", quote("plan.md"), quote("a1b2")),
    ///     "Call read_note for the current text and version, reapply the edit, \
    ///      and pass the new version as if_match",
    /// );
    /// assert_eq!(
    ///     error.message(),
    ///     "Note 'plan.md' changed since version 'a1b2', so resending this call fails again. \
    ///      Call read_note for the current text and version, reapply the edit, and pass the \
    ///      new version as if_match.",
    /// );
    /// ```
    ///
    /// The bounds and fallbacks of [`invalid`](Self::invalid) hold; without
    /// a refresh step the message ends with "Read the current state again,
    /// then call `<tool>` with it."
    pub fn stale(problem: impl Display, refresh: impl Display) -> Self {
        let built = sentences::stale(&problem, &refresh);
        Self::model_facing(Kind::Stale, built)
    }

    /// Outcome 4 that heals itself, with a message more precise than the
    /// generic one ("the index is rebuilding; retry in a minute").
    ///
    /// The message must still say that the request was fine and when to
    /// retry; it must not name the cause's internals. Logged at WARNING.
    /// It is made one line of at most [`MESSAGE_LIMIT`](crate::MESSAGE_LIMIT)
    /// characters; an empty one is [`RETRY_MESSAGE`](crate::RETRY_MESSAGE).
    pub fn retry_later(message: impl Display) -> Self {
        let built = sentences::retry(&message);
        Self::model_facing(Kind::Fault { heals: true }, built)
    }

    /// Outcome 4 from an error: what `?` does, for places where `?` does
    /// not fit (`map_err(ToolError::fault)`), or from a plain text that only
    /// the operator reads. The one difference: the error arrives boxed, so
    /// its type name is not known for the `error.type` log field.
    ///
    /// ```
    /// # use outcome_runtime::{Outcome, ToolError};
    /// let error = ToolError::fault("NOTES_DIR is not set");
    /// assert_eq!(error.outcome(), Outcome::Fault);
    /// assert!(!error.message().contains("NOTES_DIR"));
    /// ```
    pub fn fault(source: impl Into<Box<dyn Error + Send + Sync>>) -> Self {
        Self::from_boxed(source.into(), None)
    }

    /// Which outcome this error is.
    pub fn outcome(&self) -> Outcome {
        match self.inner.kind {
            Kind::Invalid => Outcome::Invalid,
            Kind::Stale => Outcome::Stale,
            Kind::Fault { .. } | Kind::PassThrough(_) => Outcome::Fault,
        }
    }

    /// The log level that matches who must act: INFO for the model,
    /// WARNING when the fault heals itself, ERROR for an operator.
    pub fn level(&self) -> Level {
        match self.inner.kind {
            Kind::Invalid | Kind::Stale | Kind::PassThrough(_) => Level::INFO,
            Kind::Fault { heals: true } => Level::WARN,
            Kind::Fault { heals: false } => Level::ERROR,
        }
    }

    /// Whether this is a fault that goes away by itself.
    pub fn heals_itself(&self) -> bool {
        matches!(self.inner.kind, Kind::Fault { heals: true })
    }

    /// The text the model reads.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// The error behind a fault, which only the log sees.
    pub fn source(&self) -> Option<&(dyn Error + Send + Sync + 'static)> {
        self.inner.source.as_deref()
    }

    /// The type name of the error behind a fault, logged as `error.type`.
    pub fn error_type(&self) -> Option<&'static str> {
        self.inner.error_type
    }

    /// The JSON-RPC error this passes through unchanged, if it is one: a
    /// missing client capability (-32021).
    pub fn protocol_error(&self) -> Option<&ErrorData> {
        match &self.inner.kind {
            Kind::PassThrough(error) => Some(error),
            _ => None,
        }
    }

    fn model_facing(kind: Kind, built: sentences::Built) -> Self {
        ToolError {
            inner: Box::new(Inner {
                kind,
                message: Cow::Owned(built.text),
                fallback: built.fallback,
                source: None,
                error_type: None,
                logged: false,
            }),
        }
    }

    /// Outcome 2 with a message already written to the rules (the runtime's
    /// own, such as an argument explanation).
    pub(crate) fn invalid_text(text: String) -> Self {
        Self::model_facing(
            Kind::Invalid,
            sentences::Built {
                text,
                fallback: None,
            },
        )
    }

    fn from_source(
        kind: Kind,
        source: Box<dyn Error + Send + Sync>,
        error_type: Option<&'static str>,
    ) -> Self {
        let message = match kind {
            Kind::Fault { heals: true } => message::RETRY_MESSAGE,
            _ => message::FAULT_MESSAGE,
        };
        ToolError {
            inner: Box::new(Inner {
                kind,
                message: Cow::Borrowed(message),
                fallback: None,
                source: Some(source),
                error_type,
                logged: false,
            }),
        }
    }

    /// A fault from a caught panic; the panic was logged where it was caught.
    pub(crate) fn from_panic(detail: String) -> Self {
        let mut error = Self::from_source(
            Kind::Fault { heals: false },
            detail.into(),
            Some(logging::PANIC_TYPE),
        );
        error.inner.logged = true;
        error
    }

    /// Writes `tool_failed` for a fault, once, however often it is called.
    pub(crate) fn log_fault_once(&mut self, tool: &str) {
        if self.inner.logged || !matches!(self.inner.kind, Kind::Fault { .. }) {
            return;
        }
        self.inner.logged = true;
        // Without a source, the tool's own message is what the operator
        // learns (a condition the tool named, such as a rebuilding index).
        let mut chain = match self.inner.source.as_deref() {
            Some(source) => classify::chain_text(source),
            None => self.inner.message.to_string(),
        };
        // Only the log needs the source, and its drop is the tool's code:
        // a panic there goes into this record, not into a second one.
        if let Some(source) = self.inner.source.take()
            && let Err(panic) = boundary::catch_described(move || drop(source))
        {
            chain.push_str(&format!(" (dropping the error then panicked: {panic})"));
        }
        logging::tool_failed(self.level(), tool, self.inner.error_type, &chain);
    }
}

impl<E> From<E> for ToolError
where
    E: Error + Send + Sync + 'static,
{
    fn from(error: E) -> Self {
        Self::from_boxed(Box::new(error), Some(std::any::type_name::<E>()))
    }
}

impl ToolError {
    /// A fault from an error, or the missing client capability it passes
    /// through.
    fn from_boxed(source: Box<dyn Error + Send + Sync>, error_type: Option<&'static str>) -> Self {
        if let Some(data) = source.downcast_ref::<ErrorData>()
            && data.code == ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
        {
            let data = data.clone();
            return Self::from_source(Kind::PassThrough(data), source, error_type);
        }
        let heals = classify::heals_itself(&*source);
        Self::from_source(Kind::Fault { heals }, source, error_type)
    }
}

impl fmt::Debug for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = f.debug_struct("ToolError");
        debug
            .field("outcome", &self.outcome())
            .field("level", &self.level())
            .field("message", &self.message());
        if let Some(source) = self.source() {
            debug.field("source", &source);
        }
        debug.finish()
    }
}

/// Shows what the model reads.
impl Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// How rmcp sends a `ToolError`: an `isError` result with the message as its
/// only text, or the JSON-RPC error it passes through. It also tells the
/// request log which outcome the call had.
impl IntoCallToolResult for ToolError {
    fn into_call_tool_result(mut self) -> Result<CallToolResponse, ErrorData> {
        logging::report(&mut self);
        let inner = *self.inner;
        if let Kind::PassThrough(data) = inner.kind {
            return Err(data);
        }
        let mut text = match inner.message {
            Cow::Borrowed(text) => text.to_owned(),
            Cow::Owned(text) => text,
        };
        if let Some(fallback) = inner.fallback {
            let _ = logging::CALL.try_with(|call| fallback.name_tool(&mut text, &call.tool));
        }
        Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into())
    }
}

/// A `ToolError` where rmcp wants an `ErrorData`: the error type of its
/// trait-based tools (`ToolBase::Error`).
///
/// Under this crate's `#[tool_handler]` or [`wrap_router`](crate::wrap_router)
/// the call still ends as the `ToolError` says: the `isError` result with its
/// message, at its level. Elsewhere the `ErrorData` carries the same
/// model-facing message as a JSON-RPC error (invalid params for outcomes 2
/// and 3, internal error for outcome 4).
impl From<ToolError> for ErrorData {
    fn from(error: ToolError) -> ErrorData {
        let outcome = error.outcome();
        let message = error.message().to_owned();
        let response = match error.into_call_tool_result() {
            Ok(response) => response,
            Err(pass_through) => return pass_through,
        };
        let stand_in = match outcome {
            Outcome::Invalid | Outcome::Stale => ErrorData::invalid_params(message, None),
            _ => ErrorData::internal_error(message, None),
        };
        let _ = logging::CALL.try_with(|call| {
            call.stashed
                .set(Some(Box::new((response, stand_in.clone()))));
        });
        stand_in
    }
}
