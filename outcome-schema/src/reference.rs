//! Places in a schema: a `$ref` followed, a JSON pointer looked up, and
//! the subschemas each keyword holds. Reading only: whether a value keeps
//! to the schema is the validator's question.

use std::borrow::Cow;

use serde_json::Value;

use crate::{DEPTH_LIMIT, JsonObject, Resolved};

/// A schema after its `$ref`s are followed.
#[derive(Clone, Copy)]
pub(crate) enum Schema<'a> {
    /// No constraint the words can tell: `true`, `{}`, a reference that
    /// cannot be followed.
    Any,
    /// The `false` schema: no value fits.
    Never,
    Rules(&'a JsonObject),
}

/// The keywords that hold one subschema.
pub(crate) const ONE: &[&str] = &[
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

/// The keywords that hold a list of subschemas (`items` as a list is the
/// tuple of drafts before 2020-12).
pub(crate) const MANY: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems", "items"];

/// The keywords that hold a map of names to subschemas that apply to a
/// value. `$defs` and `definitions` hold schemas too, but apply only
/// where a `$ref` leads.
pub(crate) const NAMED: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "dependencies",
];

/// Which subschema of a keyword: the one it holds, the one at a position
/// of its list, or the one under a name of its map.
#[derive(Clone, Copy)]
pub(crate) enum Part<'a> {
    Whole,
    At(usize),
    Named(&'a str),
}

/// The subschemas `rules` applies to a value, each with the keyword that
/// holds it and where in it (its `$ref` aside). `dependencies` also holds
/// lists of names, which are not schemas and are left out; so is every
/// non-schema value.
pub(crate) fn subschemas(rules: &JsonObject) -> impl Iterator<Item = (&str, Part<'_>, &Value)> {
    let one = ONE
        .iter()
        .filter_map(|key| rules.get_key_value(*key))
        .filter(|(_, value)| is_schema(value))
        .map(|(key, value)| (key.as_str(), Part::Whole, value));
    let many = MANY
        .iter()
        .filter_map(|key| rules.get_key_value(*key))
        .flat_map(|(key, value)| match value {
            Value::Array(items) => items
                .iter()
                .enumerate()
                .filter(|(_, item)| is_schema(item))
                .map(|(at, item)| (key.as_str(), Part::At(at), item))
                .collect(),
            _ => Vec::new(),
        });
    let named = NAMED
        .iter()
        .filter_map(|key| rules.get_key_value(*key))
        .flat_map(|(key, value)| match value {
            Value::Object(map) => map
                .iter()
                .filter(|(_, item)| is_schema(item))
                .map(|(name, item)| (key.as_str(), Part::Named(name.as_str()), item))
                .collect(),
            _ => Vec::new(),
        });
    one.chain(many).chain(named)
}

fn is_schema(value: &Value) -> bool {
    matches!(value, Value::Object(_) | Value::Bool(_))
}

/// Follows `$ref` from `rules` until a schema without one. A reference to
/// another document, an anchor, a pointer that leads nowhere or a chain
/// that goes round in a circle is [`Schema::Any`].
pub(crate) fn follow<'a>(root: &'a JsonObject, mut rules: &'a JsonObject) -> Schema<'a> {
    for _ in 0..DEPTH_LIMIT {
        let Some(reference) = rules.get("$ref") else {
            return Schema::Rules(rules);
        };
        rules = match reference.as_str().and_then(|r| lookup(root, r)) {
            Some(Resolved::Root) => root,
            Some(Resolved::Value(Value::Object(next))) => next,
            Some(Resolved::Value(Value::Bool(false))) => return Schema::Never,
            _ => return Schema::Any,
        };
    }
    Schema::Any
}

/// A schema value, its references followed.
pub(crate) fn schema<'a>(root: &'a JsonObject, value: &'a Value) -> Schema<'a> {
    match value {
        Value::Bool(false) => Schema::Never,
        Value::Object(rules) => follow(root, rules),
        _ => Schema::Any,
    }
}

/// The schema a local reference (`#`, `#/$defs/Name`) points to.
pub(crate) fn lookup<'a>(root: &'a JsonObject, reference: &str) -> Option<Resolved<'a>> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(Resolved::Root);
    }
    let pointer = pointer.strip_prefix('/')?;
    let steps = pointer.split('/').map(fragment_step);
    pointer_steps(root, steps).map(Resolved::Value)
}

/// The value at a JSON pointer's steps, already unescaped, from `root`.
pub(crate) fn pointer_steps<S: AsRef<str>>(
    root: &JsonObject,
    mut steps: impl Iterator<Item = S>,
) -> Option<&Value> {
    let mut node = root.get(steps.next()?.as_ref())?;
    for step in steps {
        node = match node {
            Value::Object(object) => object.get(step.as_ref())?,
            Value::Array(items) => items.get(step.as_ref().parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

/// The steps of a JSON pointer (`/a/b~1c`), unescaped. Unlike a URI
/// fragment, it is not percent-encoded.
pub(crate) fn pointer(pointer: &str) -> impl Iterator<Item = Cow<'_, str>> {
    pointer.split('/').skip(1).map(unescape)
}

/// One step of a pointer in a URI fragment: `%XX` decoded, then unescaped.
fn fragment_step(step: &str) -> Cow<'_, str> {
    match percent_decode(step) {
        Cow::Borrowed(step) => unescape(step),
        Cow::Owned(step) => Cow::Owned(unescape(&step).into_owned()),
    }
}

/// `~1` for `/` and `~0` for `~`.
pub(crate) fn unescape(step: &str) -> Cow<'_, str> {
    if step.contains('~') {
        Cow::Owned(step.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(step)
    }
}

/// Decodes `%XX` in one step of a URI fragment.
fn percent_decode(step: &str) -> Cow<'_, str> {
    if !step.contains('%') {
        return Cow::Borrowed(step);
    }
    let mut bytes = Vec::with_capacity(step.len());
    let mut rest = step.as_bytes();
    while let Some((&first, tail)) = rest.split_first() {
        let hex = tail
            .get(..2)
            .and_then(|digits| std::str::from_utf8(digits).ok())
            .and_then(|digits| u8::from_str_radix(digits, 16).ok());
        match (first, hex) {
            (b'%', Some(byte)) => {
                bytes.push(byte);
                rest = &tail[2..];
            }
            _ => {
                bytes.push(first);
                rest = tail;
            }
        }
    }
    Cow::Owned(String::from_utf8_lossy(&bytes).into_owned())
}
