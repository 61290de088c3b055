//! One schema's keywords, read once into the form a check runs on: a call
//! checks a value against a handful of fields, with no lookup in the
//! schema's map for a keyword it does not have and nothing allocated.

use std::cmp::Ordering;
use std::hash::{BuildHasherDefault, Hasher};

use serde_json::{Number, Value};

use crate::keywords::{Num, Range, compare, count, multiple_of, num, plain_object, range};
use crate::{JsonObject, Patterns, formats};

/// The kinds of value a `type` allows, one bit each; none set: any.
const STRING: u8 = 1;
const NUMBER: u8 = 1 << 1;
const INTEGER: u8 = 1 << 2;
const BOOLEAN: u8 = 1 << 3;
const NULL: u8 = 1 << 4;
const OBJECT: u8 = 1 << 5;
const ARRAY: u8 = 1 << 6;
/// A type this crate does not know: not the place to blame.
const OTHER: u8 = 1 << 7;

/// A lower and an upper count (`minLength`/`maxLength`, ...).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Counts {
    min: Option<u64>,
    max: Option<u64>,
}

impl Counts {
    fn read(rules: &JsonObject, min: &str, max: &str) -> Counts {
        Counts {
            min: count(rules, min),
            max: count(rules, max),
        }
    }

    pub(crate) fn fits(self, length: usize) -> bool {
        let length = length as u64;
        self.min.is_none_or(|min| length >= min) && self.max.is_none_or(|max| length <= max)
    }

    /// The most units worth counting: one past the larger bound.
    fn enough(self) -> usize {
        let most = self.max.unwrap_or(0).max(self.min.unwrap_or(0));
        usize::try_from(most)
            .unwrap_or(usize::MAX)
            .saturating_add(1)
    }
}

/// A schema's `pattern`.
#[derive(Clone, Debug, Default)]
enum Pattern {
    #[default]
    None,
    /// Compiled.
    Checked(regex::Regex),
    /// One this crate cannot check: not compiled, or past its bounds.
    Unchecked,
}

/// What one schema asks of a value, read once.
#[derive(Clone, Debug, Default)]
pub(crate) struct Digest {
    kinds: u8,
    /// It has `enum` or `const`, read from the schema where it is met.
    pub(crate) enumerated: bool,
    range: Range,
    multiple: Option<Num>,
    length: Counts,
    pub(crate) items: Counts,
    pub(crate) keys: Counts,
    unique: bool,
    format: Option<&'static str>,
    pattern: Pattern,
    /// An object schema that constrains only through its properties.
    pub(crate) plain_object: bool,
    /// It has `required`.
    pub(crate) required: bool,
    /// Keys its properties do not name are checked: by
    /// `additionalProperties`, or `unevaluatedProperties` with no
    /// composition, and no `patternProperties` (which this crate does not
    /// read) in the way.
    pub(crate) others: bool,
}

impl Digest {
    /// Reads `rules`, its pattern taken from those compiled.
    pub(crate) fn read(rules: &JsonObject, patterns: &Patterns) -> Digest {
        let kinds = match rules.get("type") {
            Some(Value::String(one)) => kind_bit(one),
            Some(Value::Array(many)) => many
                .iter()
                .filter_map(Value::as_str)
                .fold(0, |bits, kind| bits | kind_bit(kind)),
            _ => 0,
        };
        let pattern = match rules.get("pattern") {
            Some(Value::String(pattern)) => match patterns.get(pattern.as_str()) {
                Some(Some(regex)) => Pattern::Checked(regex.clone()),
                _ => Pattern::Unchecked,
            },
            _ => Pattern::None,
        };
        Digest {
            kinds,
            enumerated: rules.contains_key("enum") || rules.contains_key("const"),
            range: range(rules, false),
            multiple: multiple_of(rules),
            length: Counts::read(rules, "minLength", "maxLength"),
            items: Counts::read(rules, "minItems", "maxItems"),
            keys: Counts::read(rules, "minProperties", "maxProperties"),
            unique: rules.get("uniqueItems") == Some(&Value::Bool(true)),
            format: rules
                .get("format")
                .and_then(Value::as_str)
                .and_then(formats::checked),
            pattern,
            plain_object: plain_object(rules),
            required: rules.contains_key("required"),
            others: !rules.contains_key("patternProperties")
                && (rules.contains_key("additionalProperties")
                    || (rules.contains_key("unevaluatedProperties")
                        && !["anyOf", "oneOf", "allOf"]
                            .iter()
                            .any(|keyword| rules.contains_key(*keyword)))),
        }
    }

    /// Whether the value's JSON kind is one `type` allows. serde reads a
    /// number with a fraction or an exponent as a float, which no integer
    /// type takes, so `integer` means a number written without either.
    pub(crate) fn kind_fits(&self, value: &Value) -> bool {
        if self.kinds == 0 || self.kinds & OTHER != 0 {
            return true;
        }
        let bits = match value {
            Value::String(_) => STRING,
            Value::Bool(_) => BOOLEAN,
            Value::Null => NULL,
            Value::Object(_) => OBJECT,
            Value::Array(_) => ARRAY,
            Value::Number(number) if number.is_i64() || number.is_u64() => NUMBER | INTEGER,
            Value::Number(_) => NUMBER,
        };
        self.kinds & bits != 0
    }

    /// Whether a number keeps to the bounds and the multiple.
    pub(crate) fn number_fits(&self, number: &Number) -> bool {
        let value = num(number);
        let low = self
            .range
            .low
            .is_none_or(|low| match compare(value, low.at) {
                Some(Ordering::Less) => false,
                Some(Ordering::Equal) => !low.exclusive,
                _ => true,
            });
        let high = self
            .range
            .high
            .is_none_or(|high| match compare(value, high.at) {
                Some(Ordering::Greater) => false,
                Some(Ordering::Equal) => !high.exclusive,
                _ => true,
            });
        low && high && self.multiple.is_none_or(|step| multiple_fits(value, step))
    }

    /// Whether a text keeps to the format, the length and the pattern.
    /// Counting stops past the largest bound, so a megabyte costs no more
    /// than the bound does.
    pub(crate) fn string_fits(&self, text: &str) -> bool {
        if self
            .format
            .is_some_and(|format| !formats::format_fits(format, text))
        {
            return false;
        }
        if (self.length.min.is_some() || self.length.max.is_some())
            && !self
                .length
                .fits(text.chars().take(self.length.enough()).count())
        {
            return false;
        }
        match &self.pattern {
            Pattern::Checked(regex) if text.len() <= crate::PATTERN_TEXT_LIMIT => {
                regex.is_match(text)
            }
            _ => true,
        }
    }

    /// Whether a list keeps to its counts and, if it must, has no item
    /// twice.
    pub(crate) fn list_fits(&self, items: &[Value]) -> bool {
        self.items.fits(items.len()) && (!self.unique || crate::keywords::distinct(items))
    }
}

fn kind_bit(kind: &str) -> u8 {
    match kind {
        "string" => STRING,
        "number" => NUMBER,
        "integer" => INTEGER,
        "boolean" => BOOLEAN,
        "null" => NULL,
        "object" => OBJECT,
        "array" => ARRAY,
        _ => OTHER,
    }
}

/// Whether `value` is a whole multiple of `step`. Whole numbers divide
/// exactly; others within a rounding error of the quotient's size. A
/// quotient too large to tell (`1e300` by `1e-300`) fits: a check that
/// cannot tell must not refuse.
fn multiple_fits(value: Num, step: Num) -> bool {
    match (value, step) {
        (Num::Int(value), Num::Int(step)) => value % step == 0,
        _ => {
            let quotient = value.as_f64() / step.as_f64();
            if !quotient.is_finite() || quotient.abs() >= 1e15 {
                return true;
            }
            (quotient - quotient.round()).abs() <= 1e-9 * quotient.abs().max(1.0)
        }
    }
}

/// Hashes the address of a schema: one multiplication.
#[derive(Default)]
pub(crate) struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(byte)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_usize(&mut self, address: usize) {
        self.0 = (address as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The digests of a contract's schemas, by the address of each.
pub(crate) type Digests =
    std::collections::HashMap<usize, Digest, BuildHasherDefault<AddressHasher>>;

/// The address a schema's digest is kept under.
pub(crate) fn address(rules: &JsonObject) -> usize {
    std::ptr::from_ref(rules) as usize
}
