//! Whether one schema, on its own, states something serde does not
//! enforce for a typed parameter: what makes a tool's check worth its
//! cost. Types, properties and the properties a struct requires are
//! serde's; a bound, a length, a pattern, a format, a set of values, a
//! closed object and every keyword that relates values or keys to each
//! other are not.

use std::cmp::Ordering;

use serde_json::Value;

use crate::JsonObject;
use crate::keywords::{self, Num, integer_format};

/// Keywords that narrow wherever they appear.
const ALWAYS: &[&str] = &[
    "multipleOf",
    "pattern",
    "enum",
    "const",
    "minProperties",
    "maxProperties",
    "maxLength",
    "maxItems",
    // What serde's untagged enum cannot tell: a value that fits two
    // options fits no `oneOf`.
    "oneOf",
    "not",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "contains",
];

/// Keywords that narrow unless their schema is `true` (or `{}`).
const UNLESS_TRUE: &[&str] = &[
    "additionalProperties",
    "unevaluatedProperties",
    "additionalItems",
    "unevaluatedItems",
    "propertyNames",
];

/// Whether `rules` narrows anything (see [`Contract::narrows`](crate::Contract::narrows));
/// `asserted` tells the formats that are checked.
pub(crate) fn narrowing(rules: &JsonObject, asserted: impl Fn(&str) -> bool) -> bool {
    if ALWAYS.iter().any(|key| rules.contains_key(*key)) {
        return true;
    }
    let trivial = |value: &Value| match value {
        Value::Bool(true) => true,
        Value::Object(rules) => rules.is_empty(),
        _ => false,
    };
    if UNLESS_TRUE
        .iter()
        .any(|key| rules.get(*key).is_some_and(|value| !trivial(value)))
    {
        return true;
    }
    // `if` alone asks nothing; with `then` or `else` it does.
    if rules.contains_key("if") && (rules.contains_key("then") || rules.contains_key("else")) {
        return true;
    }
    // A struct's schema lists its properties beside the ones it requires;
    // `required` alone (in the options of an `anyOf`, say) is not serde's.
    if rules.contains_key("required") && !rules.contains_key("properties") {
        return true;
    }
    let positive = |key: &str| keywords::count(rules, key).is_some_and(|n| n > 0);
    if positive("minLength") || positive("minItems") {
        return true;
    }
    if rules.get("uniqueItems") == Some(&Value::Bool(true)) {
        return true;
    }
    let format = rules.get("format").and_then(Value::as_str);
    if format.is_some_and(asserted) {
        return true;
    }
    bounded_beyond_format(rules, format)
}

/// Whether a bound says more than the integer format implies: schemars
/// writes `minimum: 0` for every unsigned type, which serde enforces.
fn bounded_beyond_format(rules: &JsonObject, format: Option<&str>) -> bool {
    let implied = format.and_then(integer_format);
    let bounds = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
    bounds.iter().any(|key| {
        let Some(bound) = rules.get(*key).and_then(Value::as_number) else {
            // Drafts before 6 write `exclusiveMinimum: true` beside `minimum`.
            return rules.get(*key) == Some(&Value::Bool(true));
        };
        let bound = keywords::num(bound);
        match (implied, *key) {
            (Some((low, _)), "minimum") => {
                keywords::compare(bound, Num::Int(low)) == Some(Ordering::Greater)
            }
            (Some((_, high)), "maximum") => {
                keywords::compare(bound, Num::Int(high)) == Some(Ordering::Less)
            }
            _ => true,
        }
    })
}
