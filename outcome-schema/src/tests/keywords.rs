//! Each keyword and format, on its own.

use serde_json::json;

use serde_json::Value;

use super::{message, object, one, passes};

/// Whether a string argument of `format` keeps to it.
fn format_fits(format: &str, text: &str) -> bool {
    let schema: Value = json!({ "type": "string", "format": format });
    passes(schema, json!(text))
}

#[test]
fn an_ip_address_is_checked_by_its_format() {
    let schema = object(json!({
        "type": "object",
        "properties": { "host": { "type": "string", "format": "ip" } },
        "required": ["host"],
    }));
    let args = object(json!({ "host": "300.1.1.1" }));
    assert_eq!(
        message("ping", &schema, Some(&args), None),
        "The argument host of ping was '300.1.1.1', but it must be an IP address such as \
         '192.0.2.1'. Call ping again with host as an IP address such as '192.0.2.1'."
    );
    let ip = || json!({ "type": "string", "format": "ip" });
    assert!(passes(ip(), json!("192.0.2.1")));
    assert!(passes(ip(), json!("2001:db8::1")));
    let v4 = || json!({ "type": "string", "format": "ipv4" });
    assert!(one(v4(), json!("2001:db8::1")).contains("an IPv4 address such as '192.0.2.1'"));
    let v6 = || json!({ "type": "string", "format": "ipv6" });
    assert!(one(v6(), json!("192.0.2.1")).contains("an IPv6 address such as '2001:db8::1'"));
    assert!(passes(v6(), json!("::1")));
}

#[test]
fn a_char_is_a_single_character() {
    let char_schema = || json!({ "type": "string", "minLength": 1, "maxLength": 1 });
    assert_eq!(
        one(char_schema(), json!("ab")),
        "The argument arg of tool was 'ab', but it must be a single character. \
         Call tool again with arg as a single character."
    );
    assert!(one(char_schema(), json!("")).contains("must be a single character"));
    assert!(passes(char_schema(), json!("é")));
    assert!(passes(char_schema(), json!("\u{1f600}")));
}

#[test]
fn string_lengths_count_characters() {
    let at_most = || json!({ "type": "string", "maxLength": 40 });
    assert!(one(at_most(), json!("x".repeat(41))).contains("a string of at most 40 characters"));
    assert!(passes(at_most(), json!("é".repeat(40))));
    let between = json!({ "type": "string", "minLength": 3, "maxLength": 8 });
    assert!(one(between, json!("ab")).contains("a string of 3 to 8 characters"));
    let non_empty = json!({ "type": "string", "minLength": 1 });
    assert!(one(non_empty, json!("")).contains("a non-empty string"));
    let exact = json!({ "type": "string", "minLength": 8, "maxLength": 8 });
    assert!(one(exact, json!("abc")).contains("a string of exactly 8 characters"));
    let formatted = json!({ "type": "string", "format": "date", "maxLength": 10 });
    assert!(
        one(formatted, json!("2024-02-30"))
            .contains("a date in the form YYYY-MM-DD, at most 10 characters long")
    );
    let huge = json!({ "type": "string", "maxLength": u64::MAX });
    assert!(passes(huge, json!("anything")));
}

#[test]
fn a_date_has_real_months_and_days() {
    let date = || json!({ "type": "string", "format": "date" });
    assert_eq!(
        one(date(), json!("2023-02-29")),
        "The argument arg of tool was '2023-02-29', but it must be a date in the form \
         YYYY-MM-DD. Call tool again with arg as a date in the form YYYY-MM-DD."
    );
    for good in ["2024-02-29", "2000-02-29", "1999-12-31", "2024-04-30"] {
        assert!(passes(date(), json!(good)), "{good}");
    }
    for bad in [
        "2100-02-29",
        "2024-04-31",
        "2024-13-01",
        "2024-00-10",
        "2024-01-00",
        "24-01-01",
        "2024/01/01",
        "2024-01-01T00:00:00Z",
        "tomorrow",
        "",
    ] {
        assert!(!passes(date(), json!(bad)), "{bad}");
    }
}

#[test]
fn times_and_date_times_follow_rfc_3339() {
    // The standard's `date-time` is RFC 3339's: a `T` (or `t`), and an
    // offset with its colon. A space or `-0530`, which some parsers take,
    // is not it.
    for good in [
        "2024-05-01T13:45:00Z",
        "2024-05-01t13:45:00.250z",
        "2024-05-01T13:45:00+02:00",
        "1998-12-31T23:59:60Z",
    ] {
        assert!(format_fits("date-time", good), "{good}");
    }
    for bad in [
        "2024-05-01 13:45:00+02:00",
        "2024-05-01T13:45:00-0530",
        "2024-05-01T13:45:00",
        "2024-05-01T24:00:00Z",
        "2024-05-01T13:61:00Z",
        "2024-05-01T13:45:00+2",
        "2024-05-01",
        "2024-05-01T13:45:00Z junk",
        "2024-05-01T13:45:00+é",
    ] {
        assert!(!format_fits("date-time", bad), "{bad}");
    }
    assert!(format_fits("partial-date-time", "2024-05-01T13:45:00"));
    assert!(!format_fits("partial-date-time", "2024-05-01T13:45:00Z"));
    assert!(format_fits("partial-date-time", "2024-05-01 13:45:00"));
    // The standard's `time` has an offset; schemars's `partial-time` (a
    // `NaiveTime`) has none.
    assert!(!format_fits("time", "13:45:00"));
    assert!(format_fits("time", "13:45:00.5Z"));
    assert!(!format_fits("time", "25:00:00Z"));
    assert!(format_fits("partial-time", "13:45:00"));
    assert!(!format_fits("partial-time", "13:45:00Z"));
    let time = json!({ "type": "string", "format": "time" });
    assert_eq!(
        one(time, json!("noon")),
        "The argument arg of tool was 'noon', but it must be a time with its offset, such as \
         '13:45:00Z'. Call tool again with arg as a time with its offset, such as '13:45:00Z'."
    );
    let naive = json!({ "type": "string", "format": "partial-time" });
    assert!(one(naive, json!("noon")).contains("must be a time in the form HH:MM:SS"));
}

#[test]
fn uuids_and_uris_are_checked() {
    // RFC 4122's form: hyphenated, in either case; not bare, braced or
    // as a URN.
    for good in [
        "67e55044-10b1-426f-9247-bb680e5fe0c8",
        "67E55044-10B1-426F-9247-BB680E5FE0C8",
    ] {
        assert!(format_fits("uuid", good), "{good}");
    }
    for bad in [
        "67E5504410B1426F9247BB680E5FE0C8",
        "{67e55044-10b1-426f-9247-bb680e5fe0c8}",
        "urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8",
        "67e55044-10b1-426f-9247-bb680e5fe0c",
        "67e5504410b1-426f-9247-bb680e5fe0c8",
        "g7e55044-10b1-426f-9247-bb680e5fe0c8",
        "",
    ] {
        assert!(!format_fits("uuid", bad), "{bad}");
    }
    let uuid = json!({ "type": "string", "format": "uuid" });
    assert!(
        one(uuid, json!("42"))
            .contains("must be a UUID such as '67e55044-10b1-426f-9247-bb680e5fe0c8'")
    );
    assert!(format_fits("uri", "https://example.com/a?b"));
    assert!(format_fits("uri", "mailto:someone@example.com"));
    assert!(!format_fits("uri", "example.com/page"));
    assert!(!format_fits("uri", "://nothing"));
    assert!(!format_fits("uri", "1http://x"));
}

#[test]
fn unknown_formats_are_not_checked() {
    assert!(passes(
        json!({ "type": "number", "format": "double" }),
        json!(1.5)
    ));
    assert!(passes(
        json!({ "type": "string", "format": "x-custom" }),
        json!("anything")
    ));
}

#[test]
fn emails_and_host_names_are_checked() {
    let email = json!({ "type": "string", "format": "email" });
    for good in [
        "ada@example.com",
        "a.b+c@sub.example.org",
        "x@[192.0.2.1]",
        "\"a b\"@example.com",
        "ada@localhost",
    ] {
        assert!(passes(email.clone(), json!(good)), "{good}");
    }
    for bad in [
        "nope",
        "@example.com",
        "ada@",
        "a..b@example.com",
        "ada @example.com",
        "ada@-x.com",
        "ada@exa_mple.com",
    ] {
        assert!(!passes(email.clone(), json!(bad)), "{bad}");
    }
    assert_eq!(
        one(email, json!("nope")),
        "The argument arg of tool was 'nope', but it must be an email address such as \
         'name@example.com'. Call tool again with arg as an email address such as \
         'name@example.com'."
    );
    let host = json!({ "type": "string", "format": "hostname" });
    assert!(passes(host.clone(), json!("api.example.com")));
    assert!(!passes(host.clone(), json!("a b.com")));
    assert!(!passes(host, json!("x".repeat(64) + ".com")));
}

#[test]
fn patterns_are_matched_anywhere_unless_anchored() {
    let digits = json!({ "type": "string", "pattern": "^[0-9]+$" });
    assert!(passes(digits.clone(), json!("042")));
    assert_eq!(
        one(digits, json!("4a2")),
        "The argument arg of tool was '4a2', but it must be a string matching the pattern \
         '^[0-9]+$'. Call tool again with arg as a string matching the pattern '^[0-9]+$'."
    );
    // JSON Schema's patterns are not anchored: "ab" is found in "xaby".
    assert!(passes(
        json!({ "type": "string", "pattern": "ab" }),
        json!("xaby")
    ));
    assert!(!passes(
        json!({ "type": "string", "pattern": "ab" }),
        json!("ba")
    ));
}

#[test]
fn a_pattern_the_engine_cannot_run_is_not_checked() {
    // A look-ahead and a back-reference: ECMA-262, beyond a linear engine.
    for pattern in ["^(?=.*[0-9]).+$", "^(a)\\1$"] {
        let schema = json!({ "type": "string", "pattern": pattern });
        assert!(passes(schema, json!("no digits")), "{pattern}");
    }
}

#[test]
fn a_pattern_built_to_backtrack_costs_a_bounded_time() {
    let started = std::time::Instant::now();
    let schema = json!({ "type": "string", "pattern": "^(a+)+$" });
    let text = "a".repeat(5_000) + "!";
    assert!(!passes(schema.clone(), json!(text)));
    // A megabyte costs its length, once: the engine's time is linear.
    let long = "a".repeat(1 << 20) + "!";
    assert!(!passes(schema.clone(), json!(long)));
    assert!(passes(schema, json!("a".repeat(1 << 20))));
    // A pattern whose program is past the size bound is not compiled.
    let huge = json!({ "type": "string", "pattern": "(a{1000}){1000}" });
    assert!(passes(huge, json!("b")));
    // Generous: a backtracking engine takes longer than the universe.
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

#[test]
fn multiples_are_exact_for_whole_numbers_and_tolerant_for_fractions() {
    let five = json!({ "type": "integer", "minimum": 0, "maximum": 100, "multipleOf": 5 });
    assert!(passes(five.clone(), json!(35)));
    assert_eq!(
        one(five, json!(36)),
        "The argument arg of tool was '36', but it must be a whole number from 0 to 100 \
         that is a multiple of 5. Call tool again with arg as a whole number from 0 to 100 \
         that is a multiple of 5."
    );
    let tenth = json!({ "type": "number", "multipleOf": 0.1 });
    assert!(passes(tenth.clone(), json!(0.3)));
    assert!(passes(tenth.clone(), json!(7)));
    assert!(!passes(tenth, json!(0.35)));
    // A quotient too large to tell fits: never blamed, never a panic.
    let tiny = json!({ "type": "number", "multipleOf": 1e-300 });
    assert!(passes(tiny.clone(), json!(1e300)));
    assert!(passes(tiny, json!(0.5)));
    // Zero, a negative or a non-number multiple says nothing.
    for step in [json!(0), json!(-2), json!("2")] {
        assert!(passes(
            json!({ "type": "integer", "multipleOf": step }),
            json!(3)
        ));
    }
    assert!(passes(
        json!({ "type": "integer", "multipleOf": i64::MIN }),
        json!(i64::MIN)
    ));
}

#[test]
fn unique_items_compare_by_json_value() {
    let tags = json!({ "type": "array", "items": { "type": "string" }, "uniqueItems": true });
    assert!(passes(tags.clone(), json!(["a", "b"])));
    assert_eq!(
        one(tags, json!(["a", "b", "a"])),
        "The argument arg of tool was '[\"a\",\"b\",\"a\"]', but it must be a list, each \
         a string, with no item twice. Call tool again with arg as a list, each a string, with \
         no item twice."
    );
    let any = json!({ "type": "array", "uniqueItems": true });
    assert!(!passes(any.clone(), json!([1, 1.0])));
    assert!(!passes(
        any.clone(),
        json!([{ "a": 1, "b": 2 }, { "b": 2, "a": 1 }])
    ));
    assert!(passes(any.clone(), json!([1, "1", [1], { "1": 1 }])));
    // A long list costs its length.
    let many: Vec<u32> = (0..100_000).collect();
    assert!(passes(any, json!(many)));
}

#[test]
fn objects_keep_their_counts_of_keys() {
    let labels = json!({
        "type": "object",
        "additionalProperties": { "type": "string" },
        "minProperties": 1,
        "maxProperties": 2
    });
    assert!(passes(labels.clone(), json!({ "a": "x" })));
    assert_eq!(
        one(labels.clone(), json!({})),
        "The argument arg of tool was '{}', but it must be an object of 1 to 2 keys. \
         Call tool again with arg as an object of 1 to 2 keys."
    );
    assert!(!passes(labels, json!({ "a": "x", "b": "y", "c": "z" })));
}
