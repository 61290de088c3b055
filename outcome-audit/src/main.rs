//! `outcome-audit`: the audit of this crate's library (which
//! `outcome_runtime::testing::audit` runs too), for a server in any
//! language, reached over stdio or streamable HTTP.

#![forbid(unsafe_code)]

use std::process::ExitCode;
use std::time::Duration;

use outcome_audit::{Audit, AuditReport, shown_line};
use rmcp::ServiceExt;
use rmcp::service::{Peer, RoleClient};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};

const HELP: &str = "\
usage: outcome-audit [--timeout <seconds>] -- <command> [<argument>..]
       outcome-audit [--timeout <seconds>] <url>

Audits an MCP server: lists its tools, calls each one the way a model gets
it wrong, and checks every answer. The first form launches <command> and
speaks MCP with it over stdin and stdout (its stderr passes through); the
second connects to the streamable HTTP endpoint at <url>, such as
http://127.0.0.1:8080/mcp (plain HTTP: this build has no TLS).

The calls, derived from each tool's input schema, one mistake each: a
required argument left out, or sent as null; an argument of the wrong JSON
type; a value outside its enum, its minimum or maximum, its minLength or
maxLength; and a key the schema does not declare, when the schema sets
additionalProperties to false. The calls are real: a server that accepts
one runs the tool with it, so audit a server whose data may change.

Each answer must be:
  is-error           a result with isError true: not a success, not a
                     JSON-RPC error (which many clients never show the model)
  not-fault          not the message of a server failure: the request was
                     wrong, and the text must say so
  names-argument     the text names the argument that is wrong
  quotes-value       the text quotes the value sent, when one was
  names-server-tool  the text names a tool of this server as the next step
  <rule>             the writing rules, as outcome-runtime checks them at
                     compile time: names-tool, known-tool, known-parameter,
                     no-lookup, no-type-name, no-path, no-stack-frame,
                     no-log-line, no-env-var, no-command, short
(Only the in-process audit, outcome_runtime::testing::audit, also checks
that each call was logged as tool_call_failed with outcome invalid.)

The report starts with a header line with the counts, then a line for each
thing the audit could not probe, with why, then one block per finding: the
tool and its mistake, the call sent as JSON, the text the model read, and
the expectation broken with what is wrong. What the server wrote is shown
bounded and with its control characters escaped, in error messages too.

Not probed: a tool or argument the audit makes no call for, because its
schema cannot be read (not an object, a $ref outside it or in a loop with
no way out, a pattern with no example), asks for more than the audit
builds (a string past 100,000 characters, a list past 1,000 items,
arguments past 256 KiB, nesting past 16 levels, more than 100,000 steps to
walk), or has a name past 128 characters; tools past the first 1,000, or
past 100 pages of the tool list. A report with any is NOT clean. An answer
longer than 16 KiB is checked on its first 16 KiB, and reported as too
long (short). The audit stops at 1,000 findings.

Options:
  --timeout <seconds>  stop when the whole audit takes longer, and print the
                       report so far (default 120)
  -h, --help           print this help

Exit status: 0 when every tool was probed and every answer meets every
expectation, 1 when the report has findings, 3 when it has none but some
tool or argument was not probed, 2 when the arguments are wrong, the server
cannot be reached or stops answering, or the audit ran out of time.";

enum Target {
    Command(Vec<String>),
    Url(String),
}

struct Options {
    target: Target,
    timeout: Duration,
}

fn parse(args: impl IntoIterator<Item = String>) -> Result<Option<Options>, String> {
    let mut args = args.into_iter();
    let mut timeout = Duration::from_secs(120);
    let mut target = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--timeout" => {
                let value = args.next().ok_or("--timeout needs a number of seconds")?;
                let seconds: f64 = value
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| {
                        format!("--timeout {value}: not a positive number of seconds")
                    })?;
                timeout = Duration::from_secs_f64(seconds);
            }
            "--" => {
                let command: Vec<String> = args.by_ref().collect();
                if command.is_empty() {
                    return Err("-- needs the command that starts the server".into());
                }
                target = Some(Target::Command(command));
            }
            url if url.starts_with("http://") || url.starts_with("https://") => {
                target = Some(Target::Url(url.to_owned()));
            }
            other => {
                return Err(format!(
                    "{other}: expected an http(s) URL, or -- and the server's command"
                ));
            }
        }
    }
    let target = target.ok_or("nothing to audit: give a URL, or -- and the server's command")?;
    Ok(Some(Options { target, timeout }))
}

/// The time left for the audit after it connects, from its whole
/// `--timeout`; after the deadline, a last moment to stop the server and
/// write the report.
const GRACE: Duration = Duration::from_secs(5);

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(problem) => {
            eprintln!("outcome-audit: {}\n\n{HELP}", shown_line(&problem));
            return ExitCode::from(2);
        }
    };
    let deadline = tokio::time::Instant::now() + options.timeout;
    let too_long = || {
        eprintln!(
            "outcome-audit: the audit took longer than {} seconds",
            options.timeout.as_secs_f64()
        );
    };
    // The audit stops itself at the deadline, even in the middle of a
    // schema; this bound is for what it does not control (stopping the
    // server).
    match tokio::time::timeout_at(deadline + GRACE, run(options.target, deadline)).await {
        Ok(Ok(report)) => {
            print!("{report}");
            if tokio::time::Instant::now() >= deadline {
                too_long();
                ExitCode::from(2)
            } else if report.is_clean() {
                ExitCode::SUCCESS
            } else if report.findings.is_empty() {
                ExitCode::from(3)
            } else {
                ExitCode::from(1)
            }
        }
        Ok(Err(problem)) => {
            eprintln!("outcome-audit: {problem}");
            ExitCode::from(2)
        }
        Err(_) => {
            too_long();
            ExitCode::from(2)
        }
    }
}

/// Connects, within the deadline: the server's part of any error is shown
/// as the report shows what a server wrote, bounded and escaped.
async fn run(target: Target, deadline: tokio::time::Instant) -> Result<AuditReport, String> {
    let late = || "the server did not start an MCP session in time".to_owned();
    match target {
        Target::Command(command) => {
            let program = shown_line(&command[0]);
            let mut process = tokio::process::Command::new(&command[0]);
            process.args(&command[1..]);
            let transport = TokioChildProcess::new(process)
                .map_err(|e| format!("cannot start {program}: {}", shown_line(&e.to_string())))?;
            let client = tokio::time::timeout_at(deadline, ().serve(transport))
                .await
                .map_err(|_| late())?
                .map_err(|e| {
                    format!(
                        "{program} did not start an MCP session: {}",
                        shown_line(&e.to_string())
                    )
                })?;
            let report = audit(client.peer(), deadline).await;
            let _ = client.cancel().await;
            report
        }
        Target::Url(url) => {
            let shown = shown_line(&url);
            if url.starts_with("https://") {
                return Err(format!(
                    "{shown}: this build speaks plain HTTP only; reach the server over \
                     http://, or launch it with --"
                ));
            }
            let transport = StreamableHttpClientTransport::from_uri(url.as_str());
            let client = tokio::time::timeout_at(deadline, ().serve(transport))
                .await
                .map_err(|_| late())?
                .map_err(|e| format!("{shown}: no MCP session: {}", shown_line(&e.to_string())))?;
            let report = audit(client.peer(), deadline).await;
            let _ = client.cancel().await;
            report
        }
    }
}

async fn audit(
    peer: &Peer<RoleClient>,
    deadline: tokio::time::Instant,
) -> Result<AuditReport, String> {
    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
    Audit::new().within(left).run(peer).await.map_err(|e| {
        format!(
            "the server stopped answering: {}",
            shown_line(&e.to_string())
        )
    })
}
