//! The one reading of an MCP tool's schemas that `outcome-runtime` and
//! `outcome-audit` share: whether a call's arguments keep to the input
//! schema the tool publishes, and if not, what the model reads; and
//! whether a result keeps to its output schema.
//!
//! Whether a value keeps to a schema is the standard's question, answered
//! by the [`jsonschema`] crate, which passes the JSON Schema Test Suite.
//! This crate keeps what only it does: whether a schema narrows anything
//! serde would not enforce on its own (so that a tool whose schema
//! narrows nothing pays nothing), and the words the model reads: the
//! argument by its path, the value it sent, quoted, what it must be, and
//! the step to take.
//!
//! A [`Contract`] is a tool's schema read once, its validator built.
//! [`Contract::check`] runs before the tool's body and names the first
//! argument outside the schema; [`Contract::explain`] says the same of
//! arguments serde refused, in the same words.
//!
//! ```
//! use std::sync::Arc;
//! use outcome_schema::Contract;
//! use serde_json::json;
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {
//!         "city": { "type": "string" },
//!         "days": { "type": "integer", "format": "uint8", "minimum": 1, "maximum": 7 }
//!     },
//!     "required": ["city", "days"]
//! });
//! let contract = Contract::new(Arc::new(schema.as_object().unwrap().clone()));
//! assert!(contract.narrows());
//!
//! let arguments = json!({ "city": "Oslo", "days": 0 });
//! assert_eq!(
//!     contract.check("forecast", arguments.as_object()).unwrap_err(),
//!     "The argument days of forecast was '0', but it must be a whole number from 1 to 7. \
//!      Call forecast again with days as a whole number from 1 to 7."
//! );
//! ```
//!
//! # What is checked
//!
//! Every keyword of draft 2020-12 (and of the drafts before it, when the
//! schema's `$schema` names one), as the standard defines it, with these
//! choices:
//!
//! - **Formats are asserted.** The standard makes `format` an annotation
//!   unless a dialect asks for more; a tool that writes `format: email`
//!   means it, so every format the validator knows is checked: `date`,
//!   `date-time`, `time`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`,
//!   `uri`, `uri-reference`, `iri`, `iri-reference`, `uri-template`,
//!   `uuid`, `json-pointer`, `relative-json-pointer` and `regex`, and three
//!   schemars writes for Rust types whose deserializers refuse anything
//!   else (`ip`, `partial-date-time`, `partial-time`). The suite's cases
//!   where a format is only an annotation are refused on purpose.
//! - **International names are not checked.** `idn-hostname` and
//!   `idn-email` need the validator's `idna` feature, which would bring a
//!   Unicode library into every server; they are left as annotations.
//! - **Patterns run on the `regex` crate's engine**, whose time is linear
//!   in the text whatever the pattern. A pattern it cannot run (a
//!   look-around, a back-reference) or past [`PATTERN_SIZE_LIMIT`] is not
//!   checked (see below).
//! - **Nothing is fetched.** A `$ref` to another document is not
//!   followed.
//!
//! A schema the validator cannot build as published (such a pattern, a
//! reference to another document or to nowhere, a keyword whose value the
//! standard does not allow) is repaired by leaving out what cannot be
//! built, and the keywords that would see less for it (`additionalProperties`
//! and its kin where it sat, `unevaluatedProperties` and `unevaluatedItems`
//! everywhere): the check then accepts more, never less. One it still
//! cannot build is not checked.
//!
//! # Hostile schemas and arguments
//!
//! Schemas and arguments both come from outside: a schema may refer to
//! itself, nest ten thousand levels or hold a pattern built to backtrack,
//! and arguments may be megabytes. The validator works by recursion and
//! follows every path through a schema, so each schema is first read
//! without recursion, and a schema that nests past [`NESTING_LIMIT`]
//! levels (in its document, or through its references), holds more than
//! [`READ_LIMIT`] schemas, or applies them along more than
//! [`PATHS_LIMIT`] paths is not checked: every call is accepted, and
//! [`Contract::narrows`] is false. Arguments nested deeper than a
//! recursive schema can check on a thread's stack are accepted too. A
//! check that cannot finish is never a refusal; nothing panics.
//!
//! # Output schemas
//!
//! A [`Contract`] built from a tool's `outputSchema` checks a result's
//! `structuredContent` with [`Contract::verify`], whose reason is for the
//! operator's log; [`Contract::narrows`] says whether the schema asks
//! anything the result's type does not already guarantee.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::sync::Arc;

use serde_json::{Map, Value};

mod cycles;
mod describe;
mod fault;
mod formats;
mod keywords;
mod narrows;
mod read;
mod reference;
mod serde_words;
mod standard;
mod words;

#[cfg(test)]
mod tests;

use fault::Finder;
use standard::{NotChecked, Standard};
use words::Words;

/// A JSON object: a tool's input schema, or a call's arguments, as rmcp
/// holds them.
pub type JsonObject = Map<String, Value>;

/// How deep the words follow nested schemas, alternatives and `$ref`s,
/// and how many `$ref`s in a row they follow. Real parameter types are a
/// handful of levels deep; 32 leaves room for them.
pub const DEPTH_LIMIT: usize = 32;

/// How deep a schema the validator is handed may nest: in its document
/// (its `enum` and `const` included), and through its references. The
/// validator compiles and checks by recursion; this keeps it far from the
/// end of a 2 MiB stack.
pub const NESTING_LIMIT: usize = 128;

/// How many schemas one schema may hold (its subschemas, and the ones its
/// references lead to) and still be checked.
pub const READ_LIMIT: usize = 200_000;

/// How many paths through a schema, from the root to each subschema
/// added up, the validator may follow for one value: each is checked in
/// full, so a schema whose parts each apply the next twice doubles at
/// every level.
pub const PATHS_LIMIT: usize = 1_000_000;

/// The largest compiled pattern, in bytes of its program. A pattern past
/// it is not checked.
pub const PATTERN_SIZE_LIMIT: usize = 64 * 1024;

/// A tool's schema, read once: what a call's arguments (or a result) are
/// checked against.
///
/// Build it once per tool (it builds the validator) and keep it; checking
/// a call against a contract that [narrows](Self::narrows) nothing costs
/// nothing.
pub struct Contract {
    schema: Arc<JsonObject>,
    narrows: bool,
    /// `None` for a schema the validator is not handed or cannot build.
    standard: Option<Standard>,
}

impl Contract {
    /// Reads `schema`: whether it narrows anything, and its validator.
    pub fn new(schema: Arc<JsonObject>) -> Contract {
        let options = standard::options();
        let asserted =
            |format: &str| options.is_known_format(jsonschema::Draft::Draft202012, format);
        let reading = read::read(&schema, asserted);
        let standard = Standard::build(&schema, &reading, &options);
        Contract {
            narrows: reading.narrows && standard.is_some(),
            standard,
            schema,
        }
    }

    /// The schema this contract was read from.
    pub fn schema(&self) -> &Arc<JsonObject> {
        &self.schema
    }

    /// Whether the schema states anything serde does not enforce for a
    /// typed parameter, so that a call is checked before the body: a
    /// bound (`minimum`, `maximum`, their exclusive forms beyond what an
    /// integer `format` implies, `multipleOf`), a length (`minLength`,
    /// `maxLength`, `minItems`, `maxItems`, `minProperties`,
    /// `maxProperties`), `pattern`, a checked `format`, `uniqueItems`,
    /// `enum`, `const`, a closed object or list (`additionalProperties`,
    /// `unevaluatedProperties`, `additionalItems`, `unevaluatedItems` not
    /// `true`), `propertyNames`, `contains`, `not`, `oneOf`, `if` with
    /// `then` or `else`, `dependentRequired`, `dependentSchemas`,
    /// `required` apart from the properties it names, or a `false`
    /// schema. A schema of types, properties and required properties
    /// alone is serde's to enforce; so is a schema that is not checked
    /// (see the crate's docs).
    pub fn narrows(&self) -> bool {
        self.narrows
    }

    /// Checks `arguments` against the schema. `Err` holds the message the
    /// model reads for the first argument outside it: the argument (its
    /// path, for a nested one), the value sent, quoted, what it must be,
    /// and the step to call `tool` again. A contract that narrows nothing
    /// accepts every call without looking.
    ///
    /// # Errors
    ///
    /// The message, when the arguments are outside the schema.
    pub fn check(&self, tool: &str, arguments: Option<&JsonObject>) -> Result<(), String> {
        if !self.narrows {
            return Ok(());
        }
        let empty = JsonObject::new();
        match self.refusal(tool, arguments.unwrap_or(&empty)) {
            Some(text) => Err(text),
            None => Ok(()),
        }
    }

    /// Whether `arguments` keep to the schema, whatever
    /// [`narrows`](Self::narrows) says: types and required properties
    /// included. A schema that is not checked, or arguments too deep to
    /// check, fit.
    pub fn fits(&self, arguments: &JsonObject) -> bool {
        let Some(standard) = &self.standard else {
            return true;
        };
        match standard.value(arguments) {
            Ok(whole) => standard.is_valid(&whole),
            Err(NotChecked) => true,
        }
    }

    /// The message for arguments of `tool` that serde refused, with
    /// serde's `reason` (without rmcp's prefix): the first argument outside
    /// the schema, told as [`check`](Self::check) tells it, or, when the
    /// schema finds nothing wrong (a type with its own checks behind
    /// `try_from`, a hand-written `Deserialize`), the argument serde's
    /// reason points at, in this crate's words. serde's own text is never
    /// passed on: it may hold the model's value uncut or the name of a
    /// Rust type.
    pub fn explain(&self, tool: &str, arguments: Option<&JsonObject>, reason: &str) -> String {
        let empty = JsonObject::new();
        let arguments = arguments.unwrap_or(&empty);
        if let Some(text) = self.refusal(tool, arguments) {
            return text;
        }
        let root = self.words_root();
        let words = Words::new(root);
        // Arguments too deep to check whole: what is wrong above the depth
        // checked is told as the check would tell it.
        if let Some(standard) = &self.standard
            && let Err(NotChecked) = standard.value(arguments)
        {
            let cut = standard.cut(arguments);
            let finder = Finder {
                root,
                arguments: &cut,
            };
            if let Some(fault) = standard
                .errors_above_cut(&cut)
                .and_then(|errors| finder.first(&errors))
            {
                return bounded(&words.tell(tool, &fault));
            }
        }
        bounded(&words.refused(tool, arguments, reason))
    }

    /// Checks a result's `structuredContent` against this contract, built
    /// from the tool's `outputSchema`. `Err` holds the reason for the
    /// operator's log: where in the value, and what the standard found
    /// (quoting the value; bounded to one line). The model never reads it.
    /// A value too deep to check, or a schema that is not checked,
    /// passes.
    ///
    /// # Errors
    ///
    /// The reason, when the value is outside the schema.
    pub fn verify(&self, value: &Value) -> Result<(), String> {
        let Some(standard) = &self.standard else {
            return Ok(());
        };
        if standard.too_deep(value) || standard.is_valid(value) {
            return Ok(());
        }
        let finder = Finder {
            root: standard.schema(&self.schema),
            arguments: value,
        };
        let reason = standard
            .errors(value)
            .and_then(|errors| {
                finder.first_error(&errors).map(|error| {
                    let at = error.instance_path().as_str();
                    let at = if at.is_empty() { "the root" } else { at };
                    format!("at {at}: {error}")
                })
            })
            .unwrap_or_else(|| "the value does not keep to the output schema".to_owned());
        Err(outcome_rules::one_line(
            &reason,
            outcome_rules::MESSAGE_LIMIT,
        ))
    }

    /// The message for arguments outside the schema; `None` when they keep
    /// to it, or cannot be checked.
    fn refusal(&self, tool: &str, arguments: &JsonObject) -> Option<String> {
        let standard = self.standard.as_ref()?;
        let whole = standard.value(arguments).ok()?;
        if standard.is_valid(&whole) {
            return None;
        }
        let root = standard.schema(&self.schema);
        let words = Words::new(root);
        let finder = Finder {
            root,
            arguments: &whole,
        };
        let text = match standard.errors(&whole).and_then(|e| finder.first(&e)) {
            Some(fault) => words.tell(tool, &fault),
            None => match self.argument_fault(standard, tool, arguments) {
                Some(text) => text,
                // Errors too many to list, or none the words can place: the
                // argument, when only one was sent, or the arguments whole.
                None => words.refused(tool, arguments, ""),
            },
        };
        Some(bounded(&text))
    }

    /// For a schema whose errors are too many to list whole: the first
    /// argument whose own errors can be listed and are not none, told.
    fn argument_fault(
        &self,
        standard: &Standard,
        tool: &str,
        arguments: &JsonObject,
    ) -> Option<String> {
        const ARGUMENTS_LOOKED_AT: usize = 64;
        let root = standard.schema(&self.schema);
        arguments
            .iter()
            .take(ARGUMENTS_LOOKED_AT)
            .find_map(|(name, value)| {
                let alone = Value::Object(JsonObject::from_iter([(name.clone(), value.clone())]));
                let errors = standard.errors_of_argument(name, &alone)?;
                let finder = Finder {
                    root,
                    arguments: &alone,
                };
                let fault = finder.first(&errors)?;
                Some(Words::new(root).tell(tool, &fault))
            })
    }

    /// The schema the words describe: the one the validator was built
    /// from.
    fn words_root(&self) -> &JsonObject {
        match &self.standard {
            Some(standard) => standard.schema(&self.schema),
            None => &self.schema,
        }
    }
}

/// A message as the model reads it: one line, within the limit.
fn bounded(text: &str) -> String {
    outcome_rules::one_line(text, outcome_rules::MESSAGE_LIMIT)
}

impl std::fmt::Debug for Contract {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Contract")
            .field("narrows", &self.narrows)
            .field("checked", &self.standard.is_some())
            .finish_non_exhaustive()
    }
}

/// The schema `reference` points to within `root`: `#` for the root, a
/// JSON pointer (`#/$defs/Name`, percent- and `~`-escaped) for a place in
/// it. `None` for a reference to another document, an anchor, or a place
/// that is not there.
pub fn resolve<'a>(root: &'a JsonObject, reference: &str) -> Option<Resolved<'a>> {
    reference::lookup(root, reference)
}

/// Where a reference leads: the root itself, or a value within it.
#[derive(Clone, Copy, Debug)]
pub enum Resolved<'a> {
    /// `#`: the whole schema.
    Root,
    /// A value within the schema.
    Value(&'a Value),
}
