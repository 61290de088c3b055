//! The words for arguments serde refused that the schema finds nothing
//! wrong with: a type with its own checks behind `try_from`, a
//! hand-written `Deserialize`, an integer type narrower than the schema
//! says. serde's own text is never passed on; it only points at the
//! argument.

use serde_json::Value;

use crate::JsonObject;
use crate::fault::Segment;
use crate::keywords::{Num, compare, integer_format, num, types};
use crate::reference::Schema;
use crate::words::{Words, missing, render, sent, unknown, wrong};

/// The longest string argument looked for in serde's reason, in bytes: a
/// reason quotes a value whole, and one this long is no use to find.
const REASON_LIMIT: usize = 1200;

/// How many arguments are looked for in serde's reason.
const SEARCH_LIMIT: usize = 64;

impl<'a> Words<'a> {
    /// The message when the schema found nothing: serde's reason, with the
    /// argument it names when that can be told for sure.
    pub(crate) fn refused(&self, tool: &str, arguments: &'a JsonObject, reason: &str) -> String {
        let reason = reason.trim();
        let root = self.root();
        let properties = match root {
            Schema::Rules(rules) => rules.get("properties").and_then(Value::as_object),
            _ => None,
        };

        // serde names a field it missed or did not know, but not where it
        // sits; only a top-level argument is certain to be the one meant.
        if let Some(field) = reason
            .strip_prefix("missing field `")
            .and_then(|rest| rest.strip_suffix('`'))
            && let Some((name, schema)) = properties.and_then(|p| p.get_key_value(field))
            && !arguments.contains_key(field)
        {
            let what = self.what(self.schema(schema));
            return missing(tool, &render(&[Segment::Name(name)]), &what);
        }
        if let Some(rest) = reason.strip_prefix("unknown field `") {
            let named = arguments
                .keys()
                .filter(|key| !properties.is_some_and(|p| p.contains_key(*key)))
                .filter(|key| names_key(rest, key))
                .max_by_key(|key| key.len());
            if let Some(key) = named {
                let known: Vec<&str> = properties
                    .into_iter()
                    .flat_map(|p| p.keys().map(String::as_str))
                    .collect();
                return unknown(tool, &[], key, &known);
            }
        }

        // serde's own text is never passed on: a type's `Deserialize` may
        // write the model's value into it whole (`invalid_value`), or name
        // Rust types ("untagged enum InternalBillingNode"). It only points
        // at the argument whose value it quotes, which is told here in this
        // module's words, the value through `quote`.
        // With one argument sent, it is the one serde refused. Otherwise
        // serde writes the value it refused first ("invalid value: string
        // ..."): only the start of its text is searched, for the first
        // arguments, so that megabytes of reason and of arguments cost no
        // more than a line of each.
        let pointed = match arguments.len() {
            1 => arguments.iter().next(),
            _ => arguments
                .iter()
                .take(SEARCH_LIMIT)
                .find(|(_, value)| serde_quotes(reason, value)),
        };
        if let Some((name, value)) = pointed {
            // What the type refuses that the standard allows: a whole
            // number written with a fraction, or one past the range its
            // integer format gives.
            if let Some(schema) = properties.and_then(|p| p.get(name))
                && let Schema::Rules(rules) = self.schema(schema)
                && beyond_the_type(rules, value)
            {
                let name = render(&[Segment::Name(name)]);
                return wrong(
                    tool,
                    &name,
                    value,
                    Schema::Rules(rules),
                    &self.what(Schema::Rules(rules)),
                );
            }
            return format!(
                "The argument {} of {tool} was {}, which {tool} does not accept. \
                 Call {tool} again with another value for {}.",
                render(&[Segment::Name(name)]),
                sent(value),
                render(&[Segment::Name(name)]),
            );
        }
        format!(
            "{tool} did not accept the values of its arguments. \
             Call {tool} again with each value in the form its parameter takes."
        )
    }
}

/// The largest char boundary of `text` at or below `at`.
fn floor_char_boundary(text: &str, at: usize) -> usize {
    if at >= text.len() {
        return text.len();
    }
    (0..=at)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

/// Whether serde's `reason` quotes `value` as it quotes an unexpected
/// value (`string "..."`, ``integer `7` ``, ``boolean `true` ``): the
/// argument it points at.
fn serde_quotes(reason: &str, value: &Value) -> bool {
    let quoted = match value {
        Value::String(text) if text.len() <= REASON_LIMIT => format!("string {text:?}"),
        Value::Number(number) if number.is_f64() => format!("floating point `{number}`"),
        Value::Number(number) => format!("integer `{number}`"),
        Value::Bool(flag) => format!("boolean `{flag}`"),
        _ => return false,
    };
    // serde's "invalid value: " or "invalid type: " comes first, then the
    // value.
    let head = &reason[..floor_char_boundary(reason, quoted.len() + 64)];
    head.match_indices(quoted.as_str())
        .any(|(at, _)| !head[at + quoted.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

/// Whether serde's text after "unknown field `" names `key`: the key, then
/// the closing backtick and either the end or serde's list of fields.
fn names_key(rest: &str, key: &str) -> bool {
    rest.strip_prefix(key)
        .and_then(|after| after.strip_prefix('`'))
        .is_some_and(|after| after.is_empty() || after.starts_with(", "))
}

/// Whether `value` keeps to `rules` as the standard reads them but not as
/// an integer type does: with a fraction (`3.0`), or past the range of
/// the integer `format` (`uint32`).
fn beyond_the_type(rules: &JsonObject, value: &Value) -> bool {
    let Value::Number(number) = value else {
        return false;
    };
    let kinds = types(rules);
    if !kinds.contains(&"integer") || kinds.contains(&"number") {
        return false;
    }
    if !(number.is_i64() || number.is_u64()) {
        return true;
    }
    let Some((low, high)) = rules
        .get("format")
        .and_then(Value::as_str)
        .and_then(integer_format)
    else {
        return false;
    };
    let value = num(number);
    compare(value, Num::Int(low)).is_some_and(|o| o.is_lt())
        || compare(value, Num::Int(high)).is_some_and(|o| o.is_gt())
}
