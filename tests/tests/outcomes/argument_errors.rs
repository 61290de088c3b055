//! An argument the tool's type refuses is explained in the model's terms,
//! naming the argument and never in serde's words: a value the schema
//! allows but the type refuses, a megabyte where a number goes.

use outcome_tests::hostile::{assert_clean, session};
use serde_json::json;

#[tokio::test]
async fn values_the_schema_allows_but_the_type_refuses_are_explained() {
    let (session, _jobs) = session().await;
    for (tool, arguments, argument) in [
        ("ping", json!({ "ip": "not an address" }), "ip"),
        ("spell", json!({ "letter": "ab" }), "letter"),
        ("tag", json!({ "tag": "UPPER" }), "tag"),
    ] {
        let call = session.call(tool, arguments).await;
        let text = call.text();
        assert_clean(text);
        assert!(text.contains(tool), "{text}");
        assert!(
            !text.contains("deserialize") && !text.contains("IpAddr"),
            "{text}"
        );
        assert_eq!(call.events(), ["INFO tool_call_failed"], "{tool}");
        // The argument, in this crate's words: never serde's text, not
        // even the type's own reason, which may hold anything.
        assert!(text.contains(argument), "{text}");
        assert!(!text.contains("lowercase letters only"), "{text}");
    }
}

#[tokio::test]
async fn a_one_megabyte_argument_is_answered_in_model_terms() {
    let (session, _jobs) = session().await;
    let big = "y".repeat(1 << 20);
    let call = session.call("look_up", json!({ "path": big })).await;
    assert_clean(call.text());
    assert!(call.text().starts_with("No note at 'yyyy"));
    let call = session.call("count", json!({ "limit": big })).await;
    assert_clean(call.text());
    assert!(call.text().contains("limit"), "{}", call.text());
    assert_eq!(call.events(), ["INFO tool_call_failed"]);
}
