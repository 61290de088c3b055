//! The standard's verdict: the `jsonschema` validator, built once per
//! schema, with patterns on the `regex` crate's engine (its time is linear
//! in the text, whatever the pattern) and formats asserted.
//!
//! A schema the validator refuses to build (a pattern that engine cannot
//! run, such as a look-ahead; a reference to another document or to
//! nowhere; a keyword whose value the standard does not allow) is
//! repaired by leaving out what could not be built, and with it the
//! keywords that would see less because of it (`unevaluatedProperties`,
//! `additionalProperties` and their kin where it sat, and
//! `unevaluatedProperties` and `unevaluatedItems` everywhere): the check
//! accepts more, never less. A schema still refused after a few repairs
//! is not checked.

use std::borrow::Cow;

use jsonschema::error::ValidationErrorKind;
use jsonschema::{PatternOptions, ValidationError, ValidationOptions, Validator};
use serde_json::Value;

use crate::formats::SCHEMARS_FORMATS;
use crate::read::Reading;
use crate::reference::{MANY, NAMED, ONE, lookup, pointer};
use crate::{JsonObject, NESTING_LIMIT, PATTERN_SIZE_LIMIT};

/// How many times a schema the validator refuses is repaired and built
/// again before it is left unchecked.
const REPAIRS: usize = 8;

/// How many schemas, one inside the next, the validator may enter for one
/// value: what a recursive schema's value may nest to is this over the
/// schema's own height. Measured, a debug build overflows a 2 MiB stack
/// (a test thread's, a tokio worker's) past some 5,000; this keeps to a
/// tenth of that.
const STACK_BUDGET: usize = 4 * NESTING_LIMIT;

/// The options every validator is built with.
pub(crate) fn options() -> ValidationOptions<'static> {
    let patterns = PatternOptions::regex()
        .size_limit(PATTERN_SIZE_LIMIT)
        .dfa_size_limit(PATTERN_SIZE_LIMIT * 4);
    let mut options = jsonschema::options()
        .with_pattern_options(patterns)
        .should_validate_formats(true)
        .offline();
    for &(name, check) in SCHEMARS_FORMATS {
        options = options.with_format(name, check);
    }
    options
}

/// A schema's validator, and what bounds its use.
pub(crate) struct Standard {
    validator: Validator,
    /// The schema the validator was built from, when the published one
    /// had to be repaired: the words read it, as the validator's errors
    /// point into it.
    repaired: Option<JsonObject>,
    /// How deep the arguments it checks may nest: [`NESTING_LIMIT`], or
    /// for a recursive schema less, so as to keep the validator within
    /// [`STACK_BUDGET`].
    depth_limit: usize,
    /// Whether listing a value's errors costs in proportion to the value.
    errors_bounded: bool,
    /// When it does not: the top-level properties whose errors do.
    bounded_properties: Vec<String>,
}

/// A value the validator did not look at.
pub(crate) struct NotChecked;

impl Standard {
    /// The validator for `schema`, read as `reading`; `None` for a schema
    /// it is not handed or cannot build.
    pub(crate) fn build(
        schema: &JsonObject,
        reading: &Reading,
        options: &ValidationOptions<'static>,
    ) -> Option<Standard> {
        if reading.refused.is_some() {
            return None;
        }
        let mut copy = Value::Object(schema.clone());
        let (validator, repaired) = match options.build(&copy) {
            Ok(validator) => (validator, false),
            Err(mut error) => {
                let mut built = None;
                for _ in 0..REPAIRS {
                    if !repair(&mut copy, &error) {
                        break;
                    }
                    match options.build(&copy) {
                        Ok(validator) => {
                            built = Some(validator);
                            break;
                        }
                        Err(again) => error = again,
                    }
                }
                (built?, true)
            }
        };
        let depth_limit = match reading.recursive {
            true => (STACK_BUDGET / reading.height.max(1)).clamp(1, NESTING_LIMIT),
            false => NESTING_LIMIT,
        };
        Some(Standard {
            validator,
            repaired: match (repaired, copy) {
                (true, Value::Object(copy)) => Some(copy),
                _ => None,
            },
            depth_limit,
            errors_bounded: reading.errors_bounded,
            bounded_properties: reading.bounded_properties.clone(),
        })
    }

    /// The schema the validator's errors point into: `published`, or its
    /// repaired copy.
    pub(crate) fn schema<'a>(&'a self, published: &'a JsonObject) -> &'a JsonObject {
        self.repaired.as_ref().unwrap_or(published)
    }

    /// `arguments` as one value for the validator, or [`NotChecked`] when
    /// they nest deeper than it checks: past [`NESTING_LIMIT`] levels
    /// (comparing and copying values recurse as deep as they nest), or
    /// for a recursive schema past what the stack holds.
    pub(crate) fn value(&self, arguments: &JsonObject) -> Result<Value, NotChecked> {
        if nests_deeper(arguments.values(), self.depth_limit) {
            return Err(NotChecked);
        }
        Ok(Value::Object(arguments.clone()))
    }

    /// Whether a value nests deeper than it is checked; see [`value`](Self::value).
    pub(crate) fn too_deep(&self, value: &Value) -> bool {
        nests_deeper(std::iter::once(value), self.depth_limit.saturating_add(1))
    }

    /// Whether `value`, within the depth checked, keeps to the schema.
    pub(crate) fn is_valid(&self, value: &Value) -> bool {
        self.validator.is_valid(value)
    }

    /// Every error of `value` (within the depth checked), when listing them
    /// is bounded: a recursive schema that applies itself twice to one
    /// part of a value would list twice as many at each level.
    pub(crate) fn errors<'v>(&'v self, value: &'v Value) -> Option<Vec<ValidationError<'v>>> {
        if !self.errors_bounded {
            return None;
        }
        Some(self.validator.iter_errors(value).collect())
    }

    /// The errors of one argument, `name`, sent alone (`{name: value}`,
    /// within the depth checked): only those inside it, and only when
    /// listing them is bounded for its schema though not for the whole.
    pub(crate) fn errors_of_argument<'v>(
        &'v self,
        name: &str,
        alone: &'v Value,
    ) -> Option<Vec<ValidationError<'v>>> {
        if self.errors_bounded || !self.bounded_properties.iter().any(|n| n == name) {
            return None;
        }
        let mut inside = String::from("/");
        inside.push_str(&name.replace('~', "~0").replace('/', "~1"));
        let errors = self.validator.iter_errors(alone).filter(|error| {
            let at = error.instance_path().as_str();
            at.strip_prefix(inside.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        });
        Some(errors.collect())
    }

    /// A copy of `arguments` with every array and object past the depth
    /// checked left out (`null`): what the validator can read of
    /// arguments too deep to check whole.
    pub(crate) fn cut(&self, arguments: &JsonObject) -> Value {
        let limit = self.depth_limit;
        let cut = arguments
            .iter()
            .map(|(key, value)| (key.clone(), crate::fault::cut(value, limit - 1)));
        Value::Object(cut.collect())
    }

    /// The errors of a [`cut`](Self::cut) copy above the cut, that no cut
    /// could have caused; `None` when listing is not bounded.
    pub(crate) fn errors_above_cut<'v>(
        &'v self,
        cut: &'v Value,
    ) -> Option<Vec<ValidationError<'v>>> {
        if !self.errors_bounded {
            return None;
        }
        let limit = self.depth_limit;
        let errors = self.validator.iter_errors(cut);
        let kept = errors.filter(|error| {
            crate::fault::unaffected_by_cut(error.kind())
                && error.instance_path().as_str().matches('/').count() < limit
        });
        Some(kept.collect())
    }
}

/// Whether any of `values` (each one level below the value that holds
/// them) holds an array or object `limit` levels down or deeper, found
/// without recursion and without looking past the limit.
pub(crate) fn nests_deeper<'v>(values: impl Iterator<Item = &'v Value>, limit: usize) -> bool {
    let nested = |value: &&Value| matches!(value, Value::Array(_) | Value::Object(_));
    let mut pending: Vec<(&Value, usize)> = values.filter(nested).map(|v| (v, 1)).collect();
    while let Some((value, depth)) = pending.pop() {
        if depth >= limit {
            return true;
        }
        match value {
            Value::Array(items) => {
                pending.extend(items.iter().filter(nested).map(|v| (v, depth + 1)));
            }
            Value::Object(map) => {
                pending.extend(map.values().filter(nested).map(|v| (v, depth + 1)));
            }
            _ => {}
        }
    }
    false
}

/// Leaves out of `copy` what made the validator refuse it; false when
/// nothing could be left out.
fn repair(copy: &mut Value, error: &ValidationError<'_>) -> bool {
    let repaired = match error.kind() {
        ValidationErrorKind::Referencing(_) => drop_references(copy),
        _ => remove_keyword(copy, error.instance_path().as_str()),
    };
    if repaired {
        drop_unevaluated(copy);
    }
    repaired
}

/// Where a step of a path into a schema is.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    /// A schema: its keys are keywords.
    Schema,
    /// A keyword's list or map of schemas.
    Schemas,
    /// Anything else: a keyword's value, data.
    Other,
}

/// Leaves out the keyword the validator's error points at: the deepest
/// keyword of a schema on `path`. A `$schema` the validator cannot read
/// is left out when the path leads nowhere.
fn remove_keyword(copy: &mut Value, path: &str) -> bool {
    let steps: Vec<Cow<'_, str>> = pointer(path).collect();
    let mut place = Place::Schema;
    let mut node = &*copy;
    let mut deepest = None;
    for (at, step) in steps.iter().enumerate() {
        let here = place;
        let Some(next) = (match node {
            Value::Object(map) => map.get(step.as_ref()),
            Value::Array(items) => step.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        }) else {
            break;
        };
        place = match here {
            Place::Schema if node.is_object() => {
                deepest = Some(at);
                let keyword = step.as_ref();
                if ONE.contains(&keyword) && next.is_object() {
                    Place::Schema
                } else if MANY.contains(&keyword)
                    || NAMED.contains(&keyword)
                    || ["$defs", "definitions"].contains(&keyword)
                {
                    Place::Schemas
                } else {
                    Place::Other
                }
            }
            Place::Schemas => Place::Schema,
            _ => Place::Other,
        };
        node = next;
    }
    let Some(at) = deepest else {
        return match copy {
            Value::Object(root) => root.remove("$schema").is_some(),
            _ => false,
        };
    };
    let mut holder = &mut *copy;
    for step in &steps[..at] {
        holder = match holder {
            Value::Object(map) => match map.get_mut(step.as_ref()) {
                Some(next) => next,
                None => return false,
            },
            Value::Array(items) => {
                match step.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                    Some(next) => next,
                    None => return false,
                }
            }
            _ => return false,
        };
    }
    let Value::Object(rules) = holder else {
        return false;
    };
    let removed = rules.remove(steps[at].as_ref()).is_some();
    // What the keyword evaluated, the keywords after it no longer see.
    for key in [
        "additionalProperties",
        "unevaluatedProperties",
        "additionalItems",
        "unevaluatedItems",
    ] {
        rules.remove(key);
    }
    removed
}

/// Leaves out every `$ref` and `$dynamicRef` that does not lead to a place
/// in the document, and a `$schema` that is not a draft the validator
/// knows; false when there is none.
fn drop_references(copy: &mut Value) -> bool {
    let Value::Object(root) = copy else {
        return false;
    };
    // Which schemas hold one, by their place in a fixed order: the walk
    // that reads the document cannot also change it.
    let mut dangling: Vec<usize> = Vec::new();
    let mut index = 0usize;
    visit_schemas(root, &mut |rules| {
        let leads = ["$ref", "$dynamicRef"]
            .iter()
            .all(|key| match rules.get(*key) {
                Some(Value::String(reference)) => lookup(root, reference).is_some(),
                Some(_) => false,
                None => true,
            });
        if !leads {
            dangling.push(index);
        }
        index += 1;
    });
    let mut index = 0usize;
    let mut removed = false;
    visit_schemas_mut(root, &mut |rules| {
        if dangling.binary_search(&index).is_ok() {
            removed |= rules.remove("$ref").is_some() | rules.remove("$dynamicRef").is_some();
        }
        index += 1;
    });
    if !removed {
        removed = root.remove("$schema").is_some();
    }
    removed
}

/// Leaves out `unevaluatedProperties` and `unevaluatedItems` everywhere:
/// once a schema is repaired, what they would see is no longer known.
fn drop_unevaluated(copy: &mut Value) {
    if let Value::Object(root) = copy {
        visit_schemas_mut(root, &mut |rules| {
            rules.remove("unevaluatedProperties");
            rules.remove("unevaluatedItems");
        });
    }
}

/// Every schema in `root` (`$defs` included), in one fixed order, found
/// without recursion.
fn visit_schemas(root: &JsonObject, visit: &mut impl FnMut(&JsonObject)) {
    let mut pending = vec![root];
    while let Some(rules) = pending.pop() {
        visit(rules);
        for (key, value) in rules {
            for schema in schemas_under(key, value) {
                if let Value::Object(schema) = schema {
                    pending.push(schema);
                }
            }
        }
    }
}

/// [`visit_schemas`], each schema open to change, in the same order.
fn visit_schemas_mut(root: &mut JsonObject, visit: &mut impl FnMut(&mut JsonObject)) {
    let mut pending = vec![root];
    while let Some(rules) = pending.pop() {
        visit(rules);
        for (key, value) in rules.iter_mut() {
            let key = key.as_str();
            let many = MANY.contains(&key);
            let named = NAMED.contains(&key) || ["$defs", "definitions"].contains(&key);
            let one = ONE.contains(&key);
            match value {
                Value::Object(map) => {
                    if one {
                        pending.push(map);
                    } else if named {
                        pending.extend(map.values_mut().filter_map(Value::as_object_mut));
                    }
                }
                Value::Array(items) if many => {
                    pending.extend(items.iter_mut().filter_map(Value::as_object_mut));
                }
                _ => {}
            }
        }
    }
}

/// The schemas a keyword's value holds, as [`visit_schemas_mut`] finds them.
fn schemas_under<'a>(key: &str, value: &'a Value) -> Vec<&'a Value> {
    let many = MANY.contains(&key);
    let named = NAMED.contains(&key) || ["$defs", "definitions"].contains(&key);
    match value {
        Value::Object(_) if ONE.contains(&key) => vec![value],
        Value::Array(items) if many => items.iter().filter(|item| item.is_object()).collect(),
        Value::Object(map) if named => map.values().filter(|item| item.is_object()).collect(),
        _ => Vec::new(),
    }
}
