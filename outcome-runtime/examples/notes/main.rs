//! The notes server on stdio: `cargo run --example notes [-- --log-json] [-- --export]`.
//!
//! Any MCP client can launch it. Logs go to stderr; `--log-json` writes one
//! JSON object per line.

mod server;

use rmcp::ServiceExt;
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

const USAGE: &str = "usage: notes [--log-json] [--export]

Serves the notes MCP server on stdin and stdout.

  --log-json  write each log record to stderr as one JSON object per line
  --export    turn on the opt-in export_notes feature";

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

    let filter = Targets::new().with_default(LevelFilter::INFO);
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
