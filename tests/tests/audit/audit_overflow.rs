//! A server whose argument type holds itself with no object or list
//! between (an untagged enum with a variant of itself) cannot read a value
//! none of its other variants takes: serde tries the variant of itself on
//! the same value, again and again, until the stack overflows, and a stack
//! overflow aborts the whole process, not one thread. The audit sends such
//! an argument no value, reports it not probed with why, and the test
//! process goes on.
//!
//! The audit runs in a child process, this same test binary run again for
//! one test, so that an abort is seen as one (a signal) rather than taking
//! every other test of the binary with it.

use std::process::Command;

use outcome_runtime::testing::{Heading, audit};
use outcome_runtime::{ToolError, quote, tool, tool_handler, tool_router};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ServerHandler, schemars};
use serde::Deserialize;

/// An expression: a number, or an expression nested in itself.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)] // Only reading it matters.
enum Expr {
    Number(f64),
    Nested(Box<Expr>),
}

#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // Only reading it matters.
struct Compute {
    /// The expression to compute.
    expr: Expr,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // Only reading it matters.
struct Note {
    /// The note's text, and the expression in it if any.
    text: String,
    /// An expression the note holds.
    expr: Option<Expr>,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Round {
    /// The number to round.
    number: f64,
}

#[derive(Clone)]
struct Calculator;

#[tool_router]
impl Calculator {
    /// Compute an expression.
    #[tool]
    fn compute(&self, Parameters(_): Parameters<Compute>) -> Result<String, ToolError> {
        Ok("1".into())
    }

    /// Keep a note, with the expression it holds.
    #[tool]
    fn keep_note(&self, Parameters(_): Parameters<Note>) -> Result<String, ToolError> {
        Ok("kept".into())
    }

    /// Round a number.
    #[tool]
    fn round(&self, Parameters(Round { number }): Parameters<Round>) -> Result<String, ToolError> {
        if number.is_nan() {
            return Err(ToolError::invalid(
                format_args!("The number {} is no number", quote(&number.to_string())),
                "Call round again with a number",
            ));
        }
        Ok(number.round().to_string())
    }
}

#[tool_handler]
impl ServerHandler for Calculator {}

/// What the child runs: the audit itself.
const CHILD: &str = "OUTCOME_AUDIT_OVERFLOW_CHILD";

#[tokio::test]
async fn a_type_that_holds_itself_is_not_probed_and_the_process_goes_on() {
    if std::env::var_os(CHILD).is_some() {
        return audit_the_calculator().await;
    }
    // This test's name as libtest knows it, without the binary's crate.
    let path = module_path!().split_once("::").map_or("", |(_, path)| path);
    let name = format!("{path}::a_type_that_holds_itself_is_not_probed_and_the_process_goes_on");
    let output = Command::new(std::env::current_exe().expect("the test binary"))
        .args([name.as_str(), "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the audit in a child process ended with {}:\n{stdout}\n{stderr}",
        output.status
    );
    assert!(stdout.contains("1 passed"), "{stdout}");
}

async fn audit_the_calculator() {
    let report = audit(Calculator).await;
    let text = report.to_string();
    // compute's one argument gets no value: no call at all.
    let compute = report
        .not_probed
        .iter()
        .find(|not| not.tool.as_deref() == Some("compute"))
        .expect("compute not probed");
    assert_eq!(compute.argument.as_deref(), Some("expr"), "{text}");
    assert!(
        compute
            .why
            .contains("holds itself through the $ref #/$defs/Expr with no object or list between"),
        "{text}"
    );
    // keep_note's optional one is left out, and its text probed.
    assert!(
        report
            .not_probed
            .iter()
            .any(|not| not.tool.as_deref() == Some("keep_note")
                && not.argument.as_deref() == Some("expr")),
        "{text}"
    );
    let heading = |name: &str| {
        report
            .by_tool
            .iter()
            .find(|tool| tool.name == name)
            .map(|tool| (tool.heading, tool.calls))
    };
    assert_eq!(heading("compute"), Some((Heading::NotProbed, 0)), "{text}");
    assert!(
        matches!(heading("keep_note"), Some((Heading::Run, calls)) if calls > 0),
        "{text}"
    );
    assert!(
        matches!(heading("round"), Some((Heading::Run, calls)) if calls > 0),
        "{text}"
    );
    assert!(report.findings.is_empty(), "{text}");
    assert!(!report.is_clean(), "{text}");
    assert!(
        text.contains("\nnot probed: compute, argument expr: no call: "),
        "{text}"
    );
}
