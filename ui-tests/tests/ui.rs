//! `pass/`: what must compile. `fail/`: what must not, with the compiler's
//! exact messages in the `.stderr` beside each case. Regenerate those with
//! `TRYBUILD=overwrite cargo test -p outcome-ui-tests` and review the diff.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("pass/*.rs");
    cases.compile_fail("fail/*.rs");
}
