//! `fail/`: what must not compile, with the compiler's exact messages in
//! the `.stderr` beside each case. Regenerate those with
//! `TRYBUILD=overwrite cargo test -p outcome-ui-tests --test ui` and review
//! the diff. What must compile is in `pass/`, built by `tests/pass.rs`:
//! with only failing cases here, trybuild checks the dependencies rather
//! than building them.

#[test]
fn ui() {
    trybuild::TestCases::new().compile_fail("fail/*.rs");
}
