//! A schema in words a model reads: "a string", "a whole number from 0
//! to 255", "one of 'draft', 'final'", "a list of at most 3 items, each a
//! string".

use std::fmt::Write as _;

use outcome_rules::{one_line, quote};
use serde_json::Value;

use crate::JsonObject;
use crate::formats::format_text;
use crate::keywords::{Range, count, kinds, multiple_of, range};
use crate::reference::Schema;
use crate::words::{ANY_VALUE, LIST_LIMIT, Words, join_or, one_of, sent};

/// How deep a description looks into alternatives and list items: past
/// this, the words stop helping the model and only lengthen the message.
const DESCRIBE_DEPTH: usize = 3;

/// How many schemas one message may describe.
const DESCRIBE_LIMIT: usize = 500;

/// The longest description of what an argument must be, in characters.
const WHAT_LIMIT: usize = 300;

impl<'a> Words<'a> {
    /// What a value of `schema` must be, bounded for a message.
    pub(crate) fn what(&self, schema: Schema<'a>) -> String {
        one_line(&self.describe(schema, 0, false), WHAT_LIMIT)
    }

    /// What a value of `schema` must be by its own keywords, its options
    /// (`anyOf`, `oneOf`, `allOf`) left aside: what a keyword beside them
    /// asks.
    pub(crate) fn what_own(&self, schema: Schema<'a>) -> String {
        one_line(&self.describe(schema, 0, true), WHAT_LIMIT)
    }

    /// What a value of `schema` is, in words a model reads: "a string", "a
    /// whole number from 0 to 255", "one of 'draft', 'final'".
    fn describe(&self, schema: Schema<'a>, depth: usize, own: bool) -> String {
        let rules = match schema {
            // Only a `false` schema for a property says "leave it out", which
            // the message for a wrong value says in its own words.
            Schema::Any | Schema::Never => return ANY_VALUE.to_owned(),
            Schema::Rules(rules) => rules,
        };
        // Alternatives that refer back to themselves multiply at each level.
        let written = self.described.get();
        self.described.set(written.saturating_add(1));
        if depth > DESCRIBE_DEPTH || written >= DESCRIBE_LIMIT {
            return ANY_VALUE.to_owned();
        }
        let options = ["anyOf", "oneOf"]
            .iter()
            .find_map(|keyword| rules.get(*keyword).and_then(Value::as_array))
            .filter(|options| !options.is_empty() && !own);
        if let Some(options) = options {
            return self.describe_options(options, depth);
        }
        if let Some(parts) = rules
            .get("allOf")
            .and_then(Value::as_array)
            .filter(|_| !own)
        {
            let described: Vec<String> = parts
                .iter()
                .take(LIST_LIMIT)
                .map(|part| self.describe(self.schema(part), depth + 1, false))
                .filter(|text| text != ANY_VALUE)
                .collect();
            if !described.is_empty() {
                return described.join(" that is also ");
            }
        }
        if let Some(constant) = rules.get("const") {
            return sent(constant);
        }
        if let Some(allowed) = rules.get("enum").and_then(Value::as_array) {
            return one_of(allowed.iter(), allowed.len());
        }
        let mut described: Vec<String> = Vec::new();
        for kind in kinds(rules) {
            let text = self.describe_kind(rules, kind, depth);
            if !described.contains(&text) {
                described.push(text);
            }
        }
        join_or(&described, 0)
    }

    /// The options of `anyOf` or `oneOf`: their values when each is one
    /// constant (an enum with documented variants), else each described.
    fn describe_options(&self, options: &'a [Value], depth: usize) -> String {
        let constants: Option<Vec<&Value>> = options
            .iter()
            .map(|option| match self.schema(option) {
                Schema::Rules(rules) => rules.get("const").or_else(|| {
                    match rules.get("enum").and_then(Value::as_array)?.as_slice() {
                        [one] => Some(one),
                        _ => None,
                    }
                }),
                _ => None,
            })
            .collect();
        if let Some(constants) = constants {
            return one_of(constants.into_iter(), options.len());
        }
        let mut described: Vec<String> = Vec::new();
        let mut seen = 0;
        // Options that read alike are listed once, but looking for ten
        // that differ stops somewhere.
        for option in options.iter().take(LIST_LIMIT * 3) {
            if described.len() == LIST_LIMIT {
                break;
            }
            seen += 1;
            let text = self.describe(self.schema(option), depth + 1, false);
            if !described.contains(&text) {
                described.push(text);
            }
        }
        join_or(&described, options.len() - seen)
    }

    fn describe_kind(&self, rules: &'a JsonObject, kind: &str, depth: usize) -> String {
        match kind {
            "string" => describe_string(rules),
            "integer" => describe_number("a whole number", rules, true),
            "number" => describe_number("a number", rules, false),
            "boolean" => "true or false".to_owned(),
            "null" => "null".to_owned(),
            "object" => match (count(rules, "minProperties"), count(rules, "maxProperties")) {
                (None | Some(0), None) => "an object".to_owned(),
                (minimum, maximum) => format!(
                    "an object of {}",
                    count_phrase(minimum.filter(|&n| n > 0), maximum, "key")
                ),
            },
            "array" => self.describe_list(rules, depth),
            _ => ANY_VALUE.to_owned(),
        }
    }

    fn describe_list(&self, rules: &'a JsonObject, depth: usize) -> String {
        let minimum = count(rules, "minItems");
        let maximum = count(rules, "maxItems").or_else(|| closed_tuple(rules));
        let mut text = match (minimum, maximum) {
            (Some(1), None) => "a non-empty list".to_owned(),
            (None, None) => "a list".to_owned(),
            _ => format!("a list of {}", count_phrase(minimum, maximum, "item")),
        };
        let tuple =
            rules.contains_key("prefixItems") || rules.get("items").is_some_and(Value::is_array);
        if !tuple && let Some(items) = rules.get("items") {
            let each = self.describe(self.schema(items), depth + 1, false);
            if each != ANY_VALUE {
                let _ = write!(text, ", each {each}");
            }
        }
        if rules.get("uniqueItems") == Some(&Value::Bool(true)) {
            text.push_str(", with no item twice");
        }
        if let Some(contains) = rules.get("contains") {
            let what = self.describe(self.schema(contains), depth + 1, false);
            let (min, max) = (count(rules, "minContains"), count(rules, "maxContains"));
            if let Some(many) = contains_phrase(min.unwrap_or(1), max) {
                let verb = if many.ends_with(" 1 item") {
                    "is"
                } else {
                    "are"
                };
                let _ = write!(text, ", with {many} that {verb} {what}");
            }
        }
        text
    }
}

/// A number's bounds and the multiple it must be, if any.
fn describe_number(noun: &str, rules: &JsonObject, whole: bool) -> String {
    let text = describe_range(noun, &range(rules, whole));
    match multiple_of(rules) {
        Some(step) => format!("{text} that is a multiple of {step}"),
        None => text,
    }
}

fn describe_range(noun: &str, range: &Range) -> String {
    let low = range.low.map(|b| (b.at, b.exclusive));
    let high = range.high.map(|b| (b.at, b.exclusive));
    match (low, high) {
        (None, None) => noun.to_owned(),
        (Some((low, false)), Some((high, false))) => format!("{noun} from {low} to {high}"),
        (Some((low, false)), None) => format!("{noun} of {low} or more"),
        (None, Some((high, false))) => format!("{noun} of {high} or less"),
        (Some((low, true)), None) => format!("{noun} greater than {low}"),
        (None, Some((high, true))) => format!("{noun} less than {high}"),
        (Some((low, low_exclusive)), Some((high, high_exclusive))) => {
            let low = if low_exclusive {
                format!("greater than {low}")
            } else {
                format!("of at least {low}")
            };
            let high = if high_exclusive {
                format!("less than {high}")
            } else {
                format!("at most {high}")
            };
            format!("{noun} {low} and {high}")
        }
    }
}

/// "at most 40 characters", "exactly 2 items", "3 to 8 characters".
fn count_phrase(minimum: Option<u64>, maximum: Option<u64>, unit: &str) -> String {
    let units = |n: u64| {
        if n == 1 {
            unit.to_owned()
        } else {
            format!("{unit}s")
        }
    };
    match (minimum, maximum) {
        (Some(min), Some(max)) if min == max => format!("exactly {min} {}", units(min)),
        (Some(min), Some(max)) => format!("{min} to {max} {}", units(max)),
        (Some(min), None) => format!("at least {min} {}", units(min)),
        (None, Some(max)) => format!("at most {max} {}", units(max)),
        (None, None) => format!("any number of {unit}s"),
    }
}

fn describe_string(rules: &JsonObject) -> String {
    let format = rules
        .get("format")
        .and_then(Value::as_str)
        .and_then(format_text);
    let minimum = count(rules, "minLength").filter(|&min| min > 0);
    let maximum = count(rules, "maxLength");
    let text = describe_text(format, minimum, maximum);
    match rules.get("pattern").and_then(Value::as_str) {
        Some(pattern) => format!("{text} matching the pattern {}", quote(pattern)),
        None => text,
    }
}

/// A string's format and length in words.
fn describe_text(format: Option<&str>, minimum: Option<u64>, maximum: Option<u64>) -> String {
    match (format, minimum, maximum) {
        // schemars's schema for a `char`.
        (None, Some(1), Some(1)) => "a single character".to_owned(),
        (None, Some(1), None) => "a non-empty string".to_owned(),
        (None, None, None) => "a string".to_owned(),
        (None, _, _) => format!(
            "a string of {}",
            count_phrase(minimum, maximum, "character")
        ),
        (Some(format), None, None) => format.to_owned(),
        (Some(format), _, _) => format!(
            "{format}, {} long",
            count_phrase(minimum, maximum, "character")
        ),
    }
}

/// How many items `contains` asks for: "at least 1 item", "2 to 3
/// items"; none when any number will do.
fn contains_phrase(min: u64, max: Option<u64>) -> Option<String> {
    let items = |n: u64| if n == 1 { "item" } else { "items" };
    Some(match max {
        None if min == 0 => return None,
        None => format!("at least {min} {}", items(min)),
        Some(max) if min == max => format!("exactly {max} {}", items(max)),
        Some(max) if min == 0 => format!("at most {max} {}", items(max)),
        Some(max) => format!("{min} to {max} items"),
    })
}

/// The length of a tuple no item may follow: `prefixItems` with `items`
/// or `unevaluatedItems` false (or, before 2020-12, `items` as a list
/// with `additionalItems` false).
fn closed_tuple(rules: &JsonObject) -> Option<u64> {
    let closed = |key: &str| rules.get(key) == Some(&Value::Bool(false));
    let positions = match (rules.get("prefixItems"), rules.get("items")) {
        (Some(Value::Array(prefix)), _) if closed("items") || closed("unevaluatedItems") => prefix,
        (_, Some(Value::Array(items)))
            if closed("additionalItems") || closed("unevaluatedItems") =>
        {
            items
        }
        _ => return None,
    };
    u64::try_from(positions.len()).ok()
}
