//! The one reading of an MCP tool's input schema that `outcome-runtime` and
//! `outcome-audit` share: whether a call's arguments keep to the schema the
//! tool publishes, and if not, what the model reads.
//!
//! A [`Contract`] is a tool's input schema read once: it knows whether the
//! schema narrows anything serde would not enforce on its own (bounds,
//! lengths, patterns, formats, allowed values, closed objects), and holds
//! the schema's patterns compiled. [`Contract::check`] runs before the
//! tool's body and names the first argument outside the schema, the value
//! it was and what it must be; [`Contract::explain`] says the same of
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
//! Schemas and arguments both come from outside: a schema may refer to
//! itself, nest ten thousand levels or hold a pattern built to backtrack,
//! and arguments may be megabytes. Every walk here is bounded in depth and
//! in steps and gives up by accepting, patterns run on an engine whose time
//! is linear in the text, and nothing panics.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value};

mod digest;
mod formats;
mod keywords;
mod walk;
mod words;

#[cfg(test)]
mod tests;

use keywords::integer_format;
use walk::Walk;

/// A JSON object: a tool's input schema, or a call's arguments, as rmcp
/// holds them.
pub type JsonObject = Map<String, Value>;

/// How deep a walk follows nested values, alternatives and references, and
/// how many `$ref`s in a row it follows. Real parameter types are a handful
/// of levels deep; 32 leaves room for them and keeps a hostile nesting far
/// from the stack's end.
pub const DEPTH_LIMIT: usize = 32;

/// How many schema-against-value checks one call may cost. A recursive
/// schema with alternatives at each level branches exponentially; the
/// budget turns that into a bounded, if incomplete, search that accepts.
pub const STEP_LIMIT: usize = 50_000;

/// How many schemas [`Contract::new`] reads of one tool's input schema;
/// past it, the contract checks every call (the walk has its own budget),
/// and the patterns it did not reach are not checked.
pub const READ_LIMIT: usize = 100_000;

/// The largest compiled pattern, in bytes of its program. A pattern past
/// it is not checked.
pub const PATTERN_SIZE_LIMIT: usize = 64 * 1024;

/// How many distinct patterns one contract compiles; the rest are not
/// checked.
pub const PATTERNS_LIMIT: usize = 1_000;

/// The longest text matched against a pattern, in bytes: matching takes
/// time in proportion to the text times the pattern's program, and this
/// keeps the worst case to milliseconds. A longer text is not matched.
pub const PATTERN_TEXT_LIMIT: usize = 10_000;

/// A tool's input schema, read once: what a call's arguments are checked
/// against before the tool's body runs.
///
/// Build it once per tool (it compiles the schema's patterns) and keep it;
/// checking a call against a contract that [narrows](Self::narrows)
/// nothing costs nothing.
pub struct Contract {
    schema: Arc<JsonObject>,
    narrows: bool,
    patterns: Patterns,
    /// What each schema in `schema` asks, by its address: the schema is
    /// never changed while the contract holds it.
    digests: digest::Digests,
}

/// The schema's patterns, compiled: `None` for one that cannot be checked
/// (a syntax the engine lacks, such as a look-around, or past
/// [`PATTERN_SIZE_LIMIT`]).
pub(crate) type Patterns = HashMap<Box<str>, Option<regex::Regex>>;

impl Contract {
    /// Reads `schema`: whether it narrows anything, and its patterns.
    pub fn new(schema: Arc<JsonObject>) -> Contract {
        let (narrows, patterns, digests) = read(&schema);
        Contract {
            schema,
            narrows,
            patterns,
            digests,
        }
    }

    /// The schema this contract was read from.
    pub fn schema(&self) -> &Arc<JsonObject> {
        &self.schema
    }

    /// Whether the schema states anything a call is checked for before the
    /// body: a bound (`minimum`, `maximum`, their exclusive forms beyond
    /// what an integer `format` implies, `multipleOf`), a length
    /// (`minLength`, `maxLength`, `minItems`, `maxItems`, `minProperties`,
    /// `maxProperties`), `pattern`, a string `format` this crate checks,
    /// `uniqueItems`, `enum`, `const`, a closed object
    /// (`additionalProperties` or `unevaluatedProperties` not `true`), or a
    /// `false` schema. A schema of types and required properties alone is
    /// serde's to enforce for a typed parameter.
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
        match walk::first_fault(self, arguments.unwrap_or(&empty), |walk, fault| {
            walk.tell(tool, fault)
        }) {
            Some(text) => Err(outcome_rules::one_line(&text, outcome_rules::MESSAGE_LIMIT)),
            None => Ok(()),
        }
    }

    /// Whether `arguments` keep to the schema, as far as a bounded walk
    /// can tell: whatever [`narrows`](Self::narrows) says, every keyword
    /// this crate reads is checked.
    pub fn fits(&self, arguments: &JsonObject) -> bool {
        walk::first_fault(self, arguments, |_, _| ()).is_none()
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
        let text = walk::first_fault(self, arguments, |walk, fault| walk.tell(tool, fault))
            .unwrap_or_else(|| {
                let walk = Walk::new(self);
                walk.refused(tool, walk.follow(&self.schema), arguments, reason)
            });
        outcome_rules::one_line(&text, outcome_rules::MESSAGE_LIMIT)
    }
}

impl Contract {
    /// What `rules`, a schema within this contract's, asks of a value: read
    /// when the contract was, or now for one past [`READ_LIMIT`].
    pub(crate) fn digest<'a>(&'a self, rules: &JsonObject) -> std::borrow::Cow<'a, digest::Digest> {
        match self.digests.get(&digest::address(rules)) {
            Some(digest) => std::borrow::Cow::Borrowed(digest),
            None => std::borrow::Cow::Owned(digest::Digest::read(rules, &self.patterns)),
        }
    }
}

impl std::fmt::Debug for Contract {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Contract")
            .field("narrows", &self.narrows)
            .field("patterns", &self.patterns.len())
            .finish_non_exhaustive()
    }
}

/// The schema `reference` points to within `root`: `#` for the root, a
/// JSON pointer (`#/$defs/Name`, percent- and `~`-escaped) for a place in
/// it. `None` for a reference to another document, an anchor, or a place
/// that is not there.
pub fn resolve<'a>(root: &'a JsonObject, reference: &str) -> Option<Resolved<'a>> {
    walk::lookup(root, reference)
}

/// Where a reference leads: the root itself, or a value within it.
#[derive(Clone, Copy, Debug)]
pub enum Resolved<'a> {
    /// `#`: the whole schema.
    Root,
    /// A value within the schema.
    Value(&'a Value),
}

/// The keywords that hold subschemas: as one schema, a list of them, or
/// a map of names to them.
const ONE: &[&str] = &[
    "items",
    "additionalItems",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
];
const MANY: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems", "items"];
const NAMED: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Reads every schema in `root` once, by keyword, never following a
/// `$ref` (what it points to is read where it sits): whether any narrows,
/// and the patterns, compiled.
fn read(root: &JsonObject) -> (bool, Patterns, digest::Digests) {
    let mut patterns = Patterns::new();
    let mut digests = digest::Digests::default();
    let mut pending: Vec<&Value> = Vec::new();
    let mut narrows = visit(root, &mut pending, &mut patterns, &mut digests);
    let mut read = 0;
    while let Some(schema) = pending.pop() {
        read += 1;
        if read > READ_LIMIT {
            return (true, patterns, digests);
        }
        match schema {
            Value::Object(rules) => {
                narrows |= visit(rules, &mut pending, &mut patterns, &mut digests)
            }
            Value::Bool(false) => narrows = true,
            _ => {}
        }
    }
    (narrows, patterns, digests)
}

/// Reads one schema: its pattern compiled, its subschemas added to
/// `pending`; whether it narrows.
fn visit<'a>(
    rules: &'a JsonObject,
    pending: &mut Vec<&'a Value>,
    patterns: &mut Patterns,
    digests: &mut digest::Digests,
) -> bool {
    if let Some(Value::String(pattern)) = rules.get("pattern")
        && patterns.len() < PATTERNS_LIMIT
        && !patterns.contains_key(pattern.as_str())
    {
        patterns.insert(pattern.as_str().into(), compile(pattern));
    }
    digests.insert(
        digest::address(rules),
        digest::Digest::read(rules, patterns),
    );
    for key in ONE {
        if let Some(schema) = rules.get(*key) {
            pending.push(schema);
        }
    }
    for key in MANY {
        if let Some(Value::Array(schemas)) = rules.get(*key) {
            pending.extend(schemas);
        }
    }
    for key in NAMED {
        if let Some(Value::Object(schemas)) = rules.get(*key) {
            pending.extend(schemas.values());
        }
    }
    narrowing(rules)
}

/// Whether one schema, on its own, states something a call is checked for
/// before the body (see [`Contract::narrows`]).
fn narrowing(rules: &JsonObject) -> bool {
    const ALWAYS: &[&str] = &[
        "multipleOf",
        "pattern",
        "enum",
        "const",
        "minProperties",
        "maxProperties",
        "maxLength",
        "maxItems",
    ];
    if ALWAYS.iter().any(|key| rules.contains_key(*key)) {
        return true;
    }
    let positive = |key: &str| keywords::count(rules, key).is_some_and(|n| n > 0);
    if positive("minLength") || positive("minItems") {
        return true;
    }
    if rules.get("uniqueItems") == Some(&Value::Bool(true)) {
        return true;
    }
    if ["additionalProperties", "unevaluatedProperties"]
        .iter()
        .any(|key| rules.get(*key).is_some_and(|v| v != &Value::Bool(true)))
    {
        return true;
    }
    let format = rules.get("format").and_then(Value::as_str);
    if format.is_some_and(|format| formats::format_text(format).is_some()) {
        return true;
    }
    // A bound is serde's to enforce when the integer format implies it:
    // schemars writes `minimum: 0` for every unsigned type.
    let implied = format.and_then(integer_format);
    let bounds = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
    bounds.iter().any(|key| {
        let Some(bound) = rules.get(*key).and_then(Value::as_number) else {
            return false;
        };
        let bound = keywords::num(bound);
        match (implied, *key) {
            (Some((low, _)), "minimum") => {
                keywords::compare(bound, keywords::Num::Int(low)) == Some(Ordering::Greater)
            }
            (Some((_, high)), "maximum") => {
                keywords::compare(bound, keywords::Num::Int(high)) == Some(Ordering::Less)
            }
            _ => true,
        }
    })
}

/// A pattern compiled, within [`PATTERN_SIZE_LIMIT`]; `None` when it
/// cannot be.
fn compile(pattern: &str) -> Option<regex::Regex> {
    regex::RegexBuilder::new(pattern)
        .size_limit(PATTERN_SIZE_LIMIT)
        .dfa_size_limit(PATTERN_SIZE_LIMIT * 4)
        .nest_limit(64)
        .build()
        .ok()
}
