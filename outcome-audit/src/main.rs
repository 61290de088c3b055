//! `outcome-audit`: the audit of `outcome_runtime::testing::audit`, for a
//! server in any language, reached over stdio or streamable HTTP.

#![forbid(unsafe_code)]

use std::process::ExitCode;
use std::time::Duration;

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

The report starts with a header line with the counts, then one block per
finding: the tool and its mistake, the call sent as JSON, the text the
model read, and the expectation broken with what is wrong.

Options:
  --timeout <seconds>  give up when the whole audit takes longer (default 120)
  -h, --help           print this help

Exit status: 0 when every answer meets every expectation, 1 when the report
has findings, 2 when the arguments are wrong or the server cannot be reached.";

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

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(problem) => {
            eprintln!("outcome-audit: {problem}\n\n{HELP}");
            return ExitCode::from(2);
        }
    };
    match tokio::time::timeout(options.timeout, run(options.target)).await {
        Ok(Ok(report)) => {
            print!("{report}");
            if report.is_clean() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Ok(Err(problem)) => {
            eprintln!("outcome-audit: {problem}");
            ExitCode::from(2)
        }
        Err(_) => {
            eprintln!(
                "outcome-audit: the audit took longer than {} seconds",
                options.timeout.as_secs_f64()
            );
            ExitCode::from(2)
        }
    }
}

async fn run(target: Target) -> Result<outcome_runtime::testing::AuditReport, String> {
    match target {
        Target::Command(command) => {
            let mut process = tokio::process::Command::new(&command[0]);
            process.args(&command[1..]);
            let transport = TokioChildProcess::new(process)
                .map_err(|e| format!("cannot start {}: {e}", command[0]))?;
            let client = ()
                .serve(transport)
                .await
                .map_err(|e| format!("{} did not start an MCP session: {e}", command[0]))?;
            let report = audit(client.peer()).await;
            let _ = client.cancel().await;
            report
        }
        Target::Url(url) => {
            if url.starts_with("https://") {
                return Err(format!(
                    "{url}: this build speaks plain HTTP only; reach the server over \
                     http://, or launch it with --"
                ));
            }
            let transport = StreamableHttpClientTransport::from_uri(url.as_str());
            let client =
                ().serve(transport)
                    .await
                    .map_err(|e| format!("{url}: no MCP session: {e}"))?;
            let report = audit(client.peer()).await;
            let _ = client.cancel().await;
            report
        }
    }
}

async fn audit(peer: &Peer<RoleClient>) -> Result<outcome_runtime::testing::AuditReport, String> {
    outcome_runtime::testing::audit_client(peer)
        .await
        .map_err(|e| format!("the server stopped answering: {e}"))
}
