//! [`ToolError`]: how a tool call that did not meet its contract ends.

use std::borrow::Cow;
use std::error::Error;
use std::fmt::{self, Display};

use rmcp::ErrorData;
use tracing::Level;

use crate::answer::classify;
use crate::answer::sentences;
use crate::base::message;
pub use crate::base::outcome::Outcome;
use crate::base::scope;
use outcome_rules::Rule;

/// A tool call that did not produce its result, and what the model reads
/// about it.
///
/// A `#[tool]` returns `Result<T, ToolError>` (or rmcp's `Result<T,
/// McpError>`, read by [its code](#rmcps-errordata)). Build one for outcomes 2
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
///
/// # rmcp's `ErrorData`
///
/// rmcp users write `McpError::invalid_params(..)` for "the model asked for
/// something that does not exist or is not allowed", so an `ErrorData` keeps
/// the meaning its code gives it when it becomes a `ToolError`, through `?`,
/// `.into()`, `ToolError::from`, [`fault`](Self::fault) or
/// [`from_boxed`](Self::from_boxed), and when a tool outside the boundary
/// returns it under this crate's `#[tool_handler]`:
///
/// | code | outcome | what the model reads | log |
/// |---|---|---|---|
/// | -32021, missing client capability | [`Protocol`](Outcome::Protocol): passes through | nothing: the client receives the JSON-RPC error itself | INFO `tool_call_failed`, `protocol`, `error.code` |
/// | -32602, invalid params ("no such file", "not allowed") | 2, [`Invalid`](Outcome::Invalid) | the message made model-safe (below), never `data` | INFO `tool_call_failed`, `invalid`, `error.type` |
/// | -32600, invalid request ("outside the root", "too large": never succeeds as sent) | 2, [`Invalid`](Outcome::Invalid) | as -32602 | as -32602 |
/// | -32002, resource not found (replaced by -32602 in MCP 2026-07-28) | 2, [`Invalid`](Outcome::Invalid) | as -32602, after "Not found: " unless the message says so, with `data`'s `uri` quoted when the message leaves it out | as -32602 |
/// | any code, with a report this process wrote in `data` (a trait tool's `ToolError`, see [`From<ToolError> for ErrorData`](#impl-From%3CToolError%3E-for-ErrorData)) | the outcome it carries | the message as it is, bounded | as that outcome; a fault's `tool_failed` names its message |
/// | -32602 from rmcp's `Extension` extractor ("missing extension ...") | 4, [`Fault`](Outcome::Fault): the server's setup | [`FAULT_MESSAGE`](crate::message::FAULT_MESSAGE) | as the next row |
/// | -32603 and every other code (-32601, -32700, a server's own) | 4, [`Fault`](Outcome::Fault) | [`FAULT_MESSAGE`](crate::message::FAULT_MESSAGE) | ERROR `tool_failed` (code, message, `data`), then ERROR `tool_call_failed`; WARNING for both when a type registered with [`recognize_transient`](crate::recognize_transient) heals itself |
///
/// A message made model-safe is one line of at most
/// [`MESSAGE_LIMIT`](crate::message::MESSAGE_LIMIT) characters, without
/// "Invalid params:", codes such as -32602, an OS error's number ("(os
/// error 17)") or JSON-RPC wording. A value the model sent in the call's
/// arguments is read back, quoted; a path it did not send is the server's,
/// masked where it stands ("a path on the server"). A message that is only
/// a code name (`invalid_args`) is said in words, followed by the reason
/// its `data` gives, if any. Each sentence that names a stack frame, a
/// type, an environment variable, a log line's level or timestamp, a
/// command or an error code is left out, quoted or not, since no compiler
/// checked it ([`outcome_rules::leaks`]); "The request cannot be carried
/// out as sent." stands in when nothing is left. Then "Correct the request, then call
/// `<tool>` again." names the tool called, unless the last sentence is
/// already a step naming a tool ("Call list_directory to read it"); a last
/// step that names no tool ("Set start_index to 0.") is joined by ", then
/// call `<tool>` again." so the message stays two sentences. A data `uri`
/// reads: `resource_not_found("resource_not_found", Some(json!({"uri":
/// uri})))` becomes "Resource not found: 'notes://todo'."
///
/// An `ErrorData` from anywhere else (an upstream server, a library) is
/// read by its code, whatever its `data` says: only a report whose tag this
/// process made for that code and message is trusted.
///
/// An `internal_error` whose reason is the model's to fix (an OS error such
/// as "Directory not empty" for a delete the model asked for) is still a
/// fault by its code: say what the model must change with
/// [`ToolError::invalid`] where the tool knows it, as the
/// [migration guide](crate::guide::migration)'s table shows.
///
/// A JSON-RPC error that must reach the client as itself, whatever its code
/// (one the protocol demands, such as a tampered `requestState`), is
/// [`ToolError::protocol`].
///
/// ```
/// use outcome_runtime::{Outcome, ToolError};
/// use rmcp::ErrorData as McpError;
///
/// fn open(path: &str) -> Result<String, ToolError> {
///     Err(McpError::invalid_params(format!("File not found: {path}"), None))?
/// }
/// let error = open("x").unwrap_err();
/// assert_eq!(error.outcome(), Outcome::Invalid);
/// // Inside a call, the answer names the tool instead of "the tool".
/// assert_eq!(error.message(), "File not found: x. Correct the request, then call the tool again.");
///
/// let error = ToolError::from(McpError::internal_error("pool exhausted", None));
/// assert_eq!(error.outcome(), Outcome::Fault);
/// assert_eq!(error.message(), outcome_runtime::message::FAULT_MESSAGE);
/// ```
///
/// # `Box<dyn Error>`
///
/// `?` converts an error through `From`, and `ToolError` has one `From`
/// impl for errors: the blanket `impl<E: Error + Send + Sync + 'static>
/// From<E>`. A `Box<dyn Error>` is not `Send` and does not implement
/// `Error`, so that impl does not take it; and a second impl,
/// `From<Box<dyn Error>>`, is refused by the compiler as conflicting with
/// the blanket one (E0119): the standard library may one day implement
/// `Error`, `Send` and `Sync` for that box, and the two would then overlap.
/// `anyhow::Error` has the same limit. So a `Box<dyn Error>` takes one
/// explicit call, [`from_boxed`](Self::from_boxed):
///
/// ```
/// use std::error::Error;
/// use std::rc::Rc;
/// use outcome_runtime::{Outcome, ToolError};
///
/// /// Shares its key with a cache, so it cannot cross threads.
/// #[derive(Debug)]
/// struct Evicted(Rc<str>);
///
/// impl std::fmt::Display for Evicted {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         write!(f, "cache entry {} was evicted", self.0)
///     }
/// }
///
/// impl Error for Evicted {}
///
/// fn cached(key: &str) -> Result<u32, Box<dyn Error>> {
///     Err(Box::new(Evicted(key.into())))
/// }
///
/// fn count(key: &str) -> Result<u32, ToolError> {
///     let count = cached(key).map_err(ToolError::from_boxed)?;
///     Ok(count + 1)
/// }
///
/// let error = count("inbox").unwrap_err();
/// assert_eq!(error.outcome(), Outcome::Fault);
/// assert_eq!(error.error_type(), Some("Box<dyn Error>"));
/// // Still `Send + Sync`: the box was read and dropped at the conversion.
/// fn crosses_threads(_: &(impl Send + Sync)) {}
/// crosses_threads(&error);
/// ```
///
/// `?` alone does not compile:
///
/// ```compile_fail,E0277
/// # use std::error::Error;
/// # use outcome_runtime::ToolError;
/// # fn cached(key: &str) -> Result<u32, Box<dyn Error>> { Ok(1) }
/// fn count(key: &str) -> Result<u32, ToolError> {
///     Ok(cached(key)? + 1)
/// }
/// ```
///
/// A `Box<dyn Error + Send + Sync>` goes through [`fault`](Self::fault),
/// which keeps the error itself.
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
    /// What the operator's record of a fault is made from, until the
    /// record is made: it moves out with it, so a fault is recorded once.
    /// `None` for outcomes 2 and 3.
    cause: Option<Cause>,
    /// The source's type name, the `error.type` log field.
    error_type: Option<&'static str>,
    /// The writing rules this message is allowed to break, one bit each.
    waived: u16,
    /// An author's parts, kept only when the message leaves words of them
    /// out: a waiver chained to the builder says them after all.
    parts: Option<Box<sentences::Parts>>,
}

/// What the operator reads about a fault.
enum Cause {
    /// The error behind it (for a pass-through, the JSON-RPC error itself,
    /// which is never recorded).
    Error(Box<dyn Error + Send + Sync>),
    /// No error: the tool's own message names the condition (a rebuilding
    /// index).
    Condition,
    /// A caught panic, described (its message and location): recorded where
    /// it was caught, with its backtrace, so nothing is left to record.
    Panic(Box<dyn Error + Send + Sync>),
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
    /// The model reads one line of at most [`MESSAGE_LIMIT`](crate::message::MESSAGE_LIMIT)
    /// characters, whatever the parts hold: line breaks become spaces,
    /// invisible characters are escaped, and a part too long is cut. A part
    /// that is empty never yields a sentence built from nothing: without a
    /// problem the message is the next step alone; without a next step it
    /// ends with "Correct the request, then call `<tool>` again." naming the
    /// tool called. An empty literal is a compile error inside a `#[tool]`.
    ///
    /// The compiler checks a part's literal words, not what a placeholder
    /// or a `String` built elsewhere puts in it. Outside quotes, a value
    /// the model sent in the call's arguments stays, quoted; a path it did
    /// not send is masked where it stands ("a path on the server"); a
    /// sentence that names a stack frame, a type, an environment variable,
    /// a log line's level or timestamp, a command or an error code is left
    /// out of what the model reads (an empty problem reads "The request
    /// cannot be carried out as sent.", an empty step the fallback step),
    /// unless [`waive`](Self::waive) allows its rule.
    ///
    /// ```
    /// # use outcome_runtime::{ToolError, quote};
    /// let root = "/srv/notes";
    /// let error = ToolError::invalid(format_args!("No note under {root}"), "Call list_notes");
    /// assert_eq!(error.message(), "No note under a path on the server. Call list_notes.");
    /// let error = ToolError::invalid(format_args!("Read {root}/.env"), "Call list_notes");
    /// assert_eq!(error.message(), "Read a path on the server. Call list_notes.");
    /// let error = ToolError::invalid("Set NOTES_ROOT first", "Call list_notes");
    /// assert_eq!(error.message(), "The request cannot be carried out as sent. Call list_notes.");
    /// ```
    pub fn invalid(problem: impl Display, next_step: impl Display) -> Self {
        Self::from_parts(
            Kind::Invalid,
            sentences::Parts::invalid(&problem, &next_step),
        )
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
        Self::from_parts(Kind::Stale, sentences::Parts::stale(&problem, &refresh))
    }

    /// Outcome 4 that heals itself, with a message more precise than the
    /// generic one ("the index is rebuilding; retry in a minute").
    ///
    /// The message must still say that the request was fine and when to
    /// retry; it must not name the cause's internals. Logged at WARNING.
    /// It is made one line of at most [`MESSAGE_LIMIT`](crate::message::MESSAGE_LIMIT)
    /// characters; an empty one is [`RETRY_MESSAGE`](crate::message::RETRY_MESSAGE).
    pub fn retry_later(message: impl Display) -> Self {
        let built = sentences::retry(&message);
        Self::model_facing(Kind::Fault { heals: true }, built)
    }

    /// Outcome 4 from an error: what `?` does, for places where `?` does
    /// not fit (`map_err(ToolError::fault)`, a `Box<dyn Error + Send +
    /// Sync>`), or from a plain text that only the operator reads. The one
    /// difference: the error arrives boxed, so the `error.type` log field
    /// names its type only for the standard types
    /// [`from_boxed`](Self::from_boxed) lists. As with `?`, an rmcp
    /// `ErrorData` follows [its table](Self#rmcps-errordata).
    ///
    /// ```
    /// # use outcome_runtime::{Outcome, ToolError};
    /// let error = ToolError::fault("NOTES_DIR is not set");
    /// assert_eq!(error.outcome(), Outcome::Fault);
    /// assert!(!error.message().contains("NOTES_DIR"));
    /// ```
    pub fn fault(source: impl Into<Box<dyn Error + Send + Sync>>) -> Self {
        let source = source.into();
        let error_type = known_type(&*source);
        Self::from_error(source, error_type)
    }

    /// A JSON-RPC error that reaches the client as itself, whatever its
    /// code: for a request the protocol rejects, which no change of the
    /// model's arguments can fix (a `requestState` that fails its integrity
    /// check, SEP-2322). Outcome [`Protocol`](Outcome::Protocol), logged as
    /// `tool_call_failed` at INFO with the code, and no `tool_failed`.
    ///
    /// What the model can correct is [`invalid`](Self::invalid) instead: the
    /// model reads a tool's message, and a JSON-RPC error it never reads.
    ///
    /// ```
    /// # use outcome_runtime::{Outcome, ToolError};
    /// use rmcp::ErrorData;
    ///
    /// let error = ToolError::protocol(ErrorData::invalid_params("requestState was altered", None));
    /// assert_eq!(error.outcome(), Outcome::Protocol);
    /// assert_eq!(error.protocol_error().unwrap().code.0, -32602);
    /// ```
    pub fn protocol(error: ErrorData) -> Self {
        let data = error.clone();
        Self::from_source(
            Kind::PassThrough(data),
            Box::new(error),
            Some(std::any::type_name::<ErrorData>()),
        )
    }

    /// Outcome 4, or what its type says, from a `Box<dyn Error>`, `Send` or
    /// not: `helper().map_err(ToolError::from_boxed)?`. See
    /// [`Box<dyn Error>`](Self#boxdyn-error) for why `?` alone cannot.
    ///
    /// The error is classified as `?` would: a timeout (or any transient
    /// error) anywhere in its source chain heals itself, and an rmcp
    /// `ErrorData` follows [its table](Self#rmcps-errordata). The `error.type`
    /// log field names its type when it is one of `std::io::Error`,
    /// `ParseIntError`, `ParseFloatError`, `ParseBoolError`,
    /// `ParseCharError`, `TryFromIntError`, `AddrParseError`, `Utf8Error`,
    /// `FromUtf8Error`, `FromUtf16Error`, `fmt::Error`, `serde_json::Error` or
    /// `ErrorData`, and is `Box<dyn Error>` otherwise.
    ///
    /// Those types are kept whole, as [`source`](Self::source). Any other
    /// error may not be `Send`, and a `ToolError` must be, so it is read
    /// at once, its source chain written to a text for the log (bounded as
    /// every `tool_failed` record is), and dropped; the source is then an
    /// error that displays that text.
    ///
    /// ```
    /// # use outcome_runtime::{Outcome, ToolError, message::RETRY_MESSAGE};
    /// let timeout: Box<dyn std::error::Error> =
    ///     Box::new(std::io::Error::new(std::io::ErrorKind::TimedOut, "upstream slow"));
    /// let error = ToolError::from_boxed(timeout);
    /// assert!(error.heals_itself());
    /// assert_eq!(error.message(), RETRY_MESSAGE);
    /// assert_eq!(error.error_type(), Some("std::io::error::Error"));
    /// ```
    pub fn from_boxed(error: Box<dyn Error + 'static>) -> ToolError {
        let error = match keep_known(error) {
            Ok(kept) => return kept,
            Err(other) => other,
        };
        let heals = classify::heals_itself(&*error);
        let mut text = classify::chain_text(&*error);
        drop_noting_panic(error, &mut text);
        Self::from_source(
            Kind::Fault { heals },
            Box::new(Captured(text)),
            Some(BOXED_TYPE),
        )
    }

    /// Which outcome this error is.
    pub fn outcome(&self) -> Outcome {
        match self.inner.kind {
            Kind::Invalid => Outcome::Invalid,
            Kind::Stale => Outcome::Stale,
            Kind::Fault { .. } => Outcome::Fault,
            Kind::PassThrough(_) => Outcome::Protocol,
        }
    }

    /// The log level that matches who must act: INFO for the model,
    /// WARNING when the fault heals itself, ERROR for an operator.
    pub fn level(&self) -> Level {
        crate::base::outcome::level_of(self.outcome(), self.heals_itself())
    }

    /// Whether this is a fault that goes away by itself.
    pub fn heals_itself(&self) -> bool {
        matches!(self.inner.kind, Kind::Fault { heals: true })
    }

    /// The text the model reads.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// Allows this message to break `rule`, for the rare text that must:
    /// `#[tool]` then accepts the literal texts of the call it is chained
    /// to (`ToolError::invalid(..).waive(Rule::NoCommand)`), and
    /// `testing::check` (feature `testing`) the message. Say why in a
    /// comment next to it.
    ///
    /// ```
    /// use outcome_runtime::{Rule, ToolError};
    ///
    /// // The server's users run this command themselves, by design.
    /// let error = ToolError::invalid(
    ///     "The notes CLI is older than this server",
    ///     "Ask the user to run pip install notes-cli, then call sync_notes again",
    /// )
    /// .waive(Rule::NoCommand);
    /// assert!(error.waives(Rule::NoCommand));
    /// ```
    #[must_use]
    pub fn waive(mut self, rule: Rule) -> Self {
        self.inner.waived |= rule_bit(rule);
        if let Some(parts) = self.inner.parts.take() {
            let waived = self.inner.waived;
            let rebuilt = Self::from_parts_waiving(self.inner.kind, *parts, waived);
            return rebuilt.waive_bits(waived);
        }
        self
    }

    fn waive_bits(mut self, waived: u16) -> Self {
        self.inner.waived = waived;
        self
    }

    /// Whether [`waive`](Self::waive) allowed this message to break `rule`.
    pub fn waives(&self, rule: Rule) -> bool {
        self.inner.waived & rule_bit(rule) != 0
    }

    /// The error behind a fault, which only the log sees.
    pub fn source(&self) -> Option<&(dyn Error + Send + Sync + 'static)> {
        match &self.inner.cause {
            Some(Cause::Error(source) | Cause::Panic(source)) => Some(&**source),
            _ => None,
        }
    }

    /// The type name of the error behind a fault, or of the protocol error
    /// an outcome 2 came from, logged as `error.type`.
    pub fn error_type(&self) -> Option<&'static str> {
        self.inner.error_type
    }

    /// The JSON-RPC error this passes through unchanged, if it is one: a
    /// missing client capability (-32021), outcome
    /// [`Protocol`](Outcome::Protocol).
    pub fn protocol_error(&self) -> Option<&ErrorData> {
        match &self.inner.kind {
            Kind::PassThrough(error) => Some(error),
            _ => None,
        }
    }

    fn model_facing(kind: Kind, built: sentences::Built) -> Self {
        let cause = matches!(kind, Kind::Fault { .. }).then_some(Cause::Condition);
        ToolError {
            inner: Box::new(Inner {
                kind,
                message: Cow::Owned(built.text),
                fallback: built.fallback,
                cause,
                error_type: None,
                waived: 0,
                parts: None,
            }),
        }
    }

    /// Outcome 2 or 3 from an author's parts: what the model reads leaves
    /// out the sentences that tell what the server is made of.
    fn from_parts(kind: Kind, parts: sentences::Parts) -> Self {
        Self::from_parts_waiving(kind, parts, 0)
    }

    /// [`from_parts`](Self::from_parts), with the rules in `waived`
    /// allowed; the parts are kept when words were left out, so that a
    /// waiver chained to the builder can bring them back.
    fn from_parts_waiving(kind: Kind, parts: sentences::Parts, waived: u16) -> Self {
        let waives = |rule| waived & rule_bit(rule) != 0;
        let fewer = scope::CALL
            .try_with(|call| parts.withheld(waives, sentences::Sent::new(call.arguments.as_ref())))
            .unwrap_or_else(|_| parts.withheld(waives, sentences::Sent::default()));
        let said = fewer.as_ref().unwrap_or(&parts);
        let built = match kind {
            Kind::Stale => said.stale_message(),
            _ => said.invalid_message(),
        };
        let mut error = Self::model_facing(kind, built);
        if fewer.is_some() {
            error.inner.parts = Some(Box::new(parts));
        }
        error
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
                cause: Some(Cause::Error(source)),
                error_type,
                waived: 0,
                parts: None,
            }),
        }
    }

    /// The text the model reads, its fallback step naming `tool`.
    pub(crate) fn into_message(self, tool: &str) -> String {
        let inner = *self.inner;
        let mut text = inner.message.into_owned();
        if let Some(fallback) = inner.fallback {
            fallback.name_tool(&mut text, tool);
        }
        text
    }
}

const _: () = assert!(Rule::ALL.len() <= 16, "a rule has no bit left in `waived`");

/// `rule`'s bit in [`Inner::waived`].
fn rule_bit(rule: Rule) -> u16 {
    1 << rule.index()
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

mod from;
mod record;
mod sent;

use from::{BOXED_TYPE, Captured, keep_known, known_type};
pub(crate) use record::FaultRecord;
use record::drop_noting_panic;

#[cfg(test)]
mod tests;
