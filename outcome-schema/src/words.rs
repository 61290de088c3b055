//! What the model reads: a schema in words ("a whole number from 1 to
//! 7"), a path to an argument (`inner.tags[2]`), a value it sent, quoted,
//! and the message for each kind of fault, or for arguments serde refused
//! that the schema finds nothing wrong with.

use std::fmt::Write as _;

use outcome_rules::{QUOTE_LIMIT, one_line, quote};
use serde_json::Value;

use crate::JsonObject;
use crate::formats::format_text;
use crate::keywords::{Range, count, kinds, multiple_of, range};
use crate::walk::{Fault, Problem, Schema, Segment, Walk};

/// How deep a description looks into alternatives and list items: past
/// this, the words stop helping the model and only lengthen the message.
const DESCRIBE_DEPTH: usize = 3;

/// How many schemas one message may describe.
const DESCRIBE_LIMIT: usize = 500;

/// How many allowed values or argument names a message lists.
const LIST_LIMIT: usize = 10;

/// The longest argument path a message names, in characters.
pub(crate) const PATH_LIMIT: usize = 160;

/// The longest description of what an argument must be, in characters.
const WHAT_LIMIT: usize = 300;

/// A description longer than this is not repeated in the next step.
const REPEAT_LIMIT: usize = 60;

/// The longest string argument looked for in serde's reason, in bytes: a
/// reason quotes a value whole, and one this long is no use to find.
const REASON_LIMIT: usize = 1200;

/// How many arguments are looked for in serde's reason.
const SEARCH_LIMIT: usize = 64;

/// A property name longer than this, or with characters outside
/// [`plain_name`], is quoted rather than written as it is.
const NAME_LIMIT: usize = 64;

/// What a schema that says nothing useful describes.
const ANY_VALUE: &str = "a valid value";

impl<'a> Walk<'a> {
    /// The message for a fault the schema found.
    pub(crate) fn tell(&self, tool: &str, fault: &Fault<'a>) -> String {
        match fault.problem {
            Problem::Missing(schema) => missing(tool, &render(&fault.path), &self.what(schema)),
            Problem::MissingOne(ref names) => missing_one(tool, &fault.path, names),
            Problem::Wrong(value, schema) => {
                let name = render(&fault.path);
                let what = self.what(schema);
                let sent = sent(value);
                if fault.path.is_empty() && what == ANY_VALUE {
                    return format!(
                        "The arguments of {tool} were {sent}, which do not fit the parameters \
                         it takes. Call {tool} again with each argument of the type its input \
                         schema gives."
                    );
                }
                if fault.path.is_empty() {
                    return format!(
                        "The arguments of {tool} were {sent}, but they must be {what}. \
                         Call {tool} again with arguments that fit."
                    );
                }
                if matches!(schema, Schema::Never) {
                    return format!(
                        "The argument {name} of {tool} was {sent}, but it must be left out. \
                         Call {tool} again without {name}."
                    );
                }
                if what == ANY_VALUE {
                    return format!(
                        "The argument {name} of {tool} was {sent}, which it does not take. \
                         Call {tool} again with {name} corrected."
                    );
                }
                let next = if what.chars().count() <= REPEAT_LIMIT {
                    format!("as {what}")
                } else {
                    "corrected".to_owned()
                };
                format!(
                    "The argument {name} of {tool} was {sent}, but it must be {what}. \
                     Call {tool} again with {name} {next}."
                )
            }
            Problem::Unknown(key, properties) => unknown(tool, &fault.path, key, properties),
        }
    }

    /// The message when the schema found nothing: serde's reason, with the
    /// argument it names when that can be told for sure.
    pub(crate) fn refused(
        &self,
        tool: &str,
        root: Schema<'a>,
        arguments: &JsonObject,
        reason: &str,
    ) -> String {
        let reason = reason.trim();
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
                return unknown(tool, &[], key, properties);
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

    /// What a value of `schema` must be, bounded for a message.
    pub(crate) fn what(&self, schema: Schema<'a>) -> String {
        one_line(&self.describe(schema, 0), WHAT_LIMIT)
    }

    /// What a value of `schema` is, in words a model reads: "a string", "a
    /// whole number from 0 to 255", "one of 'draft', 'final'".
    fn describe(&self, schema: Schema<'a>, depth: usize) -> String {
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
            .filter(|options| !options.is_empty());
        if let Some(options) = options {
            return self.describe_options(options, depth);
        }
        if let Some(parts) = rules.get("allOf").and_then(Value::as_array) {
            let described: Vec<String> = parts
                .iter()
                .take(LIST_LIMIT)
                .map(|part| self.describe(self.schema(part), depth + 1))
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
            let text = self.describe(self.schema(option), depth + 1);
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
        let maximum = count(rules, "maxItems");
        let mut text = match (minimum, maximum) {
            (Some(1), None) => "a non-empty list".to_owned(),
            (None, None) => "a list".to_owned(),
            _ => format!("a list of {}", count_phrase(minimum, maximum, "item")),
        };
        let tuple =
            rules.contains_key("prefixItems") || rules.get("items").is_some_and(Value::is_array);
        if !tuple && let Some(items) = rules.get("items") {
            let each = self.describe(self.schema(items), depth + 1);
            if each != ANY_VALUE {
                let _ = write!(text, ", each {each}");
            }
        }
        if rules.get("uniqueItems") == Some(&Value::Bool(true)) {
            text.push_str(", with no item twice");
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
/// A path such as `inner.limit`, `tags[2]` or `labels['x']`, cut from the
/// front to [`PATH_LIMIT`] characters. Names the model chose are quoted.
pub(crate) fn render(path: &[Segment<'_>]) -> String {
    let parts: Vec<String> = path
        .iter()
        .enumerate()
        .map(|(i, segment)| match *segment {
            Segment::Name(name) if plain_name(name) && i == 0 => name.to_owned(),
            Segment::Name(name) if plain_name(name) => format!(".{name}"),
            Segment::Name(name) if i == 0 => quote(name).to_string(),
            Segment::Name(name) | Segment::Key(name) => format!("[{}]", quote(name)),
            Segment::Index(index) => format!("[{index}]"),
        })
        .collect();
    let mut length = 0;
    let mut kept = 0;
    for part in parts.iter().rev() {
        let part_length = part.chars().count();
        if kept > 0 && length + part_length > PATH_LIMIT {
            break;
        }
        length += part_length;
        kept += 1;
    }
    let tail = parts[parts.len() - kept..].concat();
    if kept < parts.len() {
        format!("...{tail}")
    } else {
        tail
    }
}

/// A name that reads the same written bare: short, and only letters,
/// digits, `_`, `-`, `$` and `@`.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().count() <= NAME_LIMIT
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '$' | '@'))
}

fn missing(tool: &str, name: &str, what: &str) -> String {
    if what == ANY_VALUE {
        format!("The argument {name} of {tool} is missing. Call {tool} again with {name} set.")
    } else {
        format!(
            "The argument {name} of {tool} is missing, and it must be {what}. \
             Call {tool} again with {name} set."
        )
    }
}

/// The message for an object that must have one of several keys and has
/// none: `names` are its own keys, under `parent`.
fn missing_one(tool: &str, parent: &[Segment<'_>], names: &[&str]) -> String {
    let named: Vec<String> = names
        .iter()
        .take(LIST_LIMIT)
        .map(|name| render(&[parent, &[Segment::Name(name)]].concat()))
        .collect();
    let list = join_or(&named, names.len() - named.len());
    let parent = render(parent);
    if parent.is_empty() {
        format!(
            "The arguments of {tool} need one of {list}, and none was sent. Call {tool} \
             again with one of them set."
        )
    } else {
        format!(
            "The argument {parent} of {tool} needs one of {list}, and none was sent. Call \
             {tool} again with one of them set."
        )
    }
}

/// The message for a key the model sent that its object does not take,
/// with the keys it does take.
fn unknown(
    tool: &str,
    parent: &[Segment<'_>],
    key: &str,
    properties: Option<&JsonObject>,
) -> String {
    let parent = render(parent);
    // Enough of the key for `quote` to cut and mark it, and no more.
    let key: String = key.chars().take(QUOTE_LIMIT + 1).collect();
    let name = if parent.is_empty() {
        quote(key)
    } else {
        quote(format!("{parent}.{key}"))
    };
    let known: Vec<String> = properties
        .into_iter()
        .flat_map(|p| p.keys())
        .take(LIST_LIMIT + 1)
        .map(|known| render(&[Segment::Name(known)]))
        .collect();
    let within = if parent.is_empty() {
        String::new()
    } else {
        format!(" in {parent}")
    };
    let next = match known.as_slice() {
        [] if parent.is_empty() => format!("Call {tool} again with no arguments."),
        [] => format!("Call {tool} again without it."),
        [one] => format!("Call {tool} again with only {one}{within}."),
        all if all.len() > LIST_LIMIT => format!(
            "Call {tool} again with only the names it takes{within}, such as {}.",
            all[..LIST_LIMIT].join(", ")
        ),
        [init @ .., last] => format!(
            "Call {tool} again with only {} and {last}{within}.",
            init.join(", ")
        ),
    };
    format!("{tool} takes no argument {name}. {next}")
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

/// A value the model sent, quoted. A string is quoted as its text; other
/// values as JSON, written only as far as the quote shows.
pub(crate) fn sent(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::String(text) => quote(text).to_string(),
        other => {
            let mut json = String::new();
            preview(other, &mut json, 0);
            quote(json).to_string()
        }
    }
}

/// Writes the start of `value` as JSON: enough to pass the quote's limit,
/// so the quote marks the cut, and never deeper than a few levels.
fn preview(value: &Value, out: &mut String, depth: usize) {
    // Four bytes a character at most: past this, the quote cuts.
    let full = |out: &String| out.len() > QUOTE_LIMIT * 4;
    let string = |out: &mut String, text: &str| {
        out.push('"');
        for c in text.chars().take(QUOTE_LIMIT + 1) {
            if matches!(c, '"' | '\\') {
                out.push('\\');
            }
            out.push(c);
        }
        out.push('"');
    };
    match value {
        Value::String(text) => string(out, text),
        Value::Array(items) if depth < 4 => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if full(out) {
                    return;
                }
                if i > 0 {
                    out.push(',');
                }
                preview(item, out, depth + 1);
            }
            out.push(']');
        }
        Value::Object(object) if depth < 4 => {
            out.push('{');
            for (i, (key, item)) in object.iter().enumerate() {
                if full(out) {
                    return;
                }
                if i > 0 {
                    out.push(',');
                }
                string(out, key);
                out.push(':');
                preview(item, out, depth + 1);
            }
            out.push('}');
        }
        Value::Array(_) => out.push_str("[...]"),
        Value::Object(_) => out.push_str("{...}"),
        scalar => {
            let _ = write!(out, "{scalar}");
        }
    }
}

/// "one of 'draft', 'final'", the first [`LIST_LIMIT`] of `total` values
/// and how many more there are.
fn one_of<'v>(values: impl Iterator<Item = &'v Value>, total: usize) -> String {
    let quoted: Vec<String> = values.take(LIST_LIMIT).map(sent).collect();
    match quoted.as_slice() {
        [] => ANY_VALUE.to_owned(),
        [one] if total == 1 => one.clone(),
        shown => {
            let mut text = format!("one of {}", shown.join(", "));
            if total > shown.len() {
                let _ = write!(text, ", or one of {} more", total - shown.len());
            }
            text
        }
    }
}

/// "a string, a list or null", with how many options went unlisted. A
/// part that says nothing is left out unless it is the only one.
fn join_or(parts: &[String], more: usize) -> String {
    let said: Vec<&str> = parts
        .iter()
        .map(String::as_str)
        .filter(|part| *part != ANY_VALUE)
        .collect();
    let text = match said.as_slice() {
        [] => ANY_VALUE.to_owned(),
        [one] => (*one).to_owned(),
        [init @ .., last] if more == 0 => format!("{} or {last}", init.join(", ")),
        all => all.join(", "),
    };
    if more > 0 {
        format!("{text}, or one of {more} more")
    } else {
        text
    }
}
