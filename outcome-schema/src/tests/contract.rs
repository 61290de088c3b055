//! What a contract narrows, and the bounds a hostile schema meets.

use std::sync::Arc;

use serde_json::{Value, json};

use super::object;
use crate::{Contract, JsonObject};

#[test]
fn what_narrows_is_told_apart_from_what_serde_enforces() {
    let narrows = |schema: Value| Contract::new(Arc::new(object(schema))).narrows();
    // What serde enforces for a typed parameter: types, required
    // properties, and the bounds an integer format implies.
    assert!(!narrows(json!({
        "type": "object",
        "properties": {
            "city": { "type": "string" },
            "days": { "type": "integer", "format": "uint8", "minimum": 0 },
            "limit": { "type": ["integer", "null"], "format": "uint32", "minimum": 0 },
            "offset": { "type": "integer", "format": "int64" },
            "inner": { "$ref": "#/$defs/Inner" }
        },
        "required": ["city"],
        "$defs": { "Inner": { "type": "object", "properties": { "x": { "type": "number" } } } }
    })));
    for narrowing in [
        json!({ "type": "integer", "format": "uint8", "minimum": 1 }),
        json!({ "type": "integer", "format": "uint8", "maximum": 7 }),
        json!({ "type": "integer", "exclusiveMinimum": 0 }),
        json!({ "type": "number", "multipleOf": 0.5 }),
        json!({ "type": "string", "minLength": 1 }),
        json!({ "type": "string", "maxLength": 40 }),
        json!({ "type": "string", "pattern": "^a" }),
        json!({ "type": "string", "format": "email" }),
        json!({ "type": "array", "minItems": 1 }),
        json!({ "type": "array", "uniqueItems": true }),
        json!({ "enum": ["a", "b"] }),
        json!({ "const": 1 }),
        json!({ "type": "object", "additionalProperties": false }),
        json!({ "type": "object", "maxProperties": 3 }),
        json!(false),
    ] {
        let schema = json!({
            "type": "object",
            "properties": { "wrapped": { "type": "object", "properties": { "arg": narrowing } } },
        });
        assert!(narrows(schema.clone()), "{schema}");
        // Reached through $defs as well.
        let schema = json!({
            "type": "object",
            "properties": { "arg": { "$ref": "#/$defs/A" } },
            "$defs": { "A": narrowing },
        });
        assert!(narrows(schema.clone()), "{schema}");
    }
    // A property named as a keyword is a name, not the keyword.
    assert!(!narrows(json!({
        "type": "object",
        "properties": { "pattern": { "type": "string" }, "enum": { "type": "string" } }
    })));
}

#[test]
fn a_contract_that_narrows_nothing_accepts_without_looking() {
    let contract = Contract::new(Arc::new(object(json!({
        "type": "object",
        "properties": { "n": { "type": "integer" } },
        "required": ["n"]
    }))));
    // serde's to refuse, and then explained in the same words.
    assert_eq!(
        contract.check("tool", Some(&object(json!({ "n": "x" })))),
        Ok(())
    );
    assert!(!contract.fits(&object(json!({ "n": "x" }))));
}

/// A value nested `levels` deep, built without recursion, and a way to
/// take it apart without recursion: serde_json drops a value by
/// recursion, as deep as it nests.
fn nested(levels: usize, level: impl Fn(Value) -> JsonObject, leaf: Value) -> JsonObject {
    let mut value = leaf;
    for _ in 0..levels {
        value = Value::Object(level(value));
    }
    match value {
        Value::Object(root) => root,
        _ => level(value),
    }
}

fn take_apart(root: JsonObject) {
    let mut pending = vec![Value::Object(root)];
    while let Some(value) = pending.pop() {
        match value {
            Value::Object(map) => pending.extend(map.into_iter().map(|(_, v)| v)),
            Value::Array(items) => pending.extend(items),
            _ => {}
        }
    }
}

/// One level of an object schema: a required property `a`.
fn level(inner: Value) -> JsonObject {
    let mut properties = JsonObject::new();
    properties.insert("a".to_owned(), inner);
    let mut rules = JsonObject::new();
    rules.insert("type".to_owned(), json!("object"));
    rules.insert("properties".to_owned(), Value::Object(properties));
    rules.insert("required".to_owned(), json!(["a"]));
    rules
}

/// One level of arguments: `{"a": inner}`.
fn argument_level(inner: Value) -> JsonObject {
    JsonObject::from_iter([("a".to_owned(), inner)])
}

fn contract_of(schema: JsonObject) -> Contract {
    Contract::new(Arc::new(schema))
}

fn within(seconds: u64, started: std::time::Instant) {
    let elapsed = started.elapsed();
    assert!(
        elapsed < std::time::Duration::from_secs(seconds),
        "{elapsed:?}"
    );
}

#[test]
fn a_schema_ten_thousand_levels_deep_is_not_checked() {
    let deep = nested(10_000, level, json!({ "type": "string", "minLength": 2 }));
    let contract = contract_of(deep);
    // Past the validator's depth, the schema is not checked: every call
    // is accepted, and the check is not installed.
    assert!(!contract.narrows());
    let arguments = nested(100, argument_level, json!("x"));
    assert_eq!(contract.check("tool", Some(&arguments)), Ok(()));
    assert!(contract.fits(&arguments));
    assert!(!contract.explain("tool", Some(&arguments), "").is_empty());
    let schema = Arc::clone(contract.schema());
    drop(contract);
    let Ok(root) = Arc::try_unwrap(schema) else {
        unreachable!("the contract was the only other owner")
    };
    take_apart(root);
    take_apart(arguments);
}

#[test]
fn a_schema_at_the_depth_limit_is_checked_on_a_test_threads_stack() {
    // Each level is three levels of the document: the schema, its
    // `properties`, the property.
    let levels = crate::NESTING_LIMIT / 2 - 1;
    let deep = nested(levels, level, json!({ "type": "string", "minLength": 2 }));
    let contract = contract_of(deep);
    assert!(contract.narrows());
    let arguments = nested(levels, argument_level, json!("x"));
    assert!(!contract.fits(&arguments));
    let text = contract.check("tool", Some(&arguments)).unwrap_err();
    assert!(
        text.contains("must be a string of at least 2 characters"),
        "{text}"
    );
}

#[test]
fn a_chain_of_ten_thousand_references_is_not_checked() {
    let mut defs = JsonObject::new();
    for i in 0..10_000 {
        let next = format!("#/$defs/A{}", i + 1);
        defs.insert(format!("A{i}"), json!({ "$ref": next, "minLength": 1 }));
    }
    defs.insert("A10000".to_owned(), json!({ "type": "string" }));
    let contract = contract_of(object(json!({
        "type": "object",
        "properties": { "a": { "$ref": "#/$defs/A0" } },
        "$defs": defs,
    })));
    assert!(!contract.narrows());
    assert!(contract.fits(&object(json!({ "a": "" }))));
}

#[test]
fn a_schema_that_refers_to_itself_with_no_way_out_ends() {
    for schema in [
        json!({ "$ref": "#" }),
        json!({
            "$ref": "#",
            "properties": { "a": { "$ref": "#" } },
            "items": { "$ref": "#/items" },
            "anyOf": [{ "$ref": "#" }, { "minLength": 3 }],
            "allOf": [{ "$ref": "#/allOf/0" }]
        }),
        json!({
            "type": "object",
            "properties": { "a": { "$ref": "#/$defs/A" } },
            "$defs": { "A": { "$ref": "#/$defs/B" }, "B": { "$ref": "#/$defs/A" } },
        }),
    ] {
        let contract = contract_of(object(schema));
        let arguments = object(json!({ "a": { "a": "xy" } }));
        let _ = contract.check("tool", Some(&arguments));
        let _ = contract.fits(&arguments);
        let _ = contract.explain("tool", Some(&arguments), "");
    }
}

#[test]
fn a_schema_whose_parts_each_apply_the_next_twice_is_not_checked() {
    // 2^40 paths to the last: checked in full, any call would take hours.
    let mut defs = JsonObject::new();
    for i in 0..40 {
        let next = format!("#/$defs/A{}", i + 1);
        defs.insert(
            format!("A{i}"),
            json!({ "allOf": [{ "$ref": next }, { "$ref": next, "maxLength": 1000 + i }] }),
        );
    }
    defs.insert(
        "A40".to_owned(),
        json!({ "type": "string", "minLength": 3 }),
    );
    let started = std::time::Instant::now();
    let contract = contract_of(object(json!({
        "type": "object",
        "properties": { "a": { "$ref": "#/$defs/A0" } },
        "$defs": defs,
    })));
    assert!(!contract.narrows());
    assert!(contract.fits(&object(json!({ "a": "x" }))));
    within(10, started);
}

#[test]
fn a_pattern_built_to_backtrack_is_matched_in_linear_time() {
    let contract = contract_of(object(json!({
        "type": "object",
        "properties": { "w": { "type": "string", "pattern": "^(a+)+$" } },
    })));
    let started = std::time::Instant::now();
    let arguments = object(json!({ "w": "a".repeat(100_000) + "!" }));
    let text = contract.check("tool", Some(&arguments)).unwrap_err();
    assert!(
        text.starts_with("The argument w of tool was 'aaaa"),
        "{text}"
    );
    within(10, started);
}

#[test]
fn a_hundred_thousand_properties_are_read_and_checked() {
    let many: JsonObject = (0..100_000)
        .map(|i| {
            let pattern = format!("^{i}$");
            (
                format!("p{i}"),
                json!({ "type": "string", "pattern": pattern }),
            )
        })
        .collect();
    let started = std::time::Instant::now();
    let contract = contract_of(object(json!({ "type": "object", "properties": many })));
    assert!(contract.narrows());
    let arguments = object(json!({ "p1": "1", "p99999": "x" }));
    let text = contract.check("tool", Some(&arguments)).unwrap_err();
    assert!(
        text.starts_with("The argument p99999 of tool was 'x'"),
        "{text}"
    );
    within(60, started);
}

#[test]
fn a_one_megabyte_enum_is_read_and_told_in_ten_values() {
    let values: Vec<Value> = (0..80_000)
        .map(|i| json!(format!("value-{i:06}")))
        .collect();
    let schema = json!({ "type": "object", "properties": { "a": { "enum": values } } });
    assert!(schema.to_string().len() > 1 << 20);
    let started = std::time::Instant::now();
    let contract = contract_of(object(schema));
    let text = contract
        .check("tool", Some(&object(json!({ "a": "nope" }))))
        .unwrap_err();
    assert!(text.contains("or one of 79990 more"), "{text}");
    assert!(contract.fits(&object(json!({ "a": "value-079999" }))));
    within(30, started);
}

#[test]
fn arguments_nested_past_the_limit_are_accepted_not_overflowed() {
    let contract = contract_of(object(json!({
        "type": "object",
        "properties": { "a": { "enum": [1, 2] }, "t": { "$ref": "#/$defs/T" } },
        "$defs": { "T": { "type": "array", "items": { "$ref": "#/$defs/T" }, "uniqueItems": true } },
    })));
    let deep = nested(100_000, argument_level, json!(1));
    let arguments = JsonObject::from_iter([("a".to_owned(), Value::Object(deep))]);
    assert!(contract.fits(&arguments));
    assert_eq!(contract.check("tool", Some(&arguments)), Ok(()));
    let _ = contract.explain("tool", Some(&arguments), "");
    take_apart(arguments);
}

#[test]
fn a_recursive_schema_is_checked_as_deep_as_the_stack_allows() {
    // A list of lists: two schemas a level, so arguments are checked to
    // the nesting limit.
    let lists = contract_of(object(json!({
        "type": "object",
        "properties": { "a": { "$ref": "#/$defs/T" } },
        "$defs": { "T": { "type": "array", "maxItems": 1, "items": { "$ref": "#/$defs/T" } } },
    })));
    let mut value = json!([1, 2]);
    for _ in 0..crate::NESTING_LIMIT - 3 {
        value = Value::Array(vec![value]);
    }
    let arguments = JsonObject::from_iter([("a".to_owned(), value)]);
    assert!(!lists.fits(&arguments));
    let text = lists.check("tool", Some(&arguments)).unwrap_err();
    assert!(text.contains("must be a list of at most 1 item"), "{text}");
    // Sixty schemas a level, one inside the next: as many levels as the
    // stack budget holds of them, and no more.
    let mut wrapped = json!({ "type": "array", "items": { "$ref": "#/$defs/T" } });
    for _ in 0..60 {
        wrapped = json!({ "allOf": [wrapped], "maxItems": 1 });
    }
    let wrapped = contract_of(object(json!({
        "type": "object",
        "properties": { "a": { "$ref": "#/$defs/T" } },
        "$defs": { "T": wrapped },
    })));
    for levels in [1, 4, 8, 16, 100] {
        let mut value = json!([]);
        for _ in 0..levels {
            value = Value::Array(vec![value]);
        }
        let arguments = JsonObject::from_iter([("a".to_owned(), value)]);
        assert!(wrapped.fits(&arguments), "{levels}");
        assert_eq!(wrapped.check("tool", Some(&arguments)), Ok(()));
    }
}

#[test]
fn temp_expr() {
    let schema = object(
        json!({"$defs":{"Expr":{"anyOf":[{"format":"double","type":"number"},{"$ref":"#/$defs/Expr"}]}},"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"expr":{"$ref":"#/$defs/Expr","description":"The expression."}},"required":["expr"],"type":"object"}),
    );
    let contract = contract_of(schema);
    println!("narrows {}", contract.narrows());
    let args = object(json!({ "expr": "x" }));
    println!("fits {}", contract.fits(&args));
    println!("{}", contract.explain("c", Some(&args), ""));
}

#[test]
fn a_result_is_verified_against_its_output_schema_for_the_operator() {
    let output = contract_of(object(json!({
        "type": "object",
        "properties": {
            "name": { "type": "string", "pattern": "^[a-z]+$" },
            "count": { "type": "integer", "format": "uint32", "minimum": 0 }
        },
        "required": ["name", "count"]
    })));
    // A pattern is more than the type guarantees.
    assert!(output.narrows());
    assert_eq!(output.verify(&json!({ "name": "box", "count": 2 })), Ok(()));
    assert_eq!(
        output.verify(&json!({ "name": "Box", "count": 2 })),
        Err("at /name: \"Box\" does not match \"^[a-z]+$\"".to_owned())
    );
    let reason = output.verify(&json!({ "count": 2 })).unwrap_err();
    assert_eq!(reason, "at the root: \"name\" is a required property");
    // A megabyte in the value is cut to one line of the log.
    let long = "X".repeat(1 << 20);
    let reason = output
        .verify(&json!({ "name": long, "count": 2 }))
        .unwrap_err();
    assert!(reason.starts_with("at /name: \"XXX"), "{reason}");
    assert!(reason.chars().count() <= outcome_rules::MESSAGE_LIMIT);
    // Types and required properties alone are what the type guarantees.
    let plain = contract_of(object(json!({
        "type": "object",
        "properties": { "name": { "type": "string" } },
        "required": ["name"]
    })));
    assert!(!plain.narrows());
    assert!(plain.verify(&json!({ "name": 1 })).is_err());
}
