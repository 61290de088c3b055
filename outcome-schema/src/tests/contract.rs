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

#[test]
fn hostile_schemas_end_without_a_panic() {
    // Ten thousand levels of nesting, built and taken apart without
    // recursion.
    let level = |inner: Value| {
        let mut properties = JsonObject::new();
        properties.insert("a".to_owned(), inner);
        let mut rules = JsonObject::new();
        rules.insert("type".to_owned(), json!("object"));
        rules.insert("properties".to_owned(), Value::Object(properties));
        rules.insert("required".to_owned(), json!(["a"]));
        rules
    };
    let mut deep = json!({ "type": "string", "minLength": 2 });
    for _ in 0..10_000 {
        deep = Value::Object(level(deep));
    }
    let Value::Object(root) = deep else {
        unreachable!()
    };
    let contract = Contract::new(Arc::new(root));
    assert!(contract.narrows());
    let mut arguments = json!("x");
    for _ in 0..100 {
        arguments = Value::Object([("a".to_owned(), arguments)].into_iter().collect());
    }
    let Value::Object(arguments) = arguments else {
        unreachable!()
    };
    // Past the walk's depth, the call is accepted rather than blamed.
    assert_eq!(contract.check("tool", Some(&arguments)), Ok(()));
    let schema = Arc::clone(contract.schema());
    drop(contract);
    let Ok(root) = Arc::try_unwrap(schema) else {
        unreachable!("the contract was the only other owner")
    };
    let mut next = Some(Value::Object(root));
    while let Some(Value::Object(mut rules)) = next.take() {
        next = rules
            .get_mut("properties")
            .and_then(|p| p.as_object_mut())
            .and_then(|p| p.remove("a"));
    }
    // A reference to itself, in every place a schema can be.
    let cyclic = object(json!({
        "$ref": "#",
        "properties": { "a": { "$ref": "#" } },
        "items": { "$ref": "#/items" },
        "anyOf": [{ "$ref": "#" }, { "minLength": 3 }],
        "allOf": [{ "$ref": "#/allOf/0" }]
    }));
    let contract = Contract::new(Arc::new(cyclic));
    let _ = contract.check("tool", Some(&object(json!({ "a": { "a": "xy" } }))));
    // Thousands of distinct patterns: the first thousand compiled, once.
    let many: JsonObject = (0..5_000)
        .map(|i| {
            (
                format!("p{i}"),
                json!({ "type": "string", "pattern": format!("^{i}$") }),
            )
        })
        .collect();
    let contract = Contract::new(Arc::new(object(
        json!({ "type": "object", "properties": many }),
    )));
    assert!(contract.narrows());
    let _ = contract.check("tool", Some(&object(json!({ "p1": "1", "p4999": "x" }))));
}
