//! `pass/`: what must compile with the macros, each case compiled as a
//! module of this test crate, a user's crate as far as the macros can
//! tell (they expand to `::outcome_runtime` and `::rmcp` paths only). Each
//! case's `main` then runs as a test: it checks what the compiled server
//! does. One build with the rest of the workspace's tests, so the
//! dependencies are compiled once, not again for `trybuild`.
//!
//! A case's items are there to be compiled, not called, hence `dead_code`
//! allowed. The bodies nested hundreds of levels deep, too large to check
//! in, are written by `build.rs` and compiled here with the rest. A file
//! of `pass/` left out of the list below fails
//! `every_case_of_pass_is_compiled_here`.

#[path = "../pass/async-tails-that-await.rs"]
#[allow(dead_code)]
mod async_tails_that_await;
#[path = "../pass/body-with-return-question-mark-and-early-exits.rs"]
#[allow(dead_code)]
mod body_with_return_question_mark_and_early_exits;
#[path = "../pass/computed-doc-comment.rs"]
#[allow(dead_code)]
mod computed_doc_comment;
#[path = "../pass/error-type-mcp-error.rs"]
#[allow(dead_code)]
mod error_type_mcp_error;
#[path = "../pass/every-rmcp-argument.rs"]
#[allow(dead_code)]
mod every_rmcp_argument;
#[path = "../pass/failure-phrase-opt-out.rs"]
#[allow(dead_code)]
mod failure_phrase_opt_out;
#[path = "../pass/generics-and-lifetimes.rs"]
#[allow(dead_code)]
mod generics_and_lifetimes;
#[path = "../pass/inner-attributes-in-the-body.rs"]
#[allow(dead_code)]
mod inner_attributes_in_the_body;
#[path = "../pass/json-return-keeps-its-output-schema.rs"]
#[allow(dead_code)]
mod json_return_keeps_its_output_schema;
#[path = "../pass/non-literal-next-step.rs"]
#[allow(dead_code)]
mod non_literal_next_step;
#[path = "../pass/other-attributes-are-kept.rs"]
#[allow(dead_code)]
mod other_attributes_are_kept;
#[path = "../pass/rmcp-extractors.rs"]
#[allow(dead_code)]
mod rmcp_extractors;
#[path = "../pass/server-handler-on-a-generic-impl.rs"]
#[allow(dead_code)]
mod server_handler_on_a_generic_impl;
#[path = "../pass/server-handler-router-form.rs"]
#[allow(dead_code)]
mod server_handler_router_form;
#[path = "../pass/several-routers-on-one-type.rs"]
#[allow(dead_code)]
mod several_routers_on_one_type;
#[path = "../pass/sync-and-async-tools.rs"]
#[allow(dead_code)]
mod sync_and_async_tools;
#[path = "../pass/writing-rules-followed-or-waived.rs"]
#[allow(dead_code)]
mod writing_rules_followed_or_waived;

/// Written by `build.rs`: bodies nested deeper than the macros' parse
/// goes.
#[allow(unused, clippy::all)]
mod deep_bodies {
    include!(concat!(env!("OUT_DIR"), "/deep-bodies.rs"));
}

/// A test per case, named after its file, that runs the case's `main`;
/// and the cases' names.
macro_rules! run {
    ($($case:ident,)*) => {
        $(
            #[test]
            fn $case() {
                $case::main();
            }
        )*

        const CASES: &[&str] = &[$(stringify!($case)),*];
    };
}

#[test]
fn every_case_of_pass_is_compiled_here() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("pass");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("pass/ is beside Cargo.toml")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            Some(name.strip_suffix(".rs")?.replace('-', "_"))
        })
        .collect();
    files.sort();
    let mut cases: Vec<String> = CASES
        .iter()
        .filter(|case| **case != "deep_bodies")
        .map(|case| (*case).to_owned())
        .collect();
    cases.sort();
    assert_eq!(
        files, cases,
        "each file of pass/ is a module and a test here"
    );
}

run! {
    async_tails_that_await,
    body_with_return_question_mark_and_early_exits,
    computed_doc_comment,
    error_type_mcp_error,
    every_rmcp_argument,
    failure_phrase_opt_out,
    generics_and_lifetimes,
    inner_attributes_in_the_body,
    json_return_keeps_its_output_schema,
    non_literal_next_step,
    other_attributes_are_kept,
    rmcp_extractors,
    server_handler_on_a_generic_impl,
    server_handler_router_form,
    several_routers_on_one_type,
    sync_and_async_tools,
    writing_rules_followed_or_waived,
    deep_bodies,
}
