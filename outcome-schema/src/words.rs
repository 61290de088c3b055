//! What the model reads: a path to an argument (`inner.tags[2]`), a value
//! it sent, quoted, and the message for each kind of fault. The schema in
//! words is `describe`'s; serde's refusals are `serde_words`'.

use std::cell::Cell;
use std::fmt::Write as _;

use outcome_rules::{QUOTE_LIMIT, quote};
use serde_json::Value;

use crate::JsonObject;
use crate::fault::{Fault, Problem, Segment};
use crate::reference::{self, Schema};

/// How many allowed values or argument names a message lists.
pub(crate) const LIST_LIMIT: usize = 10;

/// The longest argument path a message names, in characters.
pub(crate) const PATH_LIMIT: usize = 160;

/// A description longer than this is not repeated in the next step.
const REPEAT_LIMIT: usize = 60;

/// A property name longer than this, or with characters outside
/// [`plain_name`], is quoted rather than written as it is.
const NAME_LIMIT: usize = 64;

/// What a schema that says nothing useful describes.
pub(crate) const ANY_VALUE: &str = "a valid value";

/// The words of one message, over the schema they describe.
pub(crate) struct Words<'a> {
    root: &'a JsonObject,
    /// Descriptions written so far: alternatives that refer back to
    /// themselves multiply at each level.
    pub(crate) described: Cell<usize>,
}

impl<'a> Words<'a> {
    pub(crate) fn new(root: &'a JsonObject) -> Self {
        Words {
            root,
            described: Cell::new(0),
        }
    }

    /// The root schema, its references followed.
    pub(crate) fn root(&self) -> Schema<'a> {
        reference::follow(self.root, self.root)
    }

    /// A schema value within the root, its references followed.
    pub(crate) fn schema(&self, value: &'a Value) -> Schema<'a> {
        reference::schema(self.root, value)
    }

    /// The message for a fault.
    pub(crate) fn tell(&self, tool: &str, fault: &Fault<'a>) -> String {
        let name = render(&fault.path);
        match fault.problem {
            Problem::Missing(schema) => missing(tool, &name, &self.what(schema)),
            Problem::MissingWith(trigger) => {
                let parent = &fault.path[..fault.path.len().saturating_sub(1)];
                let trigger = render(&[parent, &[Segment::Name(trigger)]].concat());
                format!(
                    "The argument {name} of {tool} is missing, and it must be set when \
                     {trigger} is. Call {tool} again with {name} set."
                )
            }
            Problem::MissingOne(ref names) => missing_one(tool, &fault.path, names),
            Problem::Wrong { value, schema, own } => {
                let what = if own {
                    self.what_own(schema)
                } else {
                    self.what(schema)
                };
                wrong(tool, &name, value, schema, &what)
            }
            Problem::Not(value, schema) => {
                let what = self.what(schema);
                let sent = sent(value);
                match (schema, fault.path.is_empty()) {
                    (Schema::Any | Schema::Never, _) => {
                        wrong(tool, &name, value, Schema::Never, ANY_VALUE)
                    }
                    _ if what == ANY_VALUE => wrong(tool, &name, value, schema, ANY_VALUE),
                    (_, true) => format!(
                        "The arguments of {tool} were {sent}, but they must not be {what}. \
                         Call {tool} again with arguments that fit."
                    ),
                    (_, false) => format!(
                        "The argument {name} of {tool} was {sent}, but it must not be {what}. \
                         Call {tool} again with {name} {}.",
                        next_step(&format!("as anything but {what}"))
                    ),
                }
            }
            Problem::Several(value, schema) => {
                let what = self.what(schema);
                let sent = sent(value);
                if fault.path.is_empty() {
                    format!(
                        "The arguments of {tool} were {sent}, but they must be exactly one of \
                         {what}, and they are more than one. Call {tool} again with arguments \
                         that fit."
                    )
                } else {
                    format!(
                        "The argument {name} of {tool} was {sent}, but it must be exactly one \
                         of {what}, and it is more than one. Call {tool} again with {name} \
                         corrected."
                    )
                }
            }
            Problem::Unknown(key, ref known) => unknown(tool, &fault.path, key, known),
            Problem::Key(key, schema) => self.key(tool, &fault.path, key, schema),
        }
    }

    /// The message for a key whose name is not what its object's keys
    /// must be (`propertyNames`).
    fn key(&self, tool: &str, parent: &[Segment<'_>], key: &str, schema: Schema<'a>) -> String {
        let what = self.what(schema);
        let quoted: String = key.chars().take(QUOTE_LIMIT + 1).collect();
        let quoted = quote(quoted);
        let parent = render(parent);
        match (
            parent.is_empty(),
            matches!(schema, Schema::Never) || what == ANY_VALUE,
        ) {
            (true, true) => unknown(tool, &[], key, &[]),
            (true, false) => format!(
                "{tool} takes no argument {quoted}, as the names of its arguments must be \
                 {what}. Call {tool} again without it."
            ),
            (false, true) => format!(
                "The argument {parent} of {tool} has the key {quoted}, but it takes no keys. \
                 Call {tool} again with {parent} empty."
            ),
            (false, false) => format!(
                "The argument {parent} of {tool} has the key {quoted}, but its keys must be \
                 {what}. Call {tool} again without that key in {parent}."
            ),
        }
    }
}

/// "as a whole number from 1 to 7", or "corrected" when repeating what
/// it must be would make the step long.
fn next_step(as_what: &str) -> String {
    if as_what.chars().count() <= REPEAT_LIMIT + 3 {
        as_what.to_owned()
    } else {
        "corrected".to_owned()
    }
}

/// The message for a value that is not `what`.
pub(crate) fn wrong(
    tool: &str,
    name: &str,
    value: &Value,
    schema: Schema<'_>,
    what: &str,
) -> String {
    let sent = sent(value);
    if name.is_empty() && what == ANY_VALUE {
        return format!(
            "The arguments of {tool} were {sent}, which do not fit the parameters it takes. \
             Call {tool} again with each argument in the form its parameter takes."
        );
    }
    if name.is_empty() {
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
    format!(
        "The argument {name} of {tool} was {sent}, but it must be {what}. \
         Call {tool} again with {name} {}.",
        next_step(&format!("as {what}"))
    )
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
            Segment::Name(name) => format!("[{}]", quote(name)),
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

pub(crate) fn missing(tool: &str, name: &str, what: &str) -> String {
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
pub(crate) fn unknown(tool: &str, parent: &[Segment<'_>], key: &str, known: &[&str]) -> String {
    let parent = render(parent);
    // Enough of the key for `quote` to cut and mark it, and no more.
    let key: String = key.chars().take(QUOTE_LIMIT + 1).collect();
    let name = if parent.is_empty() {
        quote(key)
    } else {
        quote(format!("{parent}.{key}"))
    };
    let known: Vec<String> = known
        .iter()
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
pub(crate) fn one_of<'v>(values: impl Iterator<Item = &'v Value>, total: usize) -> String {
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
pub(crate) fn join_or(parts: &[String], more: usize) -> String {
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
