//! `outcome-audit`: the audit of this crate's library (which
//! `outcome_runtime::testing::audit` runs too), for a server in any
//! language, reached over stdio or streamable HTTP.

#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{ExitCode, Stdio};
use std::time::Duration;

use http::{HeaderName, HeaderValue};
use outcome_audit::{Audit, AuditReport, ValidCalls, shown_line};
use rmcp::ServiceExt;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use tokio::time::Instant;

mod json;

const HELP: &str = "\
usage: outcome-audit [<option>..] -- <command> [<argument>..]
       outcome-audit [<option>..] <url>

Audits an MCP server: lists its tools, calls each one the way a model gets
it wrong, and checks every answer. The first form starts <command> and
speaks MCP with it over stdin and stdout; the second connects to the
streamable HTTP endpoint at <url>, such as http://127.0.0.1:8080/mcp or
https://mcp.example.com/mcp.

The calls, derived from each tool's input schema, one mistake each: a
required argument left out, or sent as null; an argument of the wrong JSON
type; a value outside its enum, its minimum or maximum, its
exclusiveMinimum or exclusiveMaximum, its minLength or maxLength; a string
outside its pattern or its format; and a key the schema does not declare,
when the schema sets additionalProperties to false. A server refuses these
before the tool runs. A tool that takes no arguments cannot be called
wrong: it gets none of these. Besides, each tool annotated read-only (readOnlyHint) gets one call
its schema accepts, its strings sent as no-such-audit-value: a path, an
id, a name the server does not hold. That call runs the tool and reaches
its author's own words; a result is a fine answer, a failure must be
isError, not a fault, and keep to the writing rules. With
--run-every-tool every tool gets that call: audit a server whose data may
change.

Each tool's description in the tool list is checked too:
description-missing, description-too-long (past 2,048 UTF-16 code units,
which clients drop) and description-lists-failures.

Each answer must be:
  is-error           a result with isError true: not a success, not a
                     JSON-RPC error (which many clients never show the model)
  not-fault          not the message of a server failure: the request was
                     wrong, and the text must say so
  names-argument     the text names the argument that is wrong
  quotes-value       the text quotes the value sent, when one was
  <rule>             the writing rules, as outcome-runtime checks them at
                     compile time: names-tool (the last sentence names the
                     tool to call next; the tool that failed is no step),
                     known-tool, known-parameter, no-lookup, no-type-name,
                     no-path, no-stack-frame, no-log-line, no-env-var,
                     no-command, short
(Only the in-process audit, outcome_runtime::testing::audit, also checks
that each call was logged as tool_call_failed with outcome invalid.)

An answer is not judged, and is listed with why, when it is about
something else than the call's mistake: an argument the call did not get
wrong (the server refused the audit's baseline value), a client capability
the audit does not offer (-32021), or a fault that heals itself. A tool
that answers -32601 (one that must run as a task) is not probed further.

The report starts with a header line with the counts, a line for each
reason it is not clean, then a summary by rule, by tool and by heading
(every tool of the tool list is under exactly one: run, not run, not
probed, not judged), then a line for each thing the audit did not probe,
run or judge, with why, then one block per defect: findings of one rule whose
texts share one template (a validator's message over many calls and
tools) are one defect, shown with the calls and tools that show it and one
example: the tool and its mistake, the call sent as JSON, the text the
model read. What the server wrote is shown
bounded and with its control characters escaped, in error messages too.
With --format json, the same report is one JSON document (format 1, see
the README): its fields may be added to, never renamed or removed.

Not probed: a tool or argument the audit makes no call for, because its
schema cannot be read (not an object, a $ref outside it or in a loop with
no way out, a pattern the audit builds no string for), holds itself with
no object or list between (an untagged enum with a variant of itself,
which a server's reader may go round until its stack overflows: it is
sent no value), asks for more than the audit
builds (a string past 100,000 characters, a list past 1,000 items,
arguments past 256 KiB, nesting past 32 levels, more than 100,000 steps to
walk), or has a name past 128 characters; tools past the first 1,000, or
past 100 pages of the tool list; and a call with no answer within
--call-timeout. A report with any, or with no answer judged, is NOT
clean. An answer longer than
16 KiB is checked on its first 16 KiB, and reported as too long (short).
The audit stops at 1,000 findings.

Options:
  --format text|json        the report as text (the default), or as one JSON
                            document
  --timeout <seconds>       stop when the whole audit takes longer, and print
                            the report so far (default 120)
  --call-timeout <seconds>  cancel a call with no answer within it, report
                            it as not probed, and go on (default 30)
  --init-timeout <seconds>  give up on a server that does not answer
                            initialize within it (default 10)
  --header '<name>: <value>'
                            send this header on every HTTP request, such as
                            'Authorization: Bearer <token>' (repeatable; a
                            URL only)
  --run-every-tool          give every tool the call its schema accepts, not
                            only those annotated read-only: the tools run
  --server-stderr <file>    write the stderr of the server started with --
                            to <file>; without it, the stderr is dropped
  -h, --help                print this help

The server started with -- runs in a process group of its own. On its way
out, whichever way (a report, an error, a timeout, Ctrl-C), the audit
closes the server's stdin and kills the group: no process the server
started is left running.

Exit status:
  0    every tool was probed and every answer meets every expectation
  1    the report has findings
  2    the arguments are wrong: nothing was audited
  3    no findings, but some tool or argument was not probed, or no
       answer was judged
  4    the server could not be started or reached, did not answer
       initialize within --init-timeout, stopped answering, or the audit
       ran out of --timeout (the report so far is printed)
  130  interrupted (SIGINT, as Ctrl-C sends, or SIGTERM): the server was
       stopped, and no report is printed";

/// The exit statuses `--help` lists.
mod status {
    pub const CLEAN: u8 = 0;
    pub const FINDINGS: u8 = 1;
    pub const USAGE: u8 = 2;
    pub const NOT_PROBED: u8 = 3;
    pub const UNREACHABLE: u8 = 4;
    pub const INTERRUPTED: u8 = 130;
}

/// Headers the HTTP transport sets itself.
const RESERVED_HEADERS: [&str; 4] = [
    "accept",
    "mcp-session-id",
    "mcp-protocol-version",
    "last-event-id",
];

enum Target {
    Command(Vec<String>),
    Url(String),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

struct Options {
    target: Target,
    format: Format,
    timeout: Duration,
    call_timeout: Duration,
    init_timeout: Duration,
    headers: HashMap<HeaderName, HeaderValue>,
    server_stderr: Option<PathBuf>,
    valid_calls: ValidCalls,
}

/// A number of seconds, the value of `option`.
fn seconds(option: &str, value: Option<String>) -> Result<Duration, String> {
    let value = value.ok_or_else(|| format!("{option} needs a number of seconds"))?;
    value
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s < 1e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{option} {value}: not a positive number of seconds"))
}

/// `Name: value`, as `--header` takes it. An error names the header, never
/// its value: the value is a token as often as not.
fn header(text: &str) -> Result<(HeaderName, HeaderValue), String> {
    let (name, value) = text
        .split_once(':')
        .ok_or("--header needs a name, a colon and a value: --header 'X-Api-Key: ...'")?;
    let name = name.trim();
    let parsed = HeaderName::from_bytes(name.as_bytes())
        .map_err(|_| format!("--header {}: not a header name", shown_line(name)))?;
    if RESERVED_HEADERS.contains(&parsed.as_str()) {
        return Err(format!(
            "--header {parsed}: the HTTP transport sets this header itself"
        ));
    }
    let value = HeaderValue::from_str(value.trim()).map_err(|_| {
        format!(
            "--header {parsed}: its value has a character a header cannot carry (a control \
             character)"
        )
    })?;
    Ok((parsed, value))
}

fn parse(args: impl IntoIterator<Item = String>) -> Result<Option<Options>, String> {
    let mut args = args.into_iter();
    let mut options = Options {
        target: Target::Url(String::new()),
        format: Format::Text,
        timeout: Duration::from_secs(120),
        call_timeout: Duration::from_secs(30),
        init_timeout: Duration::from_secs(10),
        headers: HashMap::new(),
        server_stderr: None,
        valid_calls: ValidCalls::ReadOnly,
    };
    let mut target = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--timeout" => options.timeout = seconds(&arg, args.next())?,
            "--call-timeout" => options.call_timeout = seconds(&arg, args.next())?,
            "--init-timeout" => options.init_timeout = seconds(&arg, args.next())?,
            "--run-every-tool" => options.valid_calls = ValidCalls::Every,
            "--format" => {
                options.format = match args.next().as_deref() {
                    Some("text") => Format::Text,
                    Some("json") => Format::Json,
                    Some(other) => {
                        return Err(format!(
                            "--format {}: expected text or json",
                            shown_line(other)
                        ));
                    }
                    None => return Err("--format needs text or json".into()),
                };
            }
            "--header" => {
                let text = args.next().ok_or("--header needs 'Name: value'")?;
                let (name, value) = header(&text)?;
                if options.headers.insert(name.clone(), value).is_some() {
                    return Err(format!(
                        "--header {name} is given twice: a header is sent with one value"
                    ));
                }
            }
            "--server-stderr" => {
                let file = args.next().ok_or("--server-stderr needs a file")?;
                options.server_stderr = Some(PathBuf::from(file));
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
    options.target =
        target.ok_or("nothing to audit: give a URL, or -- and the server's command")?;
    match options.target {
        Target::Url(_) if options.server_stderr.is_some() => {
            Err("--server-stderr is for a server started with --, not one at a URL".into())
        }
        Target::Command(_) if !options.headers.is_empty() => {
            Err("--header is for a server at a URL, not one started with --".into())
        }
        _ => Ok(Some(options)),
    }
}

/// The time left for the audit after it connects, from its whole
/// `--timeout`; after the deadline, a last moment to stop the server and
/// write the report.
const GRACE: Duration = Duration::from_secs(5);

/// How the audit ended.
enum Ended {
    /// With a report; `late` when the whole run timed out first.
    Report { report: AuditReport, late: bool },
    /// Without one: the server could not be reached, or stopped answering.
    Unreachable(String),
    /// By a signal, named.
    Interrupted(&'static str),
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(problem) => {
            eprintln!("outcome-audit: {}\n\n{HELP}", shown_line(&problem));
            return ExitCode::from(status::USAGE);
        }
    };
    let stderr = match &options.server_stderr {
        None => Stdio::null(),
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => Stdio::from(file),
            Err(error) => {
                eprintln!(
                    "outcome-audit: --server-stderr {}: {}",
                    shown_line(&path.display().to_string()),
                    shown_line(&error.to_string())
                );
                return ExitCode::from(status::USAGE);
            }
        },
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("outcome-audit: no runtime: {error}");
            return ExitCode::from(status::UNREACHABLE);
        }
    };
    // Whatever ends the audit, the server's process group ends with it: on
    // the way out of `run`, or when this guard drops (a panic included).
    let mut group = ServerGroup::default();
    let ended = runtime.block_on(run(&options, stderr, &mut group));
    group.end();
    // What the server's transport still holds is let go of, not waited for.
    runtime.shutdown_timeout(GRACE);
    finish(&options, ended)
}

/// The audit, or the signal that stops it.
async fn run(options: &Options, stderr: Stdio, group: &mut ServerGroup) -> Ended {
    let signals = Signals::new();
    tokio::select! {
        biased;
        signal = signals.received() => Ended::Interrupted(signal),
        ended = audit(options, stderr, group) => ended,
    }
}

/// Prints the report, or what stopped it, and says how the audit ended.
fn finish(options: &Options, ended: Ended) -> ExitCode {
    let (report, late) = match ended {
        Ended::Report { report, late } => (report, late),
        Ended::Unreachable(problem) => {
            eprintln!("outcome-audit: {problem}");
            return ExitCode::from(status::UNREACHABLE);
        }
        Ended::Interrupted(signal) => {
            eprintln!("outcome-audit: interrupted ({signal}); the server was stopped");
            return ExitCode::from(status::INTERRUPTED);
        }
    };
    let text = match options.format {
        Format::Text => report.to_string(),
        Format::Json => json::json(&report),
    };
    // A reader that stops early (`| head`) is no failure of the audit.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    if late {
        eprintln!(
            "outcome-audit: the audit took longer than {} seconds",
            options.timeout.as_secs_f64()
        );
        ExitCode::from(status::UNREACHABLE)
    } else if report.is_clean() {
        ExitCode::from(status::CLEAN)
    } else if report.findings.is_empty() {
        ExitCode::from(status::NOT_PROBED)
    } else {
        ExitCode::from(status::FINDINGS)
    }
}

/// Connects, audits within the deadline and disconnects: the server's part
/// of any error is shown as the report shows what a server wrote, bounded
/// and escaped.
async fn audit(options: &Options, stderr: Stdio, group: &mut ServerGroup) -> Ended {
    let deadline = Instant::now() + options.timeout;
    // The audit stops itself at the deadline, even in the middle of a
    // schema; this bound is for what it does not control (stopping the
    // server).
    let ended = tokio::time::timeout_at(deadline + GRACE, async {
        let client = match connect(options, stderr, group, deadline).await {
            Ok(client) => client,
            Err(problem) => return Ended::Unreachable(problem),
        };
        let left = deadline.saturating_duration_since(Instant::now());
        let report = Audit::new()
            .within(left)
            .call_timeout(options.call_timeout)
            .valid_calls(options.valid_calls)
            .run(client.peer())
            .await;
        // Closes the server's stdin, or ends the HTTP session.
        let _ = client.cancel().await;
        match report {
            Ok(report) => Ended::Report {
                report,
                late: Instant::now() >= deadline,
            },
            Err(error) => Ended::Unreachable(format!(
                "the server stopped answering: {}",
                shown_line(&error.to_string())
            )),
        }
    })
    .await;
    ended.unwrap_or_else(|_| {
        Ended::Unreachable(format!(
            "the audit took longer than {} seconds",
            options.timeout.as_secs_f64()
        ))
    })
}

/// The MCP session with the server, started within `--init-timeout` and
/// the deadline.
async fn connect(
    options: &Options,
    stderr: Stdio,
    group: &mut ServerGroup,
    deadline: Instant,
) -> Result<RunningService<RoleClient, ()>, String> {
    let init_deadline = deadline.min(Instant::now() + options.init_timeout);
    let late = |what: &str| {
        if init_deadline < deadline {
            format!(
                "{what} did not answer initialize within {} seconds: is it an MCP server{}?",
                options.init_timeout.as_secs_f64(),
                match options.target {
                    Target::Command(_) => " that speaks on stdin and stdout",
                    Target::Url(_) => "",
                }
            )
        } else {
            format!("{what} did not start an MCP session in time")
        }
    };
    match &options.target {
        Target::Command(command) => {
            let program = shown_line(&command[0]);
            let mut process = tokio::process::Command::new(&command[0]);
            process.args(&command[1..]);
            #[cfg(unix)]
            process.process_group(0);
            let (transport, _) = TokioChildProcess::builder(process)
                .stderr(stderr)
                .spawn()
                .map_err(|e| format!("cannot start {program}: {}", shown_line(&e.to_string())))?;
            group.started(transport.id());
            let hint = if options.server_stderr.is_some() {
                ""
            } else {
                " (its stderr was dropped: --server-stderr <file> keeps it)"
            };
            tokio::time::timeout_at(init_deadline, ().serve(transport))
                .await
                .map_err(|_| late(&program))?
                .map_err(|e| {
                    format!(
                        "{program} did not start an MCP session: {}{hint}",
                        shown_line(&chain(&e))
                    )
                })
        }
        Target::Url(url) => {
            let shown = shown_line(url);
            let config = StreamableHttpClientTransportConfig::with_uri(url.as_str())
                .custom_headers(options.headers.clone());
            let transport = StreamableHttpClientTransport::from_config(config);
            tokio::time::timeout_at(init_deadline, ().serve(transport))
                .await
                .map_err(|_| late(&shown))?
                .map_err(|e| format!("{shown}: no MCP session: {}", shown_line(&chain(&e))))
        }
    }
}

/// An error and its sources, each once, on one line.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// The process group of the server started with `--`: its pid, which with
/// `process_group(0)` is the group's id.
#[derive(Default)]
struct ServerGroup(Option<u32>);

impl ServerGroup {
    fn started(&mut self, pid: Option<u32>) {
        self.0 = pid;
    }

    /// Kills every process left in the group: the server, and whatever it
    /// started and left behind.
    fn end(&mut self) {
        let Some(pid) = self.0.take() else { return };
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(pid) {
            use nix::sys::signal::{Signal, killpg};
            // None left (the group ended with the server) is fine.
            let _ = killpg(nix::unistd::Pid::from_raw(pid), Signal::SIGKILL);
        }
        #[cfg(not(unix))]
        let _ = pid;
    }
}

impl Drop for ServerGroup {
    fn drop(&mut self) {
        self.end();
    }
}

/// SIGINT and SIGTERM, listened for from the start, before the server is
/// started.
struct Signals {
    #[cfg(unix)]
    interrupt: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    terminate: Option<tokio::signal::unix::Signal>,
}

impl Signals {
    fn new() -> Self {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Self {
                interrupt: signal(SignalKind::interrupt()).ok(),
                terminate: signal(SignalKind::terminate()).ok(),
            }
        }
        #[cfg(not(unix))]
        Self {}
    }

    /// The first signal received, named.
    async fn received(mut self) -> &'static str {
        #[cfg(unix)]
        {
            async fn next(signal: Option<&mut tokio::signal::unix::Signal>) {
                match signal {
                    Some(signal) => {
                        signal.recv().await;
                    }
                    None => std::future::pending().await,
                }
            }
            tokio::select! {
                () = next(self.interrupt.as_mut()) => "SIGINT",
                () = next(self.terminate.as_mut()) => "SIGTERM",
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "Ctrl-C"
        }
    }
}
