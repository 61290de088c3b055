//! The command line as a user of cargo or ripgrep expects it (clap's):
//! `--version`, `--opt=value`, the closest option for a mistyped one, a
//! short error rather than the whole help, and the server's command after
//! `--` passed on as given.

use std::time::Duration;

use super::{audit, audit_within, listing};

#[test]
fn version_prints_the_version() {
    for flag in ["--version", "-V"] {
        let (output, stdout) = audit(&[flag]);
        assert_eq!(output.status.code(), Some(0), "{flag}");
        assert_eq!(
            stdout,
            format!("outcome-audit {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}

/// `--opt=value` is `--opt value`: here the JSON report.
#[test]
fn an_option_takes_its_value_after_an_equals_sign() {
    let url = listing(serde_json::json!([
        {"name": "fine", "description": "Return the text x.", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}
    ]));
    let (output, report) = audit_within(
        &["--format=json", "--timeout=60", "--call-timeout=20", &url],
        Duration::from_secs(90),
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: serde_json::Value = serde_json::from_str(&report).expect("one JSON document");
    assert_eq!(json["format"], 1);
}

/// A usage error is a few lines on stderr (the error, the usage when the
/// mistake is in which arguments are given, a hint), not the whole help,
/// which would scroll it away; stdout is empty and the status is 2.
fn usage_error(args: &[&str]) -> String {
    let (output, stdout) = audit(args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stdout.is_empty(), "{args:?}: {stdout}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(
        stderr.ends_with("For more information, try '--help'.\n"),
        "{stderr}"
    );
    assert!(stderr.lines().count() <= 10, "{stderr}");
    assert!(!stderr.contains("Exit status"), "{stderr}");
    stderr
}

#[test]
fn a_mistyped_option_is_a_short_error_that_suggests_the_option() {
    let stderr = usage_error(&["--fromat", "json", "--", "x"]);
    assert!(
        stderr.contains("unexpected argument '--fromat'"),
        "{stderr}"
    );
    assert!(stderr.contains("Usage: outcome-audit"), "{stderr}");
    assert!(
        stderr.contains("a similar argument exists: '--format'"),
        "{stderr}"
    );
    let stderr = usage_error(&["--run-every-tools", "--", "x"]);
    assert!(stderr.contains("'--run-every-tool'"), "{stderr}");
}

#[test]
fn every_usage_error_is_short_and_says_what_is_wrong() {
    for (args, says) in [
        (
            &["--frobnicate", "--", "x"][..],
            "unexpected argument '--frobnicate'",
        ),
        (
            &["--format", "xml", "--", "x"],
            "[possible values: text, json]",
        ),
        (
            &["--call-timeout", "0", "--", "x"],
            "not a positive number of seconds",
        ),
        (
            &["--timeout"],
            "a value is required for '--timeout <SECONDS>'",
        ),
        (
            &["notes"],
            "expected an http(s) URL, or -- and the server's command",
        ),
        (&["--format", "json"], "nothing to audit"),
        (
            &["http://127.0.0.1:1/mcp", "--", "x"],
            "cannot be used with",
        ),
        (&["--header", "X-Key: a", "--", "x"], "cannot be used with"),
        (
            &["--server-stderr", "log", "http://127.0.0.1:1/mcp"],
            "cannot be used with",
        ),
        (
            &["--header", "X-Key s3cret", "http://127.0.0.1:1/mcp"],
            "needs a name, a colon",
        ),
        (
            &[
                "--header",
                "X-Key: a",
                "--header",
                "x-key: b",
                "http://127.0.0.1:1/mcp",
            ],
            "--header x-key is given twice",
        ),
    ] {
        let stderr = usage_error(args);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// With no argument at all, what to give, in a few lines like any
/// other usage error.
#[test]
fn no_arguments_say_what_to_give() {
    for args in [&[][..], &["--"]] {
        let stderr = usage_error(args);
        assert!(
            stderr.contains("nothing to audit: give a URL, or -- and the server's command"),
            "{stderr}"
        );
        assert!(stderr.contains("Usage: outcome-audit"), "{stderr}");
    }
}

const OPTIONS: [&str; 9] = [
    "--format <text|json>",
    "--timeout <SECONDS>",
    "--call-timeout <SECONDS>",
    "--init-timeout <SECONDS>",
    "--header <NAME: VALUE>",
    "--run-every-tool",
    "--server-stderr <FILE>",
    "-h, --help",
    "-V, --version",
];

/// `--help` explains: every option, every expectation, the exit
/// statuses; `-h` lists the options on a screen. Both fit 80 columns.
#[test]
fn help_lists_every_option_and_h_is_shorter() {
    let (output, long) = audit(&["--help"]);
    assert_eq!(output.status.code(), Some(0));
    for text in OPTIONS.iter().chain(&[
        "[URL]",
        "[COMMAND]...",
        "Each answer must be:",
        "names-argument",
        "description-lists-failures",
        "Not probed:",
        "process group of its own",
        "MCP-Protocol-Version",
        "(default 120)",
        "format 1, whose fields may be added to",
    ]) {
        assert!(long.contains(text), "{text:?} not in:\n{long}");
    }
    let (output, short) = audit(&["-h"]);
    assert_eq!(output.status.code(), Some(0));
    for text in &OPTIONS {
        assert!(short.contains(text), "{text:?} not in:\n{short}");
    }
    assert!(short.contains("130  interrupted"), "{short}");
    assert!(!short.contains("Each answer must be:"), "{short}");
    assert!(short.lines().count() < 50, "{short}");
    for help in [&long, &short] {
        for line in help.lines() {
            assert!(line.chars().count() <= 80, "too wide: {line:?}");
        }
    }
}

/// Everything after `--` is the server's command, as given: its options,
/// the audit's option names and a second `--` included.
#[test]
fn the_command_after_the_double_dash_is_passed_on_verbatim() {
    let file = std::env::temp_dir().join(format!("outcome-audit-{}-argv", std::process::id()));
    let script = format!("printf '%s\\n' \"$@\" > '{}'", file.display());
    let (output, _) = audit(&[
        "--init-timeout",
        "20",
        "--",
        "sh",
        "-c",
        &script,
        "sh",
        "--format",
        "xml",
        "--",
        "--help",
        "-V",
    ]);
    let written = std::fs::read_to_string(&file).expect("the server ran");
    let _ = std::fs::remove_file(&file);
    // It speaks no MCP: the server could not be audited.
    assert_eq!(output.status.code(), Some(4));
    assert_eq!(written, "--format\nxml\n--\n--help\n-V\n");
}
