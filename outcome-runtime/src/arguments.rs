//! Arguments that do not deserialize, told to the model in its own terms.
//!
//! rmcp answers them with serde's text ("invalid type: string \"ten\",
//! expected u32"), which names Rust types and often not the argument. The
//! tool's input schema says what each argument must be; this module compares
//! the arguments the model sent with it and names the first one that is wrong,
//! the value it sent and what it must be.

use rmcp::model::JsonObject;
use serde_json::Value;

use crate::message::quote;

/// The message for arguments of `tool` that did not deserialize.
pub(crate) fn message(tool: &str, schema: &JsonObject, arguments: Option<&JsonObject>) -> String {
    let empty = JsonObject::new();
    let arguments = arguments.unwrap_or(&empty);
    match object_problem(schema, schema, arguments, "") {
        Some(Problem::Missing { name, what }) => format!(
            "The argument {name} of {tool} is missing, and it must be {what}. \
             Call {tool} again with {name} set."
        ),
        Some(Problem::Wrong { name, sent, what }) => format!(
            "The argument {name} of {tool} was {sent}, but it must be {what}. \
             Call {tool} again with {name} as {what}."
        ),
        Some(Problem::Unknown { name, known }) => format!(
            "{tool} takes no argument {}. Call {tool} again with only {known}.",
            quote(&name)
        ),
        None => format!(
            "The arguments of {tool} do not fit the parameters it takes. \
             Call {tool} again with each argument of the type its input schema gives."
        ),
    }
}

/// The first thing wrong with one object of the arguments.
enum Problem {
    Missing {
        name: String,
        what: String,
    },
    Wrong {
        name: String,
        sent: String,
        what: String,
    },
    Unknown {
        name: String,
        known: String,
    },
}

/// Finds the first problem in `object` against the object schema `schema`:
/// a required property missing, a property of the wrong type (looking
/// inside nested objects), or a property the schema does not allow. `path`
/// names the object within the arguments (`""` at the top, then `inner.`).
fn object_problem(
    root: &JsonObject,
    schema: &JsonObject,
    object: &JsonObject,
    path: &str,
) -> Option<Problem> {
    let schema = resolve(root, schema);
    let properties = schema.get("properties").and_then(Value::as_object);
    let property = |name: &str| properties.and_then(|p| p.get(name));

    let required = schema.get("required").and_then(Value::as_array);
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        let missing = match object.get(name) {
            None => true,
            Some(Value::Null) => !property(name).is_some_and(|p| accepts(root, p, &Value::Null)),
            Some(_) => false,
        };
        if missing {
            let what = property(name).map_or_else(|| "given".to_owned(), |p| describe(root, p));
            return Some(Problem::Missing {
                name: format!("{path}{name}"),
                what,
            });
        }
    }

    for (name, value) in object {
        let Some(expected) = property(name) else {
            continue;
        };
        if let (Some(nested), Value::Object(inner)) = (object_schema(root, expected), value)
            && let Some(problem) = object_problem(root, nested, inner, &format!("{path}{name}."))
        {
            return Some(problem);
        }
        if !accepts(root, expected, value) {
            let sent = match value {
                Value::String(text) => quote(text).to_string(),
                other => quote(other).to_string(),
            };
            return Some(Problem::Wrong {
                name: format!("{path}{name}"),
                sent,
                what: describe(root, expected),
            });
        }
    }

    let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
    if closed && let Some(name) = object.keys().find(|name| property(name).is_none()) {
        let known: Vec<String> = properties
            .into_iter()
            .flat_map(|p| p.keys())
            .map(|known| format!("{path}{known}"))
            .collect();
        return Some(Problem::Unknown {
            name: format!("{path}{name}"),
            known: join_and(&known),
        });
    }
    None
}

/// The schema of an object property, if it is one (after `$ref`).
fn object_schema<'a>(root: &'a JsonObject, schema: &'a Value) -> Option<&'a JsonObject> {
    let schema = resolve(root, schema.as_object()?);
    let is_object = types(schema) == ["object"] || schema.contains_key("properties");
    is_object.then_some(schema)
}

fn join_and(parts: &[String]) -> String {
    match parts {
        [] => "the arguments its input schema lists".to_owned(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Follows a local `$ref` ("#/$defs/Name") to the schema it names.
fn resolve<'a>(root: &'a JsonObject, schema: &'a JsonObject) -> &'a JsonObject {
    let target = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|reference| reference.strip_prefix("#/"))
        .and_then(|pointer| {
            pointer
                .split('/')
                .try_fold(root, |node, key| node.get(key).and_then(Value::as_object))
        });
    target.unwrap_or(schema)
}

fn alternatives(schema: &JsonObject) -> Option<&Vec<Value>> {
    schema
        .get("anyOf")
        .or_else(|| schema.get("oneOf"))
        .and_then(Value::as_array)
}

fn types(schema: &JsonObject) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Whether `value` fits `schema`, as far as the checks serde makes go.
fn accepts(root: &JsonObject, schema: &Value, value: &Value) -> bool {
    let Some(schema) = schema.as_object() else {
        return true;
    };
    let schema = resolve(root, schema);
    if let Some(options) = alternatives(schema) {
        return options.iter().any(|option| accepts(root, option, value));
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        return allowed.contains(value);
    }
    if let Some(constant) = schema.get("const") {
        return constant == value;
    }
    let types = types(schema);
    if types.is_empty() {
        return true;
    }
    types.iter().any(|kind| match (*kind, value) {
        ("string", Value::String(_))
        | ("boolean", Value::Bool(_))
        | ("null", Value::Null)
        | ("object", Value::Object(_))
        | ("number", Value::Number(_)) => true,
        ("array", Value::Array(items)) => schema
            .get("items")
            .is_none_or(|item| items.iter().all(|v| accepts(root, item, v))),
        ("integer", Value::Number(number)) => integer_in_range(schema, number),
        _ => false,
    })
}

fn integer_in_range(schema: &JsonObject, number: &serde_json::Number) -> bool {
    let value = if let Some(value) = number.as_i64() {
        value as f64
    } else if let Some(value) = number.as_u64() {
        value as f64
    } else {
        return false;
    };
    let minimum = schema.get("minimum").and_then(Value::as_f64);
    let maximum = schema.get("maximum").and_then(Value::as_f64);
    minimum.is_none_or(|min| value >= min) && maximum.is_none_or(|max| value <= max)
}

/// What a value of `schema` is, in words a model reads: "a string", "a whole
/// number from 0 to 255", "one of 'draft', 'final'".
fn describe(root: &JsonObject, schema: &Value) -> String {
    let Some(schema) = schema.as_object() else {
        return "a valid value".to_owned();
    };
    let schema = resolve(root, schema);
    if let Some(options) = alternatives(schema) {
        // An enum with documented variants: one `const` per option.
        let constants: Option<Vec<Value>> = options
            .iter()
            .map(|option| {
                let option = resolve(root, option.as_object()?);
                option.get("const").cloned().or_else(|| {
                    match option.get("enum").and_then(Value::as_array)?.as_slice() {
                        [one] => Some(one.clone()),
                        _ => None,
                    }
                })
            })
            .collect();
        if let Some(constants) = constants {
            return one_of(&constants);
        }
        let mut described: Vec<String> = Vec::new();
        for option in options {
            let text = describe(root, option);
            if !described.contains(&text) {
                described.push(text);
            }
        }
        return join_or(&described);
    }
    if let Some(constant) = schema.get("const") {
        return match constant {
            Value::String(text) => quote(text).to_string(),
            other => quote(other).to_string(),
        };
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        return one_of(allowed);
    }
    let kinds: Vec<String> = types(schema)
        .into_iter()
        .map(|kind| describe_type(schema, kind))
        .collect();
    if kinds.is_empty() {
        "a valid value".to_owned()
    } else {
        join_or(&kinds)
    }
}

/// "one of 'draft', 'final'".
fn one_of(values: &[Value]) -> String {
    let mut text = String::from("one of ");
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        let quoted = match value {
            Value::String(s) => quote(s).to_string(),
            other => quote(other).to_string(),
        };
        text.push_str(&quoted);
    }
    text
}

fn describe_type(schema: &JsonObject, kind: &str) -> String {
    match kind {
        "string" => "a string".to_owned(),
        "boolean" => "true or false".to_owned(),
        "null" => "null".to_owned(),
        "object" => "an object".to_owned(),
        "array" => "a list".to_owned(),
        "number" => "a number".to_owned(),
        "integer" => {
            let minimum = schema.get("minimum").and_then(Value::as_f64);
            let maximum = schema.get("maximum").and_then(Value::as_f64);
            match (minimum, maximum) {
                (Some(min), Some(max)) => format!("a whole number from {min} to {max}"),
                (Some(min), None) => format!("a whole number of {min} or more"),
                (None, Some(max)) => format!("a whole number of {max} or less"),
                (None, None) => "a whole number".to_owned(),
            }
        }
        other => format!("a value of JSON type {other}"),
    }
}

fn join_or(parts: &[String]) -> String {
    match parts {
        [] => "a valid value".to_owned(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(object) => object,
            _ => unreachable!("the test passes an object"),
        }
    }

    fn schema() -> JsonObject {
        object(json!({
            "type": "object",
            "properties": {
                "path": { "type": "string" },
                "limit": { "type": "integer", "format": "uint32", "minimum": 0, "maximum": 4294967295u64 },
                "tag": { "type": ["string", "null"] },
                "mode": { "$ref": "#/$defs/Mode" }
            },
            "required": ["path", "limit"],
            "$defs": { "Mode": { "type": "string", "enum": ["draft", "final"] } }
        }))
    }

    #[test]
    fn names_a_missing_argument_and_what_it_must_be() {
        let args = object(json!({ "limit": 3 }));
        assert_eq!(
            message("search", &schema(), Some(&args)),
            "The argument path of search is missing, and it must be a string. \
             Call search again with path set."
        );
        assert!(message("search", &schema(), None).contains("argument path"));
    }

    #[test]
    fn quotes_a_value_of_the_wrong_type() {
        let args = object(json!({ "path": "a", "limit": "ten" }));
        assert_eq!(
            message("search", &schema(), Some(&args)),
            "The argument limit of search was 'ten', but it must be a whole number from 0 \
             to 4294967295. Call search again with limit as a whole number from 0 to 4294967295."
        );
        let args = object(json!({ "path": 42, "limit": 1 }));
        assert!(message("search", &schema(), Some(&args)).contains("path of search was '42'"));
    }

    #[test]
    fn documented_enum_variants_are_listed_by_value() {
        let schema = object(json!({
            "type": "object",
            "properties": { "mode": { "oneOf": [
                { "type": "string", "const": "draft", "description": "Unpublished." },
                { "type": "string", "const": "final", "description": "Published." }
            ] } },
        }));
        let args = object(json!({ "mode": "done" }));
        assert!(
            message("publish", &schema, Some(&args)).contains("must be one of 'draft', 'final'.")
        );
    }

    #[test]
    fn unknown_arguments_of_a_closed_schema_are_named() {
        let mut closed = schema();
        closed.insert("additionalProperties".into(), json!(false));
        let args = object(json!({ "path": "a", "limit": 1, "lmit": 3 }));
        assert_eq!(
            message("search", &closed, Some(&args)),
            "search takes no argument 'lmit'. Call search again with only limit, mode, path \
             and tag."
        );
    }

    #[test]
    fn nested_objects_are_checked_inside() {
        let schema = object(json!({
            "type": "object",
            "properties": { "inner": { "$ref": "#/$defs/Inner" } },
            "required": ["inner"],
            "$defs": { "Inner": {
                "type": "object",
                "properties": { "limit": { "type": "integer" } },
                "required": ["limit"]
            } }
        }));
        let args = object(json!({ "inner": { "limit": "ten" } }));
        assert!(message("search", &schema, Some(&args)).starts_with(
            "The argument inner.limit of search was 'ten', but it must be a whole number."
        ));
        let args = object(json!({ "inner": {} }));
        assert!(
            message("search", &schema, Some(&args)).contains("inner.limit of search is missing")
        );
    }

    #[test]
    fn follows_references_and_lists_enum_values() {
        let args = object(json!({ "path": "a", "limit": 1, "mode": "done" }));
        assert!(
            message("search", &schema(), Some(&args)).contains("must be one of 'draft', 'final'")
        );
        let args = object(json!({ "path": "a", "limit": 1, "tag": null, "mode": "final" }));
        assert!(message("search", &schema(), Some(&args)).contains("do not fit"));
    }
}
