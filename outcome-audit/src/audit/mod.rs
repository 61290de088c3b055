//! The audit's core: from each tool's input schema, the calls a model gets
//! wrong; what the answer to each must be; the report. Any connected rmcp
//! client drives it; `testing::audit` adds the log records of a server run
//! in this process.

use std::fmt;
use std::time::{Duration, Instant};

use outcome_rules::{FAULT_MESSAGE, RETRY_MESSAGE, one_line};
use outcome_schema::Contract;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, ErrorCode, ErrorData, JsonObject,
    ListToolsRequest, PaginatedRequestParams, ServerResult, Tool,
};
use rmcp::service::{Peer, RoleClient, ServiceError};
use serde_json::{Map, Value};

use crate::{Level, LogRecord as Logged};

/// How deep the audit follows nested schemas, and how many `$ref`s in a
/// row: the depth the runtime's own reading of a schema stops at.
pub(crate) const DEPTH_LIMIT: usize = outcome_schema::DEPTH_LIMIT;

/// The longest string the audit builds: to meet a `minLength`, to break a
/// `maxLength` or one short of a `minLength`.
pub(crate) const LENGTH_LIMIT: u64 = 100_000;

/// The most items the audit builds to meet a `minItems`.
pub(crate) const ITEMS_LIMIT: u64 = 1_000;

/// The steps (schema nodes visited, `$ref`s followed, `enum` choices
/// read) the audit spends on one tool's input schema.
pub(crate) const WALK_LIMIT: usize = 100_000;

/// The bytes, roughly, of the arguments the audit builds for one call.
pub(crate) const VALUE_LIMIT: usize = 256 * 1024;

/// The tools the audit probes; a server that lists more has the rest
/// reported as not probed.
pub(crate) const TOOLS_LIMIT: usize = 1_000;

/// The pages of `tools/list` the audit reads.
pub(crate) const PAGES_LIMIT: usize = 100;

/// The longest tool or argument name the audit probes, in characters (the
/// MCP specification's bound for a tool name).
pub(crate) const NAME_LIMIT: usize = 128;

/// The bytes of an answer's text the audit checks and keeps.
pub(crate) const TEXT_LIMIT: usize = 16 * 1024;

/// The findings after which the audit stops calling.
pub(crate) const FINDINGS_LIMIT: usize = 1_000;

/// The name of the key no schema declares, sent to a tool that refuses
/// unknown keys.
pub(crate) const UNKNOWN_KEY: &str = "audit_unknown_key";

/// What a call gets wrong, by design.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum Mistake {
    /// A required argument left out.
    Missing,
    /// A required argument sent as `null`.
    Null,
    /// An argument of the wrong JSON type.
    WrongType,
    /// A value that is not one of the argument's `enum`.
    NotInEnum,
    /// A number below the argument's `minimum`.
    BelowMinimum,
    /// A number above the argument's `maximum`.
    AboveMaximum,
    /// A string shorter than the argument's `minLength`.
    TooShort,
    /// A string longer than the argument's `maxLength`.
    TooLong,
    /// A number equal to the argument's `exclusiveMinimum` (or, for an
    /// integer, the nearest one not above it).
    AtExclusiveMinimum,
    /// A number equal to the argument's `exclusiveMaximum` (or, for an
    /// integer, the nearest one not below it).
    AtExclusiveMaximum,
    /// A string of the argument's lengths that its `pattern` refuses.
    NotPattern,
    /// A string of the argument's lengths that its `format` refuses.
    NotFormat,
    /// A key the schema does not declare, where `additionalProperties` is
    /// false.
    UnknownKey,
}

impl Mistake {
    fn describe(&self, argument: &str) -> String {
        match self {
            Mistake::Missing => format!("the required argument {argument} left out"),
            Mistake::Null => format!("the required argument {argument} sent as null"),
            Mistake::WrongType => format!("{argument} of the wrong type"),
            Mistake::NotInEnum => format!("{argument} outside its enum"),
            Mistake::BelowMinimum => format!("{argument} below its minimum"),
            Mistake::AboveMaximum => format!("{argument} above its maximum"),
            Mistake::TooShort => format!("{argument} shorter than its minLength"),
            Mistake::TooLong => format!("{argument} longer than its maxLength"),
            Mistake::AtExclusiveMinimum => format!("{argument} not above its exclusiveMinimum"),
            Mistake::AtExclusiveMaximum => format!("{argument} not below its exclusiveMaximum"),
            Mistake::NotPattern => format!("{argument} outside its pattern"),
            Mistake::NotFormat => format!("{argument} outside its format"),
            Mistake::UnknownKey => format!("the unknown key {argument}"),
        }
    }
}

/// One call the audit makes: the tool's baseline arguments, changed to
/// break its schema in one way.
#[derive(Clone, Debug)]
pub(crate) struct Probe {
    pub(crate) mistake: Mistake,
    /// The argument the mistake is in (the unknown key, for
    /// [`Mistake::UnknownKey`]).
    pub(crate) argument: String,
    /// What the argument is sent as: `None` leaves it out.
    pub(crate) sent: Option<Value>,
    /// Whether the answer must quote the value sent.
    pub(crate) quoted: bool,
}

impl Probe {
    /// The value the answer must quote, if any.
    fn value(&self) -> Option<&Value> {
        self.sent.as_ref().filter(|_| self.quoted)
    }

    /// The arguments of the call: `baseline`, changed.
    fn arguments(&self, baseline: &JsonObject) -> JsonObject {
        let mut arguments = baseline.clone();
        match &self.sent {
            Some(value) => {
                arguments.insert(self.argument.clone(), value.clone());
            }
            None => {
                arguments.remove(&self.argument);
            }
        }
        arguments
    }
}

/// A tool, an argument or a mistake the audit could not probe, and why. A
/// report with any is not clean: what was not called was not checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotProbed {
    /// The tool, or `None` for the tool list itself (tools past the
    /// audit's bounds, a list that does not end).
    pub tool: Option<String>,
    /// The argument, when only it (or one of its mistakes) was not probed.
    pub argument: Option<String>,
    /// Why, one sentence.
    pub why: String,
}

/// What an answer must be, and was not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Expectation {
    /// A result with `isError` true: not a success, not a JSON-RPC error.
    IsError,
    /// Outcome 2, not a fault: the text is not the fault or retry message.
    NotFault,
    /// Logged at INFO as `tool_call_failed` with outcome `invalid` (checked
    /// only for a server audited in this process).
    LoggedInvalid,
    /// The text names the argument that is wrong.
    NamesArgument,
    /// The text quotes the value sent.
    QuotesValue,
    /// A writing rule, as `outcome_rules::check_message` reads the text.
    Rule(outcome_rules::Rule),
    /// The tool's description in `tools/list` keeps to the rules for
    /// descriptions, as `outcome_rules::check_description` reads it.
    Description(outcome_rules::DescriptionProblem),
}

impl Expectation {
    /// The expectation's name, as the report writes it: `is-error`, or the
    /// rule's name (`no-lookup`).
    pub fn name(self) -> &'static str {
        match self {
            Expectation::IsError => "is-error",
            Expectation::NotFault => "not-fault",
            Expectation::LoggedInvalid => "logged-invalid",
            Expectation::NamesArgument => "names-argument",
            Expectation::QuotesValue => "quotes-value",
            Expectation::Rule(rule) => rule.name(),
            Expectation::Description(problem) => problem.name(),
        }
    }
}

impl fmt::Display for Expectation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

mod by_tool;
mod judge;
mod pattern;
mod plan;
mod report;
mod run;
#[cfg(test)]
mod tests;
mod values;
mod walk;

pub use by_tool::{Heading, ToolSummary};
pub use report::{AuditReport, Defect, Finding, NotJudged, shown_line};
pub use run::ValidCalls;

pub(crate) use by_tool::*;
pub(crate) use judge::*;
pub(crate) use plan::*;
pub(crate) use run::*;
pub(crate) use values::*;
pub(crate) use walk::*;
