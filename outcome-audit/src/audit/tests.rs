//! The plan, the templates and the report, on schemas and texts of every
//! shape.

use super::report::template;
use super::*;

fn tool(schema: Value) -> Tool {
    let Value::Object(schema) = schema else {
        unreachable!()
    };
    Tool::new("t", "A tool.", std::sync::Arc::new(schema))
}

#[test]
fn a_schema_gives_one_probe_per_mistake() {
    let tool = tool(serde_json::json!({
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "limit": {"type": "integer", "format": "uint32", "minimum": 0, "maximum": 50},
            "sort": {"$ref": "#/$defs/Sort"},
            "tag": {"type": ["string", "null"], "maxLength": 3}
        },
        "required": ["path", "sort"],
        "additionalProperties": false,
        "$defs": {"Sort": {"type": "string", "enum": ["new", "old"]}}
    }));
    let plan = plan(&tool, None).unwrap();
    assert_eq!(plan.not_probed, []);
    let probes = &plan.probes;
    let seen: Vec<(String, Mistake)> = probes
        .iter()
        .map(|p| (p.argument.clone(), p.mistake.clone()))
        .collect();
    for expected in [
        ("path", Mistake::Missing),
        ("path", Mistake::Null),
        ("path", Mistake::WrongType),
        ("limit", Mistake::WrongType),
        ("limit", Mistake::BelowMinimum),
        ("limit", Mistake::AboveMaximum),
        ("sort", Mistake::Missing),
        ("sort", Mistake::NotInEnum),
        ("tag", Mistake::WrongType),
        ("tag", Mistake::TooLong),
        (UNKNOWN_KEY, Mistake::UnknownKey),
    ] {
        assert!(
            seen.contains(&(expected.0.to_owned(), expected.1.clone())),
            "{expected:?} not in {seen:?}"
        );
    }
    let below = probes
        .iter()
        .find(|p| p.mistake == Mistake::BelowMinimum)
        .unwrap();
    let arguments = below.arguments(&plan.baseline);
    assert_eq!(arguments["limit"], Value::from(-1));
    assert_eq!(arguments["sort"], Value::from("new"));
    assert!(!seen.contains(&("tag".to_owned(), Mistake::Null)));
}

/// A pattern, a format and an exclusive bound are broken each on its own:
/// the string keeps to the lengths, the number is the bound itself.
#[test]
fn patterns_formats_and_exclusive_bounds_are_broken_alone() {
    let plan = plan_of(serde_json::json!({
        "properties": {
            "slug": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 20},
            "code": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 3},
            "day": {"type": "string", "format": "date"},
            "any": {"type": "string", "pattern": ".*"},
            "fare": {"type": "number", "exclusiveMinimum": 0},
            "count": {"type": "integer", "exclusiveMaximum": 9.5}
        }
    }));
    let sent = |argument: &str, mistake: Mistake| {
        plan.probes
            .iter()
            .find(|p| p.argument == argument && p.mistake == mistake)
            .and_then(|p| p.sent.clone())
    };
    assert_eq!(
        sent("slug", Mistake::NotPattern),
        Some(Value::from("no such value!"))
    );
    assert_eq!(sent("code", Mistake::NotPattern), Some(Value::from("!")));
    assert_eq!(
        sent("day", Mistake::NotFormat),
        Some(Value::from("no such value!"))
    );
    assert_eq!(sent("any", Mistake::NotPattern), None);
    assert_eq!(
        sent("fare", Mistake::AtExclusiveMinimum),
        Some(Value::from(0.0))
    );
    assert_eq!(
        sent("count", Mistake::AtExclusiveMaximum),
        Some(Value::from(10))
    );
    assert_eq!(plan.not_probed, []);
}

#[test]
fn an_argument_that_asks_for_a_number_of_something() {
    for name in ["id", "issue_number", "userId", "page-index", "pageNo"] {
        assert!(names_a_number(name), "{name}");
    }
    for name in ["valid", "idle", "limit", "notion", "number_of_days_x"] {
        assert!(!names_a_number(name), "{name}");
    }
}

#[test]
fn words_and_quotes_are_found() {
    assert!(contains_word("The argument limit of x", "limit"));
    assert!(!contains_word("The argument limits of x", "limit"));
    assert!(quotes("was 'ten', but", &Value::from("ten")));
    assert!(quotes("input_value='ten'", &Value::from("ten")));
    assert!(quotes("was '42', but", &Value::from(42)));
    assert!(!quotes("was 142, but", &Value::from(42)));
}

fn finding(tool: &str, argument: &str, text: &str) -> Finding {
    Finding {
        tool: tool.into(),
        mistake: format!("the required argument {argument} left out"),
        call: serde_json::json!({"name": tool, "arguments": {"query": "a"}}),
        text: text.into(),
        broken: Expectation::IsError,
        detail: String::new(),
    }
}

#[test]
fn one_template_over_tools_and_calls_is_one() {
    let pydantic = |tool: &str, argument: &str| {
        finding(
            tool,
            argument,
            &format!(
                "1 validation error for {tool}Arguments\n{argument}\n  Field required \
                 [type=missing, input_value={{'query': 'a'}}, input_type=dict]\n    For \
                 further information visit https://errors.pydantic.dev/2.11/v/missing"
            ),
        )
    };
    let read = template(&pydantic("read_note", "note_path"));
    assert_eq!(read, "# validation error for <name>");
    assert_eq!(read, template(&pydantic("git_log", "repo_path")));
    assert_eq!(
        template(&finding(
            "git_status",
            "repo_path",
            "1 validation error for statusArguments"
        )),
        read
    );
    // Other words are another template.
    assert_ne!(
        read,
        template(&finding("git_log", "repo_path", "No repository at 'a'."))
    );
    // A megabyte of quotes is read once: the template is linear.
    let hostile = " 'a".repeat(1 << 20);
    let read = template(&finding("x", "y", &hostile));
    assert_eq!(read, "<value>a ".repeat(8).trim_end());
    let unclosed = " {a".repeat(1 << 20);
    assert_eq!(
        template(&finding("x", "y", &unclosed)),
        "{a ".repeat(8).trim_end()
    );
    // A validator's words after the frame vary with the mistake.
    let zod = |expected: &str| {
        template(&finding(
            "read_file",
            "path",
            &format!(
                "MCP error -32602: Input validation error: Invalid arguments for tool \
                 read_file: Invalid input: expected {expected}, received null at path"
            ),
        ))
    };
    assert_eq!(zod("string"), zod("array"));
    // An argument's name is a placeholder, looked up once per word
    // however many arguments the call has.
    let mut many = finding("x", "y", &"path is wrong ".repeat(1 << 10));
    let arguments: Map<String, Value> = (0..50_000)
        .map(|n| (format!("a{n}"), Value::Null))
        .chain([("path".to_owned(), Value::Null)])
        .collect();
    many.call = serde_json::json!({"name": "x", "arguments": arguments});
    assert_eq!(
        template(&many),
        "<argument> is wrong <argument> is wrong <argument> is"
    );
}

fn not_probed(schema: Value) -> Vec<NotProbed> {
    plan(&tool(schema), None).unwrap().not_probed
}

/// Alternatives that fan out, each level multiplying, written small
/// with `$ref`s: a walk without a budget visits `width^levels`
/// schemas.
fn fanning_out(levels: usize, width: usize) -> Value {
    let mut defs = Map::new();
    defs.insert("l0".into(), serde_json::json!({"type": "no such type"}));
    for level in 1..=levels {
        let below = serde_json::json!({"$ref": format!("#/$defs/l{}", level - 1)});
        defs.insert(
            format!("l{level}"),
            serde_json::json!({"anyOf": vec![below; width]}),
        );
    }
    serde_json::json!({
        "type": "object",
        "properties": {"x": {"$ref": format!("#/$defs/l{levels}")}},
        "required": ["x"],
        "$defs": defs
    })
}

#[test]
fn the_walk_stops_at_its_budget() {
    let root = fanning_out(16, 8);
    let mut walk = Walk {
        root: &root,
        path: Vec::new(),
        steps: 0,
        bytes: 0,
        deadline: None,
    };
    let mut plan = Plan {
        baseline: JsonObject::new(),
        valid: None,
        probes: Vec::new(),
        not_probed: Vec::new(),
        arguments: 0,
    };
    assert!(matches!(walk.plan(&mut plan), Err((_, Unbuilt::Budget))));
    assert_eq!(walk.steps, WALK_LIMIT + 1);
    let not = not_probed(root);
    assert_eq!(not.len(), 1, "{not:?}");
    assert!(not[0].why.contains("steps the audit walks"), "{not:?}");
    // A small fan-out is walked whole, and reported for what it is.
    let not = not_probed(fanning_out(3, 3));
    assert!(not[0].why.contains("no such type"), "{not:?}");
}

#[test]
fn a_deadline_passed_stops_the_walk() {
    let past = Instant::now();
    assert!(plan(&tool(fanning_out(2, 2)), Some(past)).is_err());
}

#[test]
fn refs_that_loop_are_not_followed_forever() {
    for schema in [
        serde_json::json!({"properties": {"x": {"$ref": "#/properties/x"}}, "required": ["x"]}),
        serde_json::json!({"properties": {"x": {"anyOf": [{"$ref": "#/properties/x"}]}}, "required": ["x"]}),
        serde_json::json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "properties": {"x": {"$ref": "#/$defs/a"}}}),
    ] {
        let not = not_probed(schema.clone());
        assert_eq!(not.len(), 1, "{schema}: {not:?}");
    }
    // Null ends this one for a validator, but a reader that tries the
    // alternatives in turn (serde's untagged enum) tries the loop first,
    // on any value: no value is sent.
    let plan = plan(
        &tool(serde_json::json!({
            "properties": {"x": {"anyOf": [{"$ref": "#/properties/x"}, {"type": "null"}]}},
            "required": ["x"]
        })),
        None,
    )
    .unwrap();
    assert_eq!(plan.not_probed.len(), 1, "{:?}", plan.not_probed);
    assert!(
        plan.not_probed[0].why.contains("holds itself"),
        "{:?}",
        plan.not_probed
    );
    assert!(plan.probes.is_empty());
}

/// A type that holds itself with no object or list between: serde reads
/// it by trying each alternative on the same value, and goes round
/// without end on one the others refuse. The audit sends it nothing; a
/// tree whose children are in a list is read to its leaves, and built.
#[test]
fn a_schema_that_holds_itself_gets_no_value() {
    let holding = |required: bool| {
        plan_of(serde_json::json!({
            "$defs": {"Expr": {"anyOf": [{"type": "number"}, {"$ref": "#/$defs/Expr"}]}},
            "properties": {"expr": {"$ref": "#/$defs/Expr"}, "note": {"type": "string"}},
            "required": if required { vec!["expr"] } else { vec![] }
        }))
    };
    for required in [true, false] {
        let plan = holding(required);
        let [not] = plan.not_probed.as_slice() else {
            panic!("{:?}", plan.not_probed);
        };
        assert_eq!(not.argument.as_deref(), Some("expr"));
        assert!(
            not.why.contains("through the $ref #/$defs/Expr"),
            "{}",
            not.why
        );
        assert!(
            plan.probes
                .iter()
                .all(|p| p.argument != "expr" || p.sent.is_none()),
            "{:?}",
            plan.probes
        );
    }
    // Optional, it is left out, and the other arguments are probed.
    assert!(!holding(false).probes.is_empty());
    // Nested in an object the audit builds, it is found too.
    let plan = plan_of(serde_json::json!({
        "$defs": {"Expr": {"oneOf": [{"$ref": "#/$defs/Expr"}, {"type": "string"}]}},
        "properties": {"outer": {"type": "object", "properties": {"e": {"$ref": "#/$defs/Expr"}}, "required": ["e"]}},
        "required": ["outer"]
    }));
    assert!(plan.probes.is_empty());
    assert!(
        plan.not_probed[0].why.contains("holds itself"),
        "{:?}",
        plan.not_probed
    );
    let tree = plan_of(serde_json::json!({
        "$defs": {"Tree": {"anyOf": [
            {"type": "string"},
            {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
            {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}, "required": ["children"]}
        ]}},
        "properties": {"tree": {"$ref": "#/$defs/Tree"}},
        "required": ["tree"]
    }));
    assert_eq!(tree.not_probed, []);
    assert_eq!(tree.baseline["tree"], Value::from("a"));
}

#[test]
fn sizes_past_the_bounds_are_not_built() {
    for (schema, why) in [
        (
            serde_json::json!({"type": "string", "minLength": u64::MAX}),
            "minLength",
        ),
        (
            serde_json::json!({"type": "string", "minLength": 1u64 << 40}),
            "minLength",
        ),
        (
            serde_json::json!({"type": "string", "maxLength": u64::MAX}),
            "maxLength",
        ),
        (
            serde_json::json!({"type": "array", "minItems": u64::MAX}),
            "minItems",
        ),
        // Each level's 1,000 items, of the level below's: a billion
        // strings, unless the bytes are counted.
        (
            serde_json::json!({"type": "array", "minItems": 1000, "items": {"type": "array", "minItems": 1000, "items": {"type": "array", "minItems": 1000}}}),
            "bytes",
        ),
    ] {
        for required in [true, false] {
            let root = serde_json::json!({
                "properties": {"x": schema},
                "required": if required { vec!["x"] } else { vec![] }
            });
            let not = not_probed(root);
            // An optional argument's value is built only to break it.
            let built = required || why.ends_with("Length");
            assert!(
                not.is_empty() != built && not.iter().all(|n| n.argument.as_deref() == Some("x")),
                "{schema} {required}: {not:?}"
            );
            if required {
                assert!(not[0].why.contains(why), "{schema}: {not:?}");
            }
        }
    }
}

#[test]
fn numbers_at_the_edges() {
    let sent = |schema: Value, mistake: Mistake| {
        let plan = plan(
            &tool(serde_json::json!({"properties": {"x": schema}})),
            None,
        )
        .unwrap();
        (
            plan.probes
                .iter()
                .find(|p| p.mistake == mistake)
                .and_then(|p| p.sent.clone()),
            plan.not_probed,
        )
    };
    // 1e308 + 1 is 1e308: the next number up is sent instead.
    let (above, _) = sent(
        serde_json::json!({"type": "number", "maximum": 1e308}),
        Mistake::AboveMaximum,
    );
    assert!(above.unwrap().as_f64().unwrap() > 1e308);
    let (above, not) = sent(
        serde_json::json!({"type": "number", "maximum": f64::MAX}),
        Mistake::AboveMaximum,
    );
    assert_eq!(above, None);
    assert!(not[0].why.contains("maximum"), "{not:?}");
    let (below, _) = sent(
        serde_json::json!({"type": "integer", "minimum": -0.0}),
        Mistake::BelowMinimum,
    );
    assert_eq!(below, Some(Value::from(-1)));
    let (below, _) = sent(
        serde_json::json!({"type": "integer", "minimum": 2.5}),
        Mistake::BelowMinimum,
    );
    assert_eq!(below, Some(Value::from(2)));
    let (below, not) = sent(
        serde_json::json!({"type": "integer", "minimum": -1e300}),
        Mistake::BelowMinimum,
    );
    assert_eq!(below, None);
    assert!(not[0].why.contains("minimum"), "{not:?}");
    // A required argument no value meets leaves the tool without a
    // call.
    let not = not_probed(serde_json::json!({
        "properties": {"x": {"type": "integer", "minimum": 5, "maximum": 1}, "y": {}},
        "required": ["x"]
    }));
    assert_eq!(not.len(), 1, "{not:?}");
    assert!(
        not[0].why.contains("minimum is above its maximum"),
        "{not:?}"
    );
}

#[test]
fn a_huge_enum_is_read_once() {
    let mut choices: Vec<Value> = vec![Value::from("not_a_choice")];
    choices.extend((1..50_000).map(|n| Value::from(format!("not_a_choice{n}"))));
    let plan = plan(
        &tool(serde_json::json!({"properties": {"x": {"type": "string", "enum": choices}}})),
        None,
    )
    .unwrap();
    let outside = plan
        .probes
        .iter()
        .find(|p| p.mistake == Mistake::NotInEnum)
        .and_then(|p| p.sent.clone());
    assert_eq!(outside, Some(Value::from("not_a_choice50000")));
}

#[test]
fn schemas_the_audit_cannot_read_are_not_probed() {
    for schema in [
        serde_json::json!({"type": "string"}),
        serde_json::json!({"properties": ["x"]}),
        serde_json::json!({"required": "x"}),
        serde_json::json!({"required": [1]}),
        // No string matches a word boundary between two letters.
        serde_json::json!({"properties": {"x": {"type": "string", "pattern": "^a\\bb$"}}, "required": ["x"]}),
        serde_json::json!({"properties": {"x": false}, "required": ["x"]}),
        serde_json::json!({"properties": {"x": {"$ref": "https://example.com/x"}}, "required": ["x"]}),
    ] {
        let plan = plan(&tool(schema.clone()), None).unwrap();
        assert_eq!(plan.not_probed.len(), 1, "{schema}: {:?}", plan.not_probed);
        assert!(plan.probes.is_empty(), "{schema}");
    }
    // A pattern with an example to send is probed.
    let plan = plan(
        &tool(serde_json::json!({"properties": {"x": {"type": "string", "pattern": "^[0-9]+$", "examples": ["12"]}}, "required": ["x"]})),
        None,
    )
    .unwrap();
    assert_eq!(plan.not_probed, []);
    assert_eq!(plan.baseline["x"], Value::from("12"));
}

/// Strings and numbers that narrow what they take get a value that keeps
/// to them, read back as the runtime reads it: a pattern with no example,
/// a format, exclusive bounds, a `multipleOf`.
#[test]
fn narrowed_values_are_built_to_keep_to_the_schema() {
    for (schema, expected) in [
        (
            serde_json::json!({"type": "string", "pattern": "^[0-9]+$"}),
            serde_json::json!("0"),
        ),
        (
            serde_json::json!({"type": "string", "pattern": "^[A-Z]{3}-\\d+$"}),
            serde_json::json!("AAA-0"),
        ),
        (
            serde_json::json!({"type": "string", "pattern": "^a+$", "minLength": 4}),
            serde_json::json!("aaaa"),
        ),
        (
            serde_json::json!({"type": "string", "format": "ipv4"}),
            serde_json::json!("192.0.2.1"),
        ),
        (
            serde_json::json!({"type": "string", "format": "hostname"}),
            serde_json::json!("example.com"),
        ),
        (
            serde_json::json!({"type": "string", "format": "time"}),
            serde_json::json!("00:00:00Z"),
        ),
        (
            serde_json::json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}),
            serde_json::json!(0.5),
        ),
        (
            serde_json::json!({"type": "integer", "exclusiveMaximum": 1}),
            serde_json::json!(0),
        ),
        (
            serde_json::json!({"type": "integer", "minimum": 0, "multipleOf": 5}),
            serde_json::json!(5),
        ),
        (
            serde_json::json!({"type": "integer", "minimum": 12, "maximum": 19, "multipleOf": 5}),
            serde_json::json!(15),
        ),
        (
            serde_json::json!({"type": "number", "multipleOf": 0.25, "minimum": 1.1}),
            serde_json::json!(1.25),
        ),
    ] {
        let plan = plan_of(serde_json::json!({"properties": {"x": schema}, "required": ["x"]}));
        assert_eq!(plan.not_probed, [], "{schema}");
        assert_eq!(plan.baseline["x"], expected, "{schema}");
    }
}

#[test]
fn a_call_the_schema_refuses_is_never_sent_as_one_it_accepts() {
    // The builder repeats one item to meet a `minItems`, and knows no
    // `uniqueItems`: the contract, read as the runtime reads it, catches
    // the baseline it builds.
    let unique = serde_json::json!({
        "properties": {"n": {"type": "array", "items": {"type": "string"}, "minItems": 2, "uniqueItems": true}},
        "required": ["n"]
    });
    let plan = plan(&tool(unique), None).unwrap();
    assert!(plan.probes.is_empty());
    assert_eq!(plan.valid, None);
    let [not] = plan.not_probed.as_slice() else {
        panic!("one tool not probed: {:?}", plan.not_probed);
    };
    assert!(
        not.why.contains("does not keep to its input schema"),
        "{}",
        not.why
    );
    // An example that keeps to a pattern is sent; one that does not is
    // not the audit's to send, and a string built from the pattern is.
    let patterned = |example: &str| serde_json::json!({"properties": {"x": {"type": "string", "pattern": "^[0-9]+$", "examples": [example]}}, "required": ["x"]});
    assert_eq!(plan_of(patterned("12")).baseline["x"], "12");
    let plan = plan_of(patterned("twelve"));
    assert_eq!(plan.not_probed, []);
    assert_eq!(plan.baseline["x"], "0");
}

fn plan_of(schema: Value) -> Plan {
    plan(&tool(schema), None).unwrap()
}

#[test]
fn long_names_are_not_probed() {
    let long = "x".repeat(NAME_LIMIT + 1);
    let named = Tool::new(
        long.clone(),
        "A tool.",
        std::sync::Arc::new(JsonObject::new()),
    );
    assert_eq!(plan(&named, None).unwrap().not_probed.len(), 1);
    let mut properties = Map::new();
    properties.insert(long.clone(), serde_json::json!({"type": "string"}));
    let not = not_probed(serde_json::json!({"properties": properties}));
    assert_eq!(not.len(), 1, "{not:?}");
}

#[test]
fn a_long_text_is_cut_at_a_character() {
    let text = "é".repeat(10);
    assert_eq!(head(&text, 5), "éé");
    assert_eq!(tail(&text, 5), "éé");
    assert_eq!(head("abc", 10), "abc");
    assert_eq!(tail("abc", 10), "abc");
}
