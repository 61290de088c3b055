//! The JSON Schema Test Suite, draft 2020-12, through [`Contract`]: a call
//! the standard calls valid is never refused, and one it calls invalid
//! never passes, but for the cases named in [`expected`].
//!
//! Each case's schema becomes the schema of one argument, `x`, of a tool's
//! input (`{"type": "object", "properties": {"x": ...}, "required":
//! ["x"]}`), its `#` references pointed inside `#/properties/x`, and each
//! instance the value of `x`. Cases that need what a tool's input schema
//! cannot hold on its own are left out and counted: another document
//! (`$ref` to a URI), `$id`, anchors, dynamic references, vocabularies,
//! and a `$schema` other than 2020-12's.
//!
//! The files are the suite's own (`tests/suite/`, with its licence), as
//! published in json-schema-org/JSON-Schema-Test-Suite.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use outcome_rules::{MESSAGE_LIMIT, Outcome, Tools, check_message};
use outcome_schema::{Contract, JsonObject};
use serde_json::{Value, json};

const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The keywords whose values are subschemas: one, a list, or a map of
/// names to them. Only these are read for references and identifiers, so
/// that a `const` holding `{"$ref": ...}` stays the data it is.
const ONE: &[&str] = &[
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "items",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
];
const MANY: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
const NAMED: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Every schema object in `schema`, found without recursion.
fn schemas(schema: &mut Value, mut visit: impl FnMut(&mut JsonObject)) {
    let mut pending = vec![schema];
    while let Some(schema) = pending.pop() {
        let Value::Object(rules) = schema else {
            continue;
        };
        visit(rules);
        for (key, value) in rules.iter_mut() {
            let key = key.as_str();
            if ONE.contains(&key) {
                pending.push(value);
            } else if MANY.contains(&key) {
                if let Value::Array(items) = value {
                    pending.extend(items.iter_mut());
                }
            } else if NAMED.contains(&key)
                && let Value::Object(named) = value
            {
                pending.extend(named.values_mut());
            }
        }
    }
}

/// Why a case's schema is left out, if it is.
fn left_out(schema: &Value) -> Option<&'static str> {
    let mut schema = schema.clone();
    let mut why = None;
    let root_schema = schema.get("$schema").cloned();
    if root_schema.is_some_and(|s| s != DRAFT) {
        return Some("$schema");
    }
    schemas(&mut schema, |rules| {
        let found = if rules.contains_key("$id") {
            Some("$id")
        } else if rules.contains_key("$anchor") || rules.contains_key("$dynamicAnchor") {
            Some("anchor")
        } else if rules.contains_key("$dynamicRef") || rules.contains_key("$recursiveRef") {
            Some("dynamic ref")
        } else if rules.contains_key("$vocabulary") {
            Some("vocabulary")
        } else {
            match rules.get("$ref").and_then(Value::as_str) {
                Some(reference) if !reference.starts_with('#') => Some("remote ref"),
                Some(reference) if reference != "#" && !reference.starts_with("#/") => {
                    Some("anchor")
                }
                _ => None,
            }
        };
        why = why.or(found);
    });
    why
}

/// The tool's input schema for a case's schema: `x`, required.
fn input_schema(case: &Value) -> JsonObject {
    let mut schema = case.clone();
    if let Value::Object(rules) = &mut schema {
        rules.remove("$schema");
    }
    schemas(&mut schema, |rules| {
        if let Some(Value::String(reference)) = rules.get_mut("$ref") {
            *reference = format!("#/properties/x{}", &reference[1..]);
        }
    });
    let input = json!({
        "type": "object",
        "properties": { "x": schema },
        "required": ["x"],
    });
    match input {
        Value::Object(input) => input,
        _ => unreachable!(),
    }
}

/// Counts for one file of the suite.
#[derive(Default)]
struct Counts {
    tests: usize,
    refused_valid: usize,
    passed_invalid: usize,
    left_out: BTreeMap<&'static str, usize>,
    unexpected: Vec<String>,
}

/// Whether a case that goes against the standard does so on purpose:
/// `Some` with the reason, for the cases the crate's docs name.
fn expected(file: &str, valid: bool) -> Option<&'static str> {
    match (file, valid) {
        // The standard makes `format` an annotation unless a dialect asks
        // for it; a tool's schema asserts the formats it gives.
        ("format.json", true) => Some("formats are asserted"),
        // Without the `idna` feature, international names are not checked.
        ("optional/format/idn-hostname.json" | "optional/format/idn-email.json", false) => {
            Some("international host names are not checked")
        }
        _ => None,
    }
}

/// `text` without the values it quotes (`'...'`, `\'` inside): they are
/// the model's and the server's, not the words'.
fn unquoted(text: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (_, '\'') => quoted = !quoted,
            (true, '\\') => {
                chars.next();
            }
            (true, _) => {}
            (false, c) => out.push(c),
        }
    }
    out
}

/// The words the model reads keep the writing rules and none of the
/// standard's jargon.
fn words_fault(text: &str) -> Option<String> {
    const JARGON: &[&str] = &["schema", "json", "instance", "unevaluated", "$ref"];
    let lower = unquoted(text).to_lowercase();
    if let Some(word) = JARGON.iter().find(|word| lower.contains(*word)) {
        return Some(format!("says {word:?}"));
    }
    if text.contains(['\n', '\r']) || text.chars().count() > MESSAGE_LIMIT {
        return Some("is not one bounded line".to_owned());
    }
    let tools = Tools::new().tool_with_parameters("t", ["x"]);
    let broken = check_message(Outcome::Invalid, text, &tools);
    (!broken.is_empty()).then(|| format!("breaks {:?}", broken[0].rule))
}

fn run_file(root: &Path, file: &str, counts: &mut Counts) {
    let text = std::fs::read_to_string(root.join(file)).expect("a suite file");
    let groups: Vec<Value> = serde_json::from_str(&text).expect("a list of cases");
    for group in &groups {
        let description = group["description"].as_str().unwrap_or_default();
        let tests = group["tests"].as_array().expect("tests");
        if let Some(why) = left_out(&group["schema"]) {
            *counts.left_out.entry(why).or_default() += tests.len();
            continue;
        }
        let contract = Contract::new(Arc::new(input_schema(&group["schema"])));
        for test in tests {
            counts.tests += 1;
            let valid = test["valid"].as_bool().expect("valid");
            let arguments = JsonObject::from_iter([("x".to_owned(), test["data"].clone())]);
            let fits = contract.fits(&arguments);
            let checked = contract.check("t", Some(&arguments));
            let name = format!("{file}: {description}: {}", test["description"]);
            if contract.narrows() && checked.is_ok() != fits {
                counts
                    .unexpected
                    .push(format!("{name}: check and fits disagree"));
            }
            let passes = fits && checked.is_ok();
            if passes != valid {
                if valid {
                    counts.refused_valid += 1;
                } else {
                    counts.passed_invalid += 1;
                }
                if expected(file, valid).is_none() {
                    let verdict = if valid {
                        "valid, refused"
                    } else {
                        "invalid, passed"
                    };
                    counts.unexpected.push(format!("{name}: {verdict}"));
                }
            }
            if let Err(text) = &checked
                && let Some(fault) = words_fault(text)
            {
                counts
                    .unexpected
                    .push(format!("{name}: the message {fault}: {text}"));
            }
        }
    }
}

/// The suite's files this test reads, relative to its folder.
fn files(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(root.join(&folder)).expect("the suite's folder") {
            let entry = entry.expect("an entry");
            let relative = folder.join(entry.file_name());
            if entry.file_type().expect("a file type").is_dir() {
                pending.push(relative);
            } else if relative.extension().is_some_and(|e| e == "json") {
                files.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_standard_decides_every_case_of_the_suite() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/suite/draft2020-12");
    let mut report = String::new();
    let mut unexpected = Vec::new();
    let mut totals = Counts::default();
    let _ = writeln!(
        report,
        "{:<44} {:>5} {:>14} {:>14}  left out",
        "file", "tests", "refused valid", "passed invalid"
    );
    for file in files(&root) {
        let mut counts = Counts::default();
        run_file(&root, &file, &mut counts);
        let left_out: Vec<String> = counts
            .left_out
            .iter()
            .map(|(why, n)| format!("{n} ({why})"))
            .collect();
        let _ = writeln!(
            report,
            "{file:<44} {:>5} {:>14} {:>14}  {}",
            counts.tests,
            counts.refused_valid,
            counts.passed_invalid,
            left_out.join(", ")
        );
        totals.tests += counts.tests;
        totals.refused_valid += counts.refused_valid;
        totals.passed_invalid += counts.passed_invalid;
        for (why, n) in counts.left_out {
            *totals.left_out.entry(why).or_default() += n;
        }
        unexpected.extend(counts.unexpected);
    }
    let left_out: Vec<String> = totals
        .left_out
        .iter()
        .map(|(why, n)| format!("{n} ({why})"))
        .collect();
    let _ = writeln!(
        report,
        "{:<44} {:>5} {:>14} {:>14}  {}",
        "all",
        totals.tests,
        totals.refused_valid,
        totals.passed_invalid,
        left_out.join(", ")
    );
    println!("{report}");
    assert!(
        unexpected.is_empty(),
        "{} unexpected:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
}
