//! What each keyword of a schema asks of a value, read for the words: its
//! kind, its bounds, its length, its allowed values.

use std::cmp::Ordering;

use serde_json::{Number, Value};

use crate::JsonObject;
use crate::formats::format_text;
use crate::reference::Schema;

pub(crate) fn types(rules: &JsonObject) -> Vec<&str> {
    match rules.get("type") {
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The kinds of value `rules` allows: its `type`, or else the kinds its
/// other keywords constrain.
pub(crate) fn kinds(rules: &JsonObject) -> Vec<&str> {
    let named = types(rules);
    if !named.is_empty() {
        return named;
    }
    let has = |keywords: &[&str]| keywords.iter().any(|k| rules.contains_key(*k));
    if has(&[
        "properties",
        "required",
        "additionalProperties",
        "minProperties",
        "maxProperties",
        "patternProperties",
        "propertyNames",
        "dependentRequired",
        "unevaluatedProperties",
    ]) {
        vec!["object"]
    } else if has(&[
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "uniqueItems",
        "contains",
        "unevaluatedItems",
    ]) {
        vec!["array"]
    } else if has(&["minLength", "maxLength", "pattern"])
        || rules
            .get("format")
            .and_then(Value::as_str)
            .is_some_and(|f| format_text(f).is_some())
    {
        vec!["string"]
    } else if has(&[
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ]) {
        vec!["number"]
    } else {
        Vec::new()
    }
}

/// How close `value` comes to an option of `anyOf` it fails.
pub(crate) enum Shape {
    /// Another kind of value, or not the constant the option is.
    Other,
    /// The option's kind of value.
    Kind,
    /// The option's kind and, for an object, every required key present and
    /// every constant property (an internal enum tag) matching.
    Keys,
}

pub(crate) fn shape(option: Schema<'_>, value: &Value, kind_fits: bool) -> Shape {
    let rules = match option {
        Schema::Any => return Shape::Keys,
        Schema::Never => return Shape::Other,
        Schema::Rules(rules) => rules,
    };
    if rules.contains_key("const") || rules.contains_key("enum") || !kind_fits {
        return Shape::Other;
    }
    let Value::Object(object) = value else {
        return Shape::Keys;
    };
    let required = rules.get("required").and_then(Value::as_array);
    let present = required
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .all(|name| object.contains_key(name));
    let properties = rules.get("properties").and_then(Value::as_object);
    let tagged = properties.into_iter().flatten().all(|(name, schema)| {
        match (schema.get("const"), object.get(name)) {
            (Some(tag), Some(sent)) => same(tag, sent),
            _ => true,
        }
    });
    if present && tagged {
        Shape::Keys
    } else {
        Shape::Kind
    }
}

/// JSON equality, with numbers compared by value (`1` and `1.0` alike).
pub(crate) fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare(num(x), num(y)) == Some(Ordering::Equal),
        _ => a == b,
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Num::Int(value) => value as f64,
            Num::Float(value) => value,
        }
    }
}

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Num::Int(value) => write!(f, "{value}"),
            // Plain digits read best, but 1e300 would print 301 of them.
            Num::Float(value) if value == 0.0 || (1e-6..1e15).contains(&value.abs()) => {
                write!(f, "{value}")
            }
            Num::Float(value) => write!(f, "{value:e}"),
        }
    }
}

pub(crate) fn num(number: &Number) -> Num {
    if let Some(value) = number.as_u64() {
        Num::Int(value.into())
    } else if let Some(value) = number.as_i64() {
        Num::Int(value.into())
    } else {
        Num::Float(number.as_f64().unwrap_or(f64::NAN))
    }
}

pub(crate) fn compare(a: Num, b: Num) -> Option<Ordering> {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => Some(x.cmp(&y)),
        _ => a.as_f64().partial_cmp(&b.as_f64()),
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Bound {
    pub(crate) at: Num,
    pub(crate) exclusive: bool,
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Range {
    pub(crate) low: Option<Bound>,
    pub(crate) high: Option<Bound>,
}

/// The bounds a number must keep: `minimum`, `maximum`, their exclusive
/// forms (a number, or in older drafts a flag on `minimum`), and the range
/// an integer `format` such as `uint8` implies, which schemars states
/// without bounds for the wider types (a `u32` is only `minimum: 0`).
pub(crate) fn range(rules: &JsonObject, whole: bool) -> Range {
    let number = |key: &str| rules.get(key).and_then(Value::as_number).map(num);
    let flag = |key: &str| rules.get(key).and_then(Value::as_bool) == Some(true);
    let mut range = Range::default();
    let mut tighten = |low: bool, at: Option<Num>, exclusive: bool| {
        let Some(at) = at else { return };
        let bound = Bound { at, exclusive };
        let (slot, keep) = if low {
            (&mut range.low, Ordering::Greater)
        } else {
            (&mut range.high, Ordering::Less)
        };
        *slot = Some(match *slot {
            None => bound,
            Some(old) => match compare(bound.at, old.at) {
                Some(order) if order == keep => bound,
                Some(Ordering::Equal) => Bound {
                    at: old.at,
                    exclusive: old.exclusive || exclusive,
                },
                _ => old,
            },
        });
    };
    tighten(true, number("minimum"), flag("exclusiveMinimum"));
    tighten(false, number("maximum"), flag("exclusiveMaximum"));
    tighten(true, number("exclusiveMinimum"), true);
    tighten(false, number("exclusiveMaximum"), true);
    if let Some((low, high)) = rules
        .get("format")
        .and_then(Value::as_str)
        .and_then(integer_format)
    {
        tighten(true, Some(Num::Int(low)), false);
        tighten(false, Some(Num::Int(high)), false);
    }
    if whole {
        range.low = range.low.map(|bound| whole_bound(bound, true));
        range.high = range.high.map(|bound| whole_bound(bound, false));
    }
    range
}

/// The range of the integer formats schemars writes.
pub(crate) fn integer_format(format: &str) -> Option<(i128, i128)> {
    Some(match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" | "int" => (i64::MIN.into(), i64::MAX.into()),
        "uint8" => (0, u8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "uint64" | "uint" => (0, u64::MAX.into()),
        _ => return None,
    })
}

/// For whole numbers, "greater than 0" reads better as "1 or more".
fn whole_bound(bound: Bound, low: bool) -> Bound {
    let step = if low { 1 } else { -1 };
    let at = match bound.at {
        Num::Int(at) if bound.exclusive => at + step,
        Num::Int(at) => at,
        Num::Float(at) if at.is_finite() && at.abs() < 1e18 => {
            let rounded = if low { at.ceil() } else { at.floor() };
            let moved = bound.exclusive && rounded == at;
            rounded as i128 + if moved { step } else { 0 }
        }
        Num::Float(_) => return bound,
    };
    Bound {
        at: Num::Int(at),
        exclusive: false,
    }
}

/// The `multipleOf` of `rules`, if it is a number greater than 0.
pub(crate) fn multiple_of(rules: &JsonObject) -> Option<Num> {
    let step = num(rules.get("multipleOf")?.as_number()?);
    (compare(step, Num::Int(0)) == Some(Ordering::Greater)).then_some(step)
}

/// A count keyword (`minLength`, `maxItems`): a whole number of 0 or more.
pub(crate) fn count(rules: &JsonObject, key: &str) -> Option<u64> {
    let value = rules.get(key)?;
    value.as_u64().or_else(|| {
        let float = value.as_f64()?;
        (float >= 0.0 && float.fract() == 0.0).then_some(float as u64)
    })
}

/// Whether `value` is of a kind the `type` of `rules` allows; any value,
/// without a `type` or with one this crate does not know. A number with
/// no fraction is an integer, as the standard counts it.
pub(crate) fn kind_fits(rules: &JsonObject, value: &Value) -> bool {
    let named = types(rules);
    named.is_empty()
        || named.iter().any(|kind| match (*kind, value) {
            ("string", Value::String(_))
            | ("boolean", Value::Bool(_))
            | ("null", Value::Null)
            | ("object", Value::Object(_))
            | ("array", Value::Array(_))
            | ("number", Value::Number(_)) => true,
            ("integer", Value::Number(number)) => whole(number),
            ("string" | "boolean" | "null" | "object" | "array" | "number" | "integer", _) => false,
            _ => true,
        })
}

/// Whether a number has no fraction: `3` and `3.0` alike.
pub(crate) fn whole(number: &Number) -> bool {
    number.is_i64() || number.is_u64() || number.as_f64().is_some_and(|f| f.fract() == 0.0)
}
