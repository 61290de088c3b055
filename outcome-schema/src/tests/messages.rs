//! Each keyword a tool's schema can hold, refused in the model's terms:
//! the argument, the value it sent (quoted), what it must be, and the
//! step; each text exactly as the model reads it, and within the writing
//! rules.

use std::sync::Arc;

use outcome_rules::{Outcome, Tools, check_message};
use serde_json::{Value, json};

use super::object;
use crate::Contract;

/// The message for argument `x` of tool `t`, of schema `x`, sent as
/// `value`; the check's, when the schema narrows anything, and the same
/// as the explainer's.
fn told(x: Value, value: Value) -> String {
    let schema = object(json!({
        "type": "object",
        "properties": { "x": x },
        "required": ["x"],
    }));
    told_by(schema, json!({ "x": value }))
}

/// The message for `arguments` of tool `t` with input schema `schema`.
fn told_by(schema: crate::JsonObject, arguments: Value) -> String {
    let contract = Contract::new(Arc::new(schema));
    let arguments = object(arguments);
    let explained = contract.explain("t", Some(&arguments), "");
    if contract.narrows() {
        let checked = contract.check("t", Some(&arguments));
        assert_eq!(checked.as_ref(), Err(&explained));
    }
    explained
}

/// Asserts the text, and that it keeps the writing rules and says none
/// of the standard's words.
#[track_caller]
fn assert_told(text: String, expected: &str) {
    assert_eq!(text, expected);
    let tools = Tools::new().tool_with_parameters("t", ["x", "a", "b"]);
    let broken = check_message(Outcome::Invalid, &text, &tools);
    assert!(broken.is_empty(), "{broken:?}: {text}");
    let lower = text.to_lowercase();
    for jargon in ["schema", "json", "instance", "unevaluated", "$ref"] {
        assert!(!lower.contains(jargon), "{jargon}: {text}");
    }
}

#[test]
fn not_says_what_it_must_not_be() {
    assert_told(
        told(json!({ "not": { "type": "string" } }), json!("a")),
        "The argument x of t was 'a', but it must not be a string. Call t again with x \
         as anything but a string.",
    );
}

#[test]
fn not_of_values_lists_them() {
    assert_told(
        told(json!({ "not": { "enum": [1, 2] } }), json!(2)),
        "The argument x of t was '2', but it must not be one of '1', '2'. Call t again \
         with x as anything but one of '1', '2'.",
    );
}

#[test]
fn then_tells_what_the_condition_asks() {
    assert_told(
        told(
            json!({ "if": { "type": "string" }, "then": { "minLength": 3 } }),
            json!("a"),
        ),
        "The argument x of t was 'a', but it must be a string of at least 3 characters. \
         Call t again with x as a string of at least 3 characters.",
    );
}

#[test]
fn else_tells_what_the_condition_asks() {
    assert_told(
        told(
            json!({ "if": { "type": "string" }, "else": { "type": "integer", "minimum": 3 } }),
            json!(1),
        ),
        "The argument x of t was '1', but it must be a whole number of 3 or more. Call \
         t again with x as a whole number of 3 or more.",
    );
}

#[test]
fn one_of_that_fits_none_lists_the_options() {
    assert_told(
        told(
            json!({ "oneOf": [{ "type": "string", "minLength": 2 }, { "type": "integer" }] }),
            json!(true),
        ),
        "The argument x of t was 'true', but it must be a string of at least 2 \
         characters or a whole number. Call t again with x as a string of at least 2 \
         characters or a whole number.",
    );
}

#[test]
fn one_of_that_fits_two_says_so() {
    assert_told(
        told(
            json!({ "oneOf": [{ "type": "integer" }, { "type": "number", "minimum": 0 }] }),
            json!(1),
        ),
        "The argument x of t was '1', but it must be exactly one of a whole number or a \
         number of 0 or more, and it is more than one. Call t again with x corrected.",
    );
}

#[test]
fn one_of_looks_inside_the_option_meant() {
    assert_told(
        told(
            json!({ "oneOf": [{ "type": "string", "minLength": 2 }, { "type": "integer" }] }),
            json!("a"),
        ),
        "The argument x of t was 'a', but it must be a string of at least 2 characters. \
         Call t again with x as a string of at least 2 characters.",
    );
}

#[test]
fn any_of_looks_inside_the_option_meant() {
    assert_told(
        told(
            json!({ "anyOf": [{ "type": "string", "maxLength": 2 }, { "type": "integer", "minimum": 0 }] }),
            json!(-1),
        ),
        "The argument x of t was '-1', but it must be a whole number of 0 or more. Call \
         t again with x as a whole number of 0 or more.",
    );
}

#[test]
fn all_of_tells_the_part_that_fails() {
    assert_told(
        told(
            json!({ "allOf": [{ "type": "string" }, { "maxLength": 2 }] }),
            json!("abc"),
        ),
        "The argument x of t was 'abc', but it must be a string of at most 2 \
         characters. Call t again with x as a string of at most 2 characters.",
    );
}

#[test]
fn dependent_required_names_both() {
    assert_told(
        told(
            json!({ "type": "object", "dependentRequired": { "a": ["b"] } }),
            json!({ "a": 1 }),
        ),
        "The argument x.b of t is missing, and it must be set when x.a is. Call t again \
         with x.b set.",
    );
}

#[test]
fn dependent_schemas_tell_the_value_inside() {
    assert_told(
        told(
            json!({ "type": "object", "dependentSchemas": { "a": { "properties": { "b": { "type": "integer" } } } } }),
            json!({ "a": 1, "b": "x" }),
        ),
        "The argument x.b of t was 'x', but it must be a whole number. Call t again \
         with x.b as a whole number.",
    );
}

#[test]
fn dependent_schemas_false_names_the_key() {
    assert_told(
        told(
            json!({ "type": "object", "properties": { "a": {}, "b": {} }, "dependentSchemas": { "b": false } }),
            json!({ "a": 1, "b": 2 }),
        ),
        "t takes no argument 'x.b'. Call t again with only a in x.",
    );
}

#[test]
fn contains_says_what_an_item_must_be() {
    assert_told(
        told(
            json!({ "type": "array", "contains": { "type": "integer" } }),
            json!(["a"]),
        ),
        "The argument x of t was '[\"a\"]', but it must be a list, with at least 1 item \
         that is a whole number. Call t again with x as a list, with at least 1 item \
         that is a whole number.",
    );
}

#[test]
fn min_contains_counts_them() {
    assert_told(
        told(
            json!({ "type": "array", "contains": { "type": "integer" }, "minContains": 2 }),
            json!([1, "a"]),
        ),
        "The argument x of t was '[1,\"a\"]', but it must be a list, with at least 2 \
         items that are a whole number. Call t again with x as a list, with at least 2 \
         items that are a whole number.",
    );
}

#[test]
fn max_contains_counts_them() {
    assert_told(
        told(
            json!({ "type": "array", "contains": { "type": "integer" }, "maxContains": 1 }),
            json!([1, 2]),
        ),
        "The argument x of t was '[1,2]', but it must be a list, with exactly 1 item \
         that is a whole number. Call t again with x as a list, with exactly 1 item \
         that is a whole number.",
    );
}

#[test]
fn unevaluated_properties_false_names_the_key() {
    assert_told(
        told(
            json!({ "type": "object", "allOf": [{ "properties": { "a": {} } }], "unevaluatedProperties": false }),
            json!({ "a": 1, "b": 2 }),
        ),
        "t takes no argument 'x.b'. Call t again with only a in x.",
    );
}

#[test]
fn unevaluated_properties_schema_tells_the_value() {
    assert_told(
        told(
            json!({ "type": "object", "properties": { "a": {} }, "unevaluatedProperties": { "type": "string" } }),
            json!({ "a": 1, "b": 2 }),
        ),
        "The argument x.b of t was '2', but it must be a string. Call t again with x.b \
         as a string.",
    );
}

#[test]
fn unevaluated_items_false_counts_the_items() {
    assert_told(
        told(
            json!({ "type": "array", "prefixItems": [{ "type": "string" }], "unevaluatedItems": false }),
            json!(["a", 2]),
        ),
        "The argument x of t was '[\"a\",2]', but it must be a list of at most 1 item. \
         Call t again with x as a list of at most 1 item.",
    );
}

#[test]
fn items_false_names_the_item() {
    assert_told(
        told(
            json!({ "type": "array", "prefixItems": [{ "type": "string" }], "items": false }),
            json!(["a", 2]),
        ),
        "The argument x[1] of t was '2', but it must be left out. Call t again without \
         x[1].",
    );
}

#[test]
fn property_names_tell_the_key() {
    assert_told(
        told(
            json!({ "type": "object", "propertyNames": { "maxLength": 3 } }),
            json!({ "abcd": 1 }),
        ),
        "The argument x of t has the key 'abcd', but its keys must be a string of at \
         most 3 characters. Call t again without that key in x.",
    );
}

#[test]
fn property_names_pattern_tell_the_key() {
    assert_told(
        told(
            json!({ "type": "object", "propertyNames": { "pattern": "^[a-z]+$" } }),
            json!({ "A": 1 }),
        ),
        "The argument x of t has the key 'A', but its keys must be a string matching \
         the pattern '^[a-z]+$'. Call t again without that key in x.",
    );
}

#[test]
fn pattern_properties_tell_the_value() {
    assert_told(
        told(
            json!({ "type": "object", "patternProperties": { "^n_": { "type": "integer" } } }),
            json!({ "n_a": "x" }),
        ),
        "The argument x.n_a of t was 'x', but it must be a whole number. Call t again \
         with x.n_a as a whole number.",
    );
}

#[test]
fn additional_properties_false_names_the_key() {
    assert_told(
        told(
            json!({ "type": "object", "properties": { "a": {} }, "additionalProperties": false }),
            json!({ "a": 1, "c": 2 }),
        ),
        "t takes no argument 'x.c'. Call t again with only a in x.",
    );
}

#[test]
fn additional_properties_schema_tells_the_value() {
    assert_told(
        told(
            json!({ "type": "object", "additionalProperties": { "type": "integer" } }),
            json!({ "c": "x" }),
        ),
        "The argument x.c of t was 'x', but it must be a whole number. Call t again \
         with x.c as a whole number.",
    );
}

#[test]
fn const_says_the_value() {
    assert_told(
        told(json!({ "const": "on" }), json!("off")),
        "The argument x of t was 'off', but it must be 'on'. Call t again with x as \
         'on'.",
    );
}

#[test]
fn enum_lists_the_values() {
    assert_told(
        told(json!({ "enum": ["draft", "final"] }), json!("done")),
        "The argument x of t was 'done', but it must be one of 'draft', 'final'. Call t \
         again with x as one of 'draft', 'final'.",
    );
}

#[test]
fn multiple_of_says_the_step() {
    assert_told(
        told(json!({ "type": "number", "multipleOf": 0.5 }), json!(0.3)),
        "The argument x of t was '0.3', but it must be a number that is a multiple of \
         0.5. Call t again with x as a number that is a multiple of 0.5.",
    );
}

#[test]
fn format_gives_an_example() {
    assert_told(
        told(
            json!({ "type": "string", "format": "date" }),
            json!("May 1"),
        ),
        "The argument x of t was 'May 1', but it must be a date in the form YYYY-MM-DD. \
         Call t again with x as a date in the form YYYY-MM-DD.",
    );
}

#[test]
fn unique_items_says_no_item_twice() {
    assert_told(
        told(
            json!({ "type": "array", "uniqueItems": true }),
            json!([1, 1]),
        ),
        "The argument x of t was '[1,1]', but it must be a list, with no item twice. \
         Call t again with x as a list, with no item twice.",
    );
}

#[test]
fn min_items_counts() {
    assert_told(
        told(json!({ "type": "array", "minItems": 2 }), json!([1])),
        "The argument x of t was '[1]', but it must be a list of at least 2 items. Call \
         t again with x as a list of at least 2 items.",
    );
}

#[test]
fn max_items_counts() {
    assert_told(
        told(json!({ "type": "array", "maxItems": 1 }), json!([1, 2])),
        "The argument x of t was '[1,2]', but it must be a list of at most 1 item. Call \
         t again with x as a list of at most 1 item.",
    );
}

#[test]
fn min_properties_counts() {
    assert_told(
        told(json!({ "type": "object", "minProperties": 1 }), json!({})),
        "The argument x of t was '{}', but it must be an object of at least 1 key. Call \
         t again with x as an object of at least 1 key.",
    );
}

#[test]
fn max_properties_counts() {
    assert_told(
        told(
            json!({ "type": "object", "maxProperties": 1 }),
            json!({ "a": 1, "b": 2 }),
        ),
        "The argument x of t was '{\"a\":1,\"b\":2}', but it must be an object of at \
         most 1 key. Call t again with x as an object of at most 1 key.",
    );
}

#[test]
fn min_length_counts_characters() {
    assert_told(
        told(json!({ "type": "string", "minLength": 2 }), json!("a")),
        "The argument x of t was 'a', but it must be a string of at least 2 characters. \
         Call t again with x as a string of at least 2 characters.",
    );
}

#[test]
fn max_length_counts_characters() {
    assert_told(
        told(json!({ "type": "string", "maxLength": 2 }), json!("abc")),
        "The argument x of t was 'abc', but it must be a string of at most 2 \
         characters. Call t again with x as a string of at most 2 characters.",
    );
}

#[test]
fn pattern_quotes_the_pattern() {
    assert_told(
        told(
            json!({ "type": "string", "pattern": "^[a-z]+$" }),
            json!("A1"),
        ),
        "The argument x of t was 'A1', but it must be a string matching the pattern \
         '^[a-z]+$'. Call t again with x as a string matching the pattern '^[a-z]+$'.",
    );
}

#[test]
fn minimum_gives_the_bound() {
    assert_told(
        told(json!({ "type": "integer", "minimum": 1 }), json!(0)),
        "The argument x of t was '0', but it must be a whole number of 1 or more. Call \
         t again with x as a whole number of 1 or more.",
    );
}

#[test]
fn maximum_gives_the_bound() {
    assert_told(
        told(json!({ "type": "number", "maximum": 1.5 }), json!(2)),
        "The argument x of t was '2', but it must be a number of 1.5 or less. Call t \
         again with x as a number of 1.5 or less.",
    );
}

#[test]
fn exclusive_minimum_gives_the_bound() {
    assert_told(
        told(json!({ "type": "number", "exclusiveMinimum": 0 }), json!(0)),
        "The argument x of t was '0', but it must be a number greater than 0. Call t \
         again with x as a number greater than 0.",
    );
}

#[test]
fn exclusive_maximum_is_whole_for_a_whole_number() {
    assert_told(
        told(
            json!({ "type": "integer", "exclusiveMaximum": 10 }),
            json!(10),
        ),
        "The argument x of t was '10', but it must be a whole number of 9 or less. Call \
         t again with x as a whole number of 9 or less.",
    );
}

#[test]
fn type_says_the_kind() {
    assert_told(
        told(json!({ "type": "boolean" }), json!("yes")),
        "The argument x of t was 'yes', but it must be true or false. Call t again with \
         x as true or false.",
    );
}

#[test]
fn required_names_the_missing_argument() {
    let schema = object(json!({
        "type": "object",
        "properties": { "a": { "type": "string" } },
        "required": ["a"],
    }));
    assert_told(
        told_by(schema, json!({})),
        "The argument a of t is missing, and it must be a string. Call t again with a \
         set.",
    );
}
