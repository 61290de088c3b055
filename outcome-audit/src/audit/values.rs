//! The values the audit builds for one schema's string or number: within
//! its lengths, its pattern, its format, its bounds and its `multipleOf`,
//! each read back as the runtime reads it before it is sent; and the
//! small readings of a schema the plan shares.

use std::sync::Arc;

use outcome_schema::Contract;

use super::*;

impl<'s> Walk<'s> {
    /// A string `schema` accepts: the author's example, one its pattern
    /// matches, its format's, or `a`s to its `minLength`, whichever the
    /// schema, read as the runtime reads it, takes first.
    pub(crate) fn string(&mut self, schema: &'s Value) -> Result<Value, Unbuilt> {
        let min = length(schema, "minLength")?.unwrap_or(0);
        let max = length(schema, "maxLength")?;
        if max.is_some_and(|max| max < min) {
            return cannot("its minLength is above its maxLength, which no value meets");
        }
        if min > LENGTH_LIMIT {
            return cannot(format!(
                "its minLength is {min}, and the audit builds no string longer than \
                 {LENGTH_LIMIT} characters"
            ));
        }
        let pattern = match schema.get("pattern") {
            None => None,
            Some(Value::String(pattern)) => Some(pattern.as_str()),
            Some(_) => return cannot("its pattern is not a string"),
        };
        let format = schema.get("format").and_then(Value::as_str);
        let mut candidates: Vec<String> = Vec::new();
        // Where `a` will not do, the author's own example first.
        if pattern.is_some() || format.is_some_and(|format| format_example(format).is_some()) {
            candidates.extend(
                schema
                    .get("examples")
                    .and_then(Value::as_array)
                    .and_then(|examples| examples.first())
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            );
        }
        if let Some(pattern) = pattern {
            // As short as the pattern allows, then long enough for the
            // minLength, if repeating is how it gets there: a repetition
            // taken once more for each character short, or as many
            // times more as the minLength.
            let limit = LENGTH_LIMIT as usize;
            if let Some(shortest) = pattern::matching(pattern, 0, limit) {
                let short = min.saturating_sub(shortest.chars().count() as u64) as u32;
                candidates.push(shortest);
                if short > 0 {
                    candidates.extend(pattern::matching(pattern, short, limit));
                    candidates.extend(pattern::matching(pattern, min as u32, limit));
                }
            }
        }
        candidates.extend(format.and_then(format_example).map(str::to_owned));
        if pattern.is_none() {
            let wanted = min.max(1).min(max.unwrap_or(u64::MAX));
            candidates.push("a".repeat(wanted as usize));
        }
        let reading = reading(schema, "string", STRING_KEYWORDS);
        for candidate in candidates {
            self.step(1)?;
            let candidate = Value::from(candidate);
            if reading.fits(&candidate) {
                self.spend(size(&candidate))?;
                return Ok(candidate);
            }
        }
        match pattern {
            Some(pattern) => cannot(format!(
                "the audit builds no string its pattern {} matches within its other rules, \
                 and it has no default, const, enum or example that keeps to them",
                one_line(pattern, 80)
            )),
            None => cannot(format!(
                "the audit knows no {} string within its lengths, and it has no default, \
                 const, enum or example",
                format.map_or_else(|| "such".to_owned(), |format| one_line(format, 40))
            )),
        }
    }

    /// A number `schema` accepts: 1, or the nearest its bounds allow, made
    /// a multiple of its `multipleOf`, whichever the schema, read as the
    /// runtime reads it, takes first.
    pub(crate) fn number(&mut self, schema: &'s Value, integer: bool) -> Result<Value, Unbuilt> {
        let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
        // Draft 4 writes an exclusive bound as a flag beside it.
        let flag = |key: &str| schema.get(key) == Some(&Value::Bool(true));
        let (min, max) = (bound("minimum"), bound("maximum"));
        let low = bound("exclusiveMinimum").or(min.filter(|_| flag("exclusiveMinimum")));
        let high = bound("exclusiveMaximum").or(max.filter(|_| flag("exclusiveMaximum")));
        let floor = [min, low].into_iter().flatten().reduce(f64::max);
        let ceiling = [max, high].into_iter().flatten().reduce(f64::min);
        if let (Some(floor), Some(ceiling)) = (floor, ceiling)
            && floor > ceiling
        {
            return cannot("its minimum is above its maximum, which no value meets");
        }
        let mut candidates = vec![1.0];
        if let Some(floor) = floor {
            candidates.extend([floor, floor.floor() + 1.0, floor + 1.0]);
        }
        if let Some(ceiling) = ceiling {
            candidates.extend([ceiling, ceiling.ceil() - 1.0, ceiling - 1.0]);
        }
        if let (Some(floor), Some(ceiling)) = (floor, ceiling) {
            candidates.push(floor / 2.0 + ceiling / 2.0);
        }
        if let Some(step) = bound("multipleOf").filter(|step| *step > 0.0) {
            let near: Vec<f64> = candidates
                .iter()
                .flat_map(|value| [(value / step).ceil() * step, (value / step).floor() * step])
                .collect();
            candidates = near;
        }
        if integer {
            for value in &mut candidates {
                *value = value.ceil();
            }
        }
        let reading = reading(
            schema,
            if integer { "integer" } else { "number" },
            NUMBER_KEYWORDS,
        );
        let mut too_large = false;
        for value in candidates {
            self.step(1)?;
            if !value.is_finite() {
                continue;
            }
            if integer && value.abs() >= I64_BOUND {
                too_large = true;
                continue;
            }
            let value = number(value, integer);
            if reading.fits(&value) {
                self.spend(8)?;
                return Ok(value);
            }
        }
        if too_large {
            cannot("its bounds leave only integers too large to send exactly")
        } else if integer
            && floor
                .zip(ceiling)
                .is_some_and(|(f, c)| f.ceil() > c.floor())
        {
            cannot("no integer lies between its minimum and its maximum")
        } else {
            cannot("the audit builds no number within its bounds and multipleOf")
        }
    }
}

impl Walk<'_> {
    /// A string that keeps to `schema`'s other string keywords and that
    /// `keyword` (its `pattern` or its `format`) refuses: the mistake in
    /// that keyword alone. `None` when the schema has no such keyword, or
    /// the audit finds no such string: a mistake it does not make.
    pub(crate) fn breaking(
        &mut self,
        schema: &Value,
        keyword: &str,
    ) -> Result<Option<Value>, Unbuilt> {
        if schema.get(keyword).is_none() {
            return Ok(None);
        }
        let others: Vec<&str> = STRING_KEYWORDS
            .iter()
            .copied()
            .filter(|other| *other != keyword)
            .collect();
        let within = reading(schema, "string", &others);
        let alone = reading(schema, "string", &[keyword]);
        let min = length(schema, "minLength")?.unwrap_or(0).max(1);
        let mut candidates = vec![Value::from(OUTSIDE_ANY_PATTERN)];
        if min <= LENGTH_LIMIT {
            for c in ["!", "a", "0"] {
                candidates.push(Value::from(c.repeat(min as usize)));
            }
        }
        for candidate in candidates {
            self.step(1)?;
            if within.fits(&candidate) && !alone.fits(&candidate) {
                return Ok(Some(candidate));
            }
        }
        Ok(None)
    }
}

/// The string sent to break a pattern or a format: a space and a `!` are
/// in few patterns, and in no format the runtime checks.
pub(crate) const OUTSIDE_ANY_PATTERN: &str = "no such value!";

/// The keywords of a string that [`Walk::string`] reads its candidates
/// against.
const STRING_KEYWORDS: &[&str] = &["pattern", "minLength", "maxLength", "format"];

/// The keywords of a number that [`Walk::number`] reads its candidates
/// against.
const NUMBER_KEYWORDS: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

/// The `keywords` of `schema`, of the JSON type `kind`, read as the
/// runtime reads a schema: one value at a time.
pub(crate) struct Reading(Contract);

impl Reading {
    /// Whether the runtime takes `value` for this schema.
    pub(crate) fn fits(&self, value: &Value) -> bool {
        let mut arguments = JsonObject::new();
        arguments.insert("v".into(), value.clone());
        self.0.fits(&arguments)
    }
}

/// `schema`'s `keywords`, for a value of JSON type `kind`, as a
/// [`Reading`]: the rest of the schema (its `$ref`s, its alternatives) is
/// the walk's to read.
pub(crate) fn reading(schema: &Value, kind: &str, keywords: &[&str]) -> Reading {
    let mut rules = JsonObject::new();
    rules.insert("type".into(), Value::from(kind));
    for key in keywords {
        if let Some(value) = schema.get(*key) {
            rules.insert((*key).to_owned(), value.clone());
        }
    }
    let mut root = JsonObject::new();
    root.insert("type".into(), Value::from("object"));
    root.insert(
        "properties".into(),
        Value::Object(
            [("v".to_owned(), Value::Object(rules))]
                .into_iter()
                .collect(),
        ),
    );
    root.insert("required".into(), serde_json::json!(["v"]));
    Reading(Contract::new(Arc::new(root)))
}

/// A string of `format`, for the formats the runtime checks.
pub(crate) fn format_example(format: &str) -> Option<&'static str> {
    Some(match format {
        "uri" | "uri-reference" | "iri" | "iri-reference" => "https://example.com/",
        "email" | "idn-email" => "someone@example.com",
        "date" => "2024-01-01",
        "date-time" => "2024-01-01T00:00:00Z",
        "partial-date-time" => "2024-01-01T00:00:00",
        "time" => "00:00:00Z",
        "partial-time" => "00:00:00",
        "uuid" => "00000000-0000-4000-8000-000000000000",
        "ip" | "ipv4" => "192.0.2.1",
        "ipv6" => "2001:db8::1",
        "hostname" | "idn-hostname" => "example.com",
        _ => return None,
    })
}

/// Integers from this magnitude on are not sent exactly (2^63).
pub(crate) const I64_BOUND: f64 = 9_223_372_036_854_775_808.0;

/// A length keyword of `schema`, when it has one.
pub(crate) fn length(schema: &Value, key: &str) -> Result<Option<u64>, Unbuilt> {
    match schema.get(key) {
        None => Ok(None),
        Some(value) => match value.as_u64() {
            Some(length) => Ok(Some(length)),
            None => cannot(format!("its {key} is not a whole number")),
        },
    }
}

/// The bytes of `value` as JSON, roughly, counted without recursion.
pub(crate) fn size(value: &Value) -> usize {
    let mut total = 0usize;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        total = total.saturating_add(match value {
            Value::String(s) => s.len() + 2,
            Value::Array(items) => {
                stack.extend(items);
                items.len() + 2
            }
            Value::Object(map) => {
                for (key, value) in map {
                    total = total.saturating_add(key.len() + 4);
                    stack.push(value);
                }
                2
            }
            _ => 8,
        });
    }
    total
}

/// A name, for a report line.
pub(crate) fn named(name: &str) -> String {
    one_line(name, 80)
}

pub(crate) fn number(value: f64, integer: bool) -> Value {
    if integer && value.fract() == 0.0 && value.abs() < I64_BOUND {
        Value::from(value as i64)
    } else {
        serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number)
    }
}

/// The schema's one JSON type, `null` aside, when it has exactly one.
pub(crate) fn single_type(schema: &Value) -> Option<&str> {
    match schema.get("type")? {
        Value::String(kind) => Some(kind),
        Value::Array(kinds) => {
            let kinds: Vec<&str> = kinds
                .iter()
                .filter_map(Value::as_str)
                .filter(|k| *k != "null")
                .collect();
            match kinds[..] {
                [one] => Some(one),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The string the call that keeps to the schema sends: a path, an id, a
/// name no server holds.
pub(crate) const NAMES_NOTHING: &str = "no-such-audit-value";

/// The number the call that keeps to the schema sends for an id.
pub(crate) const NUMBER_NAMES_NOTHING: u64 = 987_654_321;

/// Whether an argument's name asks for the number of something: `id`,
/// `issue_number`, `user_id`, `pageIndex`.
pub(crate) fn names_a_number(name: &str) -> bool {
    // The last word, in snake, kebab or camel case.
    let start = name
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_ascii_uppercase() || *c == '_' || *c == '-')
        .map_or(
            0,
            |(at, c)| if c.is_ascii_uppercase() { at } else { at + 1 },
        );
    let last = name[start..].to_ascii_lowercase();
    ["id", "number", "index", "num", "no"].contains(&last.as_str())
}

/// Whether `schema` is an integer that [`NUMBER_NAMES_NOTHING`] meets.
pub(crate) fn takes_any_id(schema: &Value) -> bool {
    let number = NUMBER_NAMES_NOTHING as f64;
    single_type(schema) == Some("integer")
        && schema.get("enum").is_none()
        && schema.get("const").is_none()
        && schema.get("multipleOf").is_none()
        && schema
            .get("maximum")
            .and_then(Value::as_f64)
            .is_none_or(|max| max >= number)
        && schema
            .get("exclusiveMaximum")
            .and_then(Value::as_f64)
            .is_none_or(|max| max > number)
}

/// Whether `schema` is a string any text of `text`'s length meets: no
/// `pattern`, `format`, `enum` or `const`.
pub(crate) fn takes_any_string(schema: &Value, text: &str) -> bool {
    let length = text.chars().count() as u64;
    let bound = |key: &str| schema.get(key).and_then(Value::as_u64);
    single_type(schema) == Some("string")
        && ["pattern", "format", "enum", "const"]
            .iter()
            .all(|key| schema.get(*key).is_none())
        && bound("minLength").is_none_or(|min| min <= length)
        && bound("maxLength").is_none_or(|max| max >= length)
}

/// A value of another JSON type than `kind`, that no lenient reading turns
/// into one of `kind`.
pub(crate) fn wrong_type(kind: &str) -> Option<Value> {
    Some(match kind {
        "string" => Value::from(42),
        "integer" | "number" => Value::from("ten"),
        "boolean" => Value::from("maybe"),
        "array" => Value::from("not a list"),
        "object" => Value::from("not an object"),
        _ => return None,
    })
}
