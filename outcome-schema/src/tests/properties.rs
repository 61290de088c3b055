//! Any schema and any arguments give one bounded line.

use super::*;
use proptest::prelude::*;
use serde_json::json;

const NAMES: &[&str] = &["a", "b", "path", "limit", "x y", "line\nbreak", ""];
const REFERENCES: &[&str] = &[
    "#",
    "#/$defs/A",
    "#/$defs/B",
    "#/$defs/A/properties/a",
    "#/$defs/A/anyOf/0",
    "#/$defs/%41",
    "#/$defs/Gone",
    "#/properties/a",
    "#/definitions/A",
    "other.json#/x",
    "#/",
    "",
];
const FORMATS: &[&str] = &[
    "ip",
    "ipv4",
    "ipv6",
    "date",
    "date-time",
    "partial-date-time",
    "time",
    "partial-time",
    "uuid",
    "uri",
    "uint8",
    "int32",
    "uint32",
    "email",
];
const TYPES: &[&str] = &[
    "object", "array", "string", "integer", "number", "boolean", "null", "any",
];
const REASONS: &[&str] = &[
    "missing field `a`",
    "missing field `path`",
    "unknown field `a`, expected `b`",
    "unknown field `line\nbreak`",
    "invalid type: map, expected u32 at line 1 column 2",
    "invalid value: string \"x\", expected struct Point",
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        prop::sample::select(NAMES).prop_map(str::to_owned),
        // The characters of dates, addresses and UUIDs, so that
        // formats are sometimes met.
        prop::collection::vec(prop::sample::select(&b"0123456789abcdefT:.-+ Z"[..]), 0..40)
            .prop_map(|bytes| bytes.into_iter().map(char::from).collect()),
        Just("\u{202e}\r\n\t'\\`".to_owned()),
    ]
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (0u64..6).prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
    ]
}

/// Values inside a schema (`const`, `enum`) are the server's and
/// small; a shallower tree keeps the schemas quick to generate.
fn small_json() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => leaf(),
        1 => prop::collection::vec(leaf(), 0..3).prop_map(Value::Array),
        1 => prop::collection::vec((text(), leaf()), 0..3)
            .prop_map(|entries| Value::Object(entries.into_iter().collect())),
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        text().prop_map(Value::String),
    ]
}

fn json() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((text(), inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

fn name() -> impl Strategy<Value = String> {
    prop::sample::select(NAMES).prop_map(str::to_owned)
}

fn keyword(inner: BoxedStrategy<Value>) -> impl Strategy<Value = (String, Value)> {
    let pair = |key: &'static str| move |value: Value| (key.to_owned(), value);
    let count = || prop_oneof![number(), small_json()];
    prop_oneof![
        prop::sample::select(TYPES)
            .prop_map(|t| json!(t))
            .prop_map(pair("type")),
        prop::collection::vec(prop::sample::select(TYPES), 0..3)
            .prop_map(|t| json!(t))
            .prop_map(pair("type")),
        prop::collection::vec((name(), inner.clone()), 0..4)
            .prop_map(|p| Value::Object(p.into_iter().collect()))
            .prop_map(pair("properties")),
        prop::collection::vec(
            prop_oneof![name().prop_map(Value::String), small_json()],
            0..4
        )
        .prop_map(Value::Array)
        .prop_map(pair("required")),
        inner.clone().prop_map(pair("items")),
        prop::collection::vec(inner.clone(), 0..4)
            .prop_map(Value::Array)
            .prop_map(pair("anyOf")),
        prop::collection::vec(inner.clone(), 0..4)
            .prop_map(Value::Array)
            .prop_map(pair("oneOf")),
        prop_oneof![
            prop::collection::vec(small_json(), 0..4),
            prop::collection::vec(number(), 0..60),
        ]
        .prop_map(Value::Array)
        .prop_map(pair("enum")),
        small_json().prop_map(pair("const")),
        prop::sample::select(REFERENCES)
            .prop_map(|r| json!(r))
            .prop_map(pair("$ref")),
        prop::sample::select(FORMATS)
            .prop_map(|f| json!(f))
            .prop_map(pair("format")),
        count().prop_map(pair("minLength")),
        count().prop_map(pair("maxLength")),
        count().prop_map(pair("minimum")),
        count().prop_map(pair("maximum")),
        count().prop_map(pair("exclusiveMinimum")),
        count().prop_map(pair("exclusiveMaximum")),
        count().prop_map(pair("minItems")),
        count().prop_map(pair("maxItems")),
        prop_oneof![any::<bool>().prop_map(Value::Bool), inner]
            .prop_map(pair("additionalProperties")),
    ]
}

fn schema() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(json!(true)),
        Just(json!(false)),
        Just(json!({})),
        prop::sample::select(TYPES).prop_map(|t| json!({ "type": t })),
        prop::sample::select(REFERENCES).prop_map(|r| json!({ "$ref": r })),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop::collection::vec(keyword(inner), 0..5)
            .prop_map(|pairs| Value::Object(pairs.into_iter().collect()))
    })
}

/// A root schema: an object with definitions to refer to.
fn root() -> impl Strategy<Value = JsonObject> {
    (schema(), schema(), schema()).prop_map(|(root, a, b)| {
        let mut root = match root {
            Value::Object(root) => root,
            other => JsonObject::from_iter([("anyOf".to_owned(), json!([other]))]),
        };
        root.insert("$defs".to_owned(), json!({ "A": a, "B": b }));
        root
    })
}

fn arguments() -> impl Strategy<Value = Option<JsonObject>> {
    let object = prop_oneof![
        json().prop_filter_map("an object", |v| match v {
            Value::Object(object) => Some(object),
            _ => None,
        }),
        prop::collection::vec((name(), json()), 0..5)
            .prop_map(|entries| entries.into_iter().collect()),
    ];
    prop::option::weighted(0.9, object)
}

fn reason() -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop_oneof![
        text(),
        prop::sample::select(REASONS).prop_map(str::to_owned),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_schema_and_arguments_give_one_bounded_line(
        tool in prop::sample::select(&["search", "t", "odd\ntool"][..]),
        schema in root(),
        arguments in arguments(),
        reason in reason(),
    ) {
        let text = message(tool, &schema, arguments.as_ref(), reason.as_deref());
        prop_assert!(!text.contains(['\n', '\r']), "{}", text);
        prop_assert!(text.chars().count() <= MESSAGE_LIMIT, "{}", text);
        prop_assert!(!text.is_empty());
    }

    #[test]
    fn a_described_value_fits_no_unescaped_line_break(
        schema in schema(),
        value in json(),
    ) {
        let root = match &schema {
            Value::Object(root) => root.clone(),
            _ => JsonObject::new(),
        };
        let words = Words::new(&root);
        let described = words.what(words.schema(&schema));
        prop_assert!(!described.contains(['\n', '\r']), "{}", described);
        prop_assert!(!sent(&value).contains(['\n', '\r']));
        prop_assert!(sent(&value).chars().count() <= QUOTE_LIMIT + 5);
    }
}
