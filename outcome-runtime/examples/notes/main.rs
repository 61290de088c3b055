//! The notes server on stdio: `cargo run --example notes [-- --log-json] [-- --export]`.
//!
//! Any MCP client can launch it. Logs go to stderr; `--log-json` writes one
//! JSON object per line. `RUST_LOG` picks the records, as `target=level`
//! directives (`RUST_LOG=info,rmcp::service=error`); without it, INFO and
//! above from every target.

mod server;

use std::env::VarError;

use rmcp::ServiceExt;
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

const USAGE: &str = "usage: notes [--log-json] [--export]

Serves the notes MCP server on stdin and stdout.

  --log-json  write each log record to stderr as one JSON object per line
  --export    turn on the opt-in export_notes feature

Environment:
  RUST_LOG    which log records to write: target=level directives separated
              by commas, a bare level for every other target, for example
              info,rmcp::service=error; INFO and above when unset";

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut log_json = false;
    let mut export = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--log-json" => log_json = true,
            "--export" => export = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => {
                eprintln!("unknown argument {other:?}\n\n{USAGE}");
                std::process::exit(2);
            }
        }
    }

    let filter = match log_filter(std::env::var("RUST_LOG")) {
        Ok(filter) => filter,
        Err(error) => {
            eprintln!("{error}\n\n{USAGE}");
            std::process::exit(2);
        }
    };
    let fmt = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false);
    if log_json {
        let json = fmt
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false);
        tracing_subscriber::registry()
            .with(json)
            .with(filter)
            .init();
    } else {
        tracing_subscriber::registry().with(fmt).with(filter).init();
    }

    // Failures of the server itself go to the log too, so that `--log-json`
    // output stays one JSON object per line.
    let served = async {
        let server = server::Notes::new(export)
            .serve(rmcp::transport::stdio())
            .await?;
        server.waiting().await?;
        Ok::<_, Box<dyn std::error::Error>>(())
    };
    if let Err(error) = served.await {
        tracing::error!(error = %error, "server_stopped");
        std::process::exit(1);
    }
    Ok(())
}

/// The log filter `RUST_LOG` asks for, or INFO and above from every target
/// when it is unset or empty.
///
/// `Targets` reads the `target=level` directives `RUST_LOG` usually holds
/// without pulling in a regex engine, as `EnvFilter` would; span and field
/// filters are the only part of `EnvFilter`'s syntax it lacks.
fn log_filter(rust_log: Result<String, VarError>) -> Result<Targets, String> {
    let everything = Targets::new().with_default(LevelFilter::INFO);
    let value = match rust_log {
        Ok(value) => value,
        Err(VarError::NotPresent) => return Ok(everything),
        Err(VarError::NotUnicode(value)) => {
            return Err(format!("RUST_LOG is not valid UTF-8: {value:?}"));
        }
    };
    // An empty directive would read as a target that matches everything at
    // TRACE: skip them, so that `RUST_LOG=` and a trailing comma mean nothing.
    let directives: Vec<&str> = value
        .split(',')
        .map(str::trim)
        .filter(|directive| !directive.is_empty())
        .collect();
    if directives.is_empty() {
        return Ok(everything);
    }
    directives
        .join(",")
        .parse()
        .map_err(|error| format!("RUST_LOG={value:?}: {error}"))
}
