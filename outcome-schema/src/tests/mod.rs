//! The reading, on schemas and arguments of every shape: the messages
//! here, each keyword's words in `messages`, each keyword and format in
//! `keywords`, serde's refusals in `serde`, what a contract narrows and
//! the bounds a hostile schema meets in `contract`, any schema and
//! arguments in `properties`. The standard's own cases are in
//! `tests/suite.rs`.

use std::sync::Arc;

use serde_json::{Number, Value};

use crate::fault::Segment;
use crate::words::{PATH_LIMIT, Words, render, sent};
use crate::{Contract, JsonObject};
use outcome_rules::{MESSAGE_LIMIT, QUOTE_LIMIT};
use serde_json::json;

/// The message for `arguments` of `tool`, as the runtime asks for it:
/// serde's `reason`, if any, explained.
fn message(
    tool: &str,
    schema: &JsonObject,
    arguments: Option<&JsonObject>,
    reason: Option<&str>,
) -> String {
    Contract::new(Arc::new(schema.clone())).explain(tool, arguments, reason.unwrap_or_default())
}

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
            "limit": {
                "type": "integer", "format": "uint32", "minimum": 0, "maximum": 4294967295u64
            },
            "tag": { "type": ["string", "null"] },
            "mode": { "$ref": "#/$defs/Mode" }
        },
        "required": ["path", "limit"],
        "$defs": { "Mode": { "type": "string", "enum": ["draft", "final"] } }
    }))
}

/// The message for one argument `name` of `property`'s schema, sent as
/// `value`, with no reason from serde.
/// A contact: a name, and a phone or an email, nothing else.
fn contact(arguments: Value) -> String {
    let schema = object(json!({
        "type": "object",
        "properties": {
            "name": { "type": "string" },
            "phone": { "type": "string" },
            "email": { "type": "string" },
            "address": {
                "type": "object",
                "properties": { "street": { "type": "string" }, "box": { "type": "string" } },
                "anyOf": [{ "required": ["street"] }, { "required": ["box"] }]
            }
        },
        "required": ["name"],
        "allOf": [{ "anyOf": [{ "required": ["phone"] }, { "required": ["email"] }] }],
        "additionalProperties": false
    }));
    message("add_contact", &schema, Some(&object(arguments)), None)
}

#[test]
fn a_key_no_option_allows_is_named_before_the_options() {
    assert_eq!(
        contact(json!({ "name": "Ada", "extra": 1 })),
        "add_contact takes no argument 'extra'. Call add_contact again with only address, \
         email, name and phone."
    );
}

#[test]
fn an_object_that_needs_one_of_several_keys_names_them() {
    assert_eq!(
        contact(json!({ "name": "Ada" })),
        "The arguments of add_contact need one of phone or email, and none was sent. Call \
         add_contact again with one of them set."
    );
    assert_eq!(
        contact(json!({ "name": "Ada", "email": "ada@example.com", "address": {} })),
        "The argument address of add_contact needs one of address.street or address.box, \
         and none was sent. Call add_contact again with one of them set."
    );
    // Arguments that fit are no fault of the schema's.
    assert!(!contact(json!({ "name": "Ada", "phone": "1" })).contains("need"));
}

fn one(property: Value, value: Value) -> String {
    let schema = object(json!({
        "type": "object",
        "properties": { "arg": property },
        "required": ["arg"],
    }));
    message(
        "tool",
        &schema,
        Some(&object(json!({ "arg": value }))),
        None,
    )
}

/// Whether the schema check lets `value` through for `property`.
/// Whether `text` is what the schema, finding nothing wrong, leaves to
/// serde's verdict: the argument named, or none.
fn refused(text: &str) -> bool {
    text.contains("does not accept. Call") || text.contains("did not accept the values")
}

fn passes(property: Value, value: Value) -> bool {
    refused(&one(property, value))
}

#[test]
fn a_null_for_a_required_argument_is_told_as_null() {
    let args = object(json!({ "path": null, "limit": 3 }));
    let text = message("search", &schema(), Some(&args), None);
    assert!(
        text.starts_with("The argument path of search was null, but it must be a string."),
        "{text}"
    );
    assert!(!text.contains("missing"), "{text}");
}

#[test]
fn names_a_missing_argument_and_what_it_must_be() {
    let args = object(json!({ "limit": 3 }));
    assert_eq!(
        message("search", &schema(), Some(&args), None),
        "The argument path of search is missing, and it must be a string. \
         Call search again with path set."
    );
    assert!(message("search", &schema(), None, None).contains("argument path"));
}

#[test]
fn quotes_a_value_of_the_wrong_type() {
    let args = object(json!({ "path": "a", "limit": "ten" }));
    assert_eq!(
        message("search", &schema(), Some(&args), None),
        "The argument limit of search was 'ten', but it must be a whole number from 0 \
         to 4294967295. Call search again with limit as a whole number from 0 to 4294967295."
    );
    let args = object(json!({ "path": 42, "limit": 1 }));
    assert!(message("search", &schema(), Some(&args), None).contains("path of search was '42'"));
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
        message("publish", &schema, Some(&args), None).contains("must be one of 'draft', 'final'.")
    );
}

#[test]
fn unknown_arguments_of_a_closed_schema_are_named() {
    let mut closed = schema();
    closed.insert("additionalProperties".into(), json!(false));
    let args = object(json!({ "path": "a", "limit": 1, "lmit": 3 }));
    assert_eq!(
        message("search", &closed, Some(&args), None),
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
    assert!(message("search", &schema, Some(&args), None).starts_with(
        "The argument inner.limit of search was 'ten', but it must be a whole number."
    ));
    let args = object(json!({ "inner": {} }));
    assert!(
        message("search", &schema, Some(&args), None).contains("inner.limit of search is missing")
    );
}

#[test]
fn an_optional_object_is_still_checked_inside() {
    let schema = object(json!({
        "type": "object",
        "properties": { "inner": {
            "anyOf": [{ "$ref": "#/$defs/Inner" }, { "type": "null" }]
        } },
        "$defs": { "Inner": {
            "type": "object",
            "properties": { "limit": { "type": "integer" } },
            "required": ["limit"]
        } }
    }));
    let args = object(json!({ "inner": {} }));
    assert!(
        message("search", &schema, Some(&args), None).contains("inner.limit of search is missing")
    );
    let args = object(json!({ "inner": "x" }));
    assert!(
        message("search", &schema, Some(&args), None)
            .contains("was 'x', but it must be an object or null.")
    );
}

#[test]
fn follows_references_and_lists_enum_values() {
    let args = object(json!({ "path": "a", "limit": 1, "mode": "done" }));
    assert!(
        message("search", &schema(), Some(&args), None).contains("must be one of 'draft', 'final'")
    );
    let args = object(json!({ "path": "a", "limit": 1, "tag": null, "mode": "final" }));
    assert!(refused(&message("search", &schema(), Some(&args), None)));
}

#[test]
fn numbers_keep_their_bounds() {
    let uint32 = json!({ "type": "integer", "format": "uint32", "minimum": 0 });
    assert!(
        one(uint32, json!(5_000_000_000u64))
            .contains("must be a whole number from 0 to 4294967295")
    );
    let uint8 = json!({ "type": "integer", "format": "uint8", "minimum": 0, "maximum": 255 });
    assert!(
        one(uint8, json!(256)).contains("was '256', but it must be a whole number from 0 to 255")
    );
    let positive = || json!({ "type": "integer", "exclusiveMinimum": 0 });
    assert!(one(positive(), json!(0)).contains("must be a whole number of 1 or more"));
    assert!(passes(positive(), json!(1)));
    let fraction = || json!({ "type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1 });
    assert!(one(fraction(), json!(1)).contains("must be a number greater than 0 and less than 1"));
    assert!(passes(fraction(), json!(0.5)));
    // Draft 4 writes an exclusive bound as a flag beside it.
    let old_style = object(json!({
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "object",
        "properties": { "arg": { "type": "number", "minimum": 0, "exclusiveMinimum": true } },
    }));
    let args = object(json!({ "arg": 0 }));
    let text = message("tool", &old_style, Some(&args), None);
    assert!(text.contains("must be a number greater than 0"), "{text}");
    let whole = json!({ "type": "integer" });
    assert!(one(whole, json!(3.0)).contains("was '3.0', but it must be a whole number"));
    let big = json!({ "type": "number", "maximum": 1e300 });
    assert!(one(big, json!(1e301)).contains("a number of 1e300 or less"));
}

#[test]
fn list_lengths_and_items_are_checked() {
    let pair = json!({
        "type": "array",
        "prefixItems": [{ "type": "string" }, { "type": "integer" }],
        "minItems": 2,
        "maxItems": 2,
    });
    assert!(one(pair.clone(), json!(["a"])).contains("must be a list of exactly 2 items"));
    assert!(one(pair, json!(["a", "b"])).contains("The argument arg[1] of tool was 'b'"));
    let tags = json!({ "type": "array", "items": { "type": "string" }, "maxItems": 3 });
    assert!(
        one(tags.clone(), json!(["a", "b", "c", "d"]))
            .contains("must be a list of at most 3 items, each a string")
    );
    assert!(one(tags, json!("a")).contains("must be a list of at most 3 items, each a string"));
}

#[test]
fn a_megabyte_argument_name_is_quoted_and_cut() {
    let mut closed = schema();
    closed.insert("additionalProperties".into(), json!(false));
    let name = format!("evil\nname{}", "x".repeat(1 << 20));
    let mut args = object(json!({ "path": "a", "limit": 1 }));
    args.insert(name.clone(), json!(1));
    let text = message("search", &closed, Some(&args), None);
    assert!(
        text.starts_with(r"search takes no argument 'evil\nnamexxx"),
        "{text}"
    );
    assert!(text.contains("...'"));
    assert!(text.chars().count() <= MESSAGE_LIMIT);
    let reason = format!("unknown field `{name}`, expected `path`");
    let mut open_args = object(json!({ "path": "a", "limit": 1 }));
    open_args.insert(name, json!(1));
    let text = message("search", &schema(), Some(&open_args), Some(&reason));
    assert!(
        text.starts_with(r"search takes no argument 'evil\nnamexxx"),
        "{text}"
    );
    assert!(!text.contains(['\n', '\r']));
}

#[test]
fn keys_of_a_map_are_quoted_in_the_path() {
    let labels = json!({ "type": "object", "additionalProperties": { "type": "string" } });
    let text = one(labels, json!({ "ok": "x", "bad\nkey'": 3 }));
    assert!(
        text.starts_with(r"The argument arg['bad\nkey\''] of tool was '3'"),
        "{text}"
    );
}

#[test]
fn a_long_enum_lists_ten_values_and_counts_the_rest() {
    let values: Vec<String> = (0..50).map(|i| format!("v{i}")).collect();
    let text = one(json!({ "type": "string", "enum": values }), json!("nope"));
    assert!(
        text.contains(
            "must be one of 'v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9', \
             or one of 40 more. Call tool again with arg corrected."
        ),
        "{text}"
    );
    let variants: Vec<Value> = (0..50).map(|i| json!({ "const": i })).collect();
    let text = one(json!({ "oneOf": variants }), json!(-1));
    assert!(text.contains("'9', or one of 40 more."), "{text}");
    let shapes: Vec<Value> = (0..50)
        .map(|i| json!({ "type": "integer", "minimum": i, "maximum": i }))
        .collect();
    let text = one(json!({ "anyOf": shapes }), json!("x"));
    assert!(text.contains("or one of 40 more"), "{text}");
}

#[test]
fn cyclic_and_dangling_references_end() {
    let to_self = object(json!({ "$ref": "#" }));
    let args = object(json!({ "a": 1 }));
    assert!(refused(&message("t", &to_self, Some(&args), None)));
    let circle = object(json!({
        "type": "object",
        "properties": { "a": { "$ref": "#/$defs/A" } },
        "$defs": { "A": { "$ref": "#/$defs/B" }, "B": { "$ref": "#/$defs/A" } },
    }));
    assert!(refused(&message("t", &circle, Some(&args), None)));
    let branching = object(json!({
        "type": "object",
        "properties": { "a": { "$ref": "#/$defs/T" } },
        "$defs": { "T": { "anyOf": [
            { "$ref": "#/$defs/T" },
            { "$ref": "#/$defs/T" },
            { "type": "array", "items": { "$ref": "#/$defs/T" } }
        ] } },
    }));
    let args = object(json!({ "a": [[[["x"]]]] }));
    let text = message("t", &branching, Some(&args), None);
    assert!(!text.is_empty());
    let dangling = object(json!({
        "type": "object",
        "properties": { "a": { "$ref": "#/$defs/Gone" }, "b": { "$ref": "other.json" } },
        "required": ["a"],
    }));
    let args = object(json!({ "a": { "anything": [1] }, "b": null }));
    assert!(refused(&message("t", &dangling, Some(&args), None)));
    let args = object(json!({}));
    assert_eq!(
        message("t", &dangling, Some(&args), None),
        "The argument a of t is missing. Call t again with a set."
    );
}

#[test]
fn a_recursive_type_is_checked_to_a_bounded_depth() {
    let tree = object(json!({
        "type": "object",
        "properties": { "tree": { "$ref": "#/$defs/Node" } },
        "required": ["tree"],
        "$defs": { "Node": {
            "type": "object",
            "properties": {
                "name": { "type": "string" },
                "children": { "type": "array", "items": { "$ref": "#/$defs/Node" } }
            },
            "required": ["name"]
        } },
    }));
    let args = object(json!({ "tree": { "name": "root", "children": [
        { "name": "a", "children": [{ "name": "b" }, { "name": 7 }] }
    ] } }));
    assert!(
        message("t", &tree, Some(&args), None)
            .starts_with("The argument tree.children[0].children[1].name of t was '7'")
    );
    // Built by hand: `json!` would copy the value at every level.
    let mut deep = json!({ "name": 1 });
    let mut nested = json!(1);
    for _ in 0..1_000 {
        let node = [("name", json!("n")), ("children", Value::Array(vec![deep]))];
        deep = Value::Object(node.into_iter().map(|(k, v)| (k.to_owned(), v)).collect());
        nested = Value::Array(vec![nested]);
    }
    let args = JsonObject::from_iter([("tree".to_owned(), deep)]);
    // Past the walk's depth it says less, never serde's words.
    let text = message("t", &tree, Some(&args), Some("too deep"));
    assert!(
        text.starts_with("The argument tree of t was '{") && refused(&text),
        "{text}"
    );
    let args = JsonObject::from_iter([("tree".to_owned(), nested)]);
    let text = message("t", &tree, Some(&args), None);
    assert!(
        text.contains("was '[[[[[...]]]]]', but it must be an object"),
        "{text}"
    );
}

#[test]
fn unknown_keys_inside_an_object_name_their_place() {
    let schema = object(json!({
        "type": "object",
        "properties": { "inner": {
            "type": "object",
            "properties": { "limit": { "type": "integer" }, "mode": { "type": "string" } },
            "additionalProperties": false
        } },
    }));
    let args = object(json!({ "inner": { "limit": 1, "lmit": 2 } }));
    assert_eq!(
        message("search", &schema, Some(&args), None),
        "search takes no argument 'inner.lmit'. Call search again with only limit and mode \
         in inner."
    );
    let empty = object(json!({ "type": "object", "additionalProperties": false }));
    assert_eq!(
        message("ping", &empty, Some(&args), None),
        "ping takes no argument 'inner'. Call ping again with no arguments."
    );
}

#[test]
fn a_schema_that_branches_at_every_level_costs_a_bounded_time() {
    // Thirty ways to be a list of itself: each level of the value is
    // tried thirty times over, 30^12 checks without the step budget.
    let mut options = vec![json!({ "type": "array", "items": { "$ref": "#/$defs/T" } }); 30];
    options.push(json!({ "type": "integer" }));
    let schema = object(json!({
        "type": "object",
        "properties": { "a": { "$ref": "#/$defs/T" } },
        "$defs": { "T": { "anyOf": options } },
    }));
    let mut value = json!("leaf");
    for _ in 0..12 {
        value = Value::Array(vec![json!(1), value]);
    }
    let args = JsonObject::from_iter([("a".to_owned(), value)]);
    let started = std::time::Instant::now();
    let text = message("t", &schema, Some(&args), Some("no"));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(text.chars().count() <= MESSAGE_LIMIT, "{text}");
}

#[test]
fn long_paths_keep_their_end() {
    let path: Vec<Segment<'_>> = (0..100).map(Segment::Index).collect();
    let text = render(&path);
    assert!(text.starts_with("..."));
    assert!(text.ends_with("[98][99]"));
    assert!(text.chars().count() <= PATH_LIMIT + 3);
    let odd = render(&[
        Segment::Name("my field"),
        Segment::Name("ok"),
        Segment::Name(""),
    ]);
    assert_eq!(odd, "'my field'.ok['']");
}

mod contract;
mod keywords;
mod messages;
mod properties;
mod serde;
