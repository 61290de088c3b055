//! `outcome-audit`: the audit of this crate's library (which
//! `outcome_runtime::testing::audit` runs too), for a server in any
//! language, reached over stdio or streamable HTTP.

#![forbid(unsafe_code)]

use std::io::Write;
use std::process::{ExitCode, Stdio};
use std::time::Duration;

use outcome_audit::{Audit, AuditReport, shown_line};
use rmcp::ServiceExt;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use tokio::time::Instant;

mod cli;
mod json;

use cli::{Format, Options, Target};

/// The exit statuses `--help` lists.
mod status {
    pub const CLEAN: u8 = 0;
    pub const FINDINGS: u8 = 1;
    pub const USAGE: u8 = 2;
    pub const NOT_PROBED: u8 = 3;
    pub const UNREACHABLE: u8 = 4;
    pub const INTERRUPTED: u8 = 130;
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
    let options = match cli::parse(std::env::args_os()) {
        Ok(options) => options,
        Err(error) => {
            // clap prints `--help` and `--version` on stdout, and an error
            // on stderr with a short usage; the status is the audit's own.
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() {
                status::USAGE
            } else {
                status::CLEAN
            });
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
            let program = shown_line(&command[0].to_string_lossy());
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
