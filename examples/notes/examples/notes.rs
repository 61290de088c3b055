//! The notes server, on stdio or over streamable HTTP:
//! `cargo run --example notes [-- [--log-json] [--export] [--http <address>]
//! [--stateless] [--redis <redis-url>] [--jobs <redis-url>]
//! [--max-run <seconds>]]`.
//!
//! On stdio any MCP client can launch it. With `--http <address>` it serves
//! rmcp's streamable HTTP transport at `http://<address>/mcp`, many sessions
//! at once, until Ctrl-C. Every session shares one note store, as the
//! clients of one deployment expect: a note one client writes, another
//! reads. A job stays with its session: `job_status` reads it only in the
//! session that started it. With `--jobs redis://127.0.0.1:6379` (built
//! with the `redis` feature) the jobs live in Redis instead, where every
//! replica of the server that uses the same Redis answers every poll.
//! `--redis <url>` keeps the sessions there too, so that a session goes on
//! on any replica behind a round-robin load balancer; `--stateless` serves
//! every request on its own, with no session at all.
//!
//! Logs go to stderr; `--log-json` writes one JSON object per line.
//! `RUST_LOG` picks the records, as `target=level` directives
//! (`RUST_LOG=info,rmcp::service=error`); without it, INFO and above from
//! every target.

use std::env::VarError;
use std::error::Error;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

const USAGE: &str = "usage: notes [--log-json] [--export] [--http <address>] [--stateless]
             [--redis <redis-url>] [--jobs <redis-url>] [--max-run <seconds>]

Serves the notes MCP server on stdin and stdout, or, with --http, over
streamable HTTP at http://<address>/mcp.

  --http <address>  serve streamable HTTP on this address, for example
                    127.0.0.1:8080, until Ctrl-C; every session shares one
                    note store. Requests must name localhost, 127.0.0.1 or
                    ::1 as their host (rmcp's guard against DNS rebinding)
  --stateless       with --http, serve each request on its own, with no
                    session (rmcp's legacy_session_mode off): any replica
                    answers any request, and a job is read by its id alone
  --redis <url>     keep the jobs and, with --http, the sessions in the
                    Redis at this URL, for example redis://127.0.0.1:6379:
                    a session and its jobs go on on every replica that uses
                    it (needs the redis feature)
  --log-json        write each log record to stderr as one JSON object per
                    line
  --export          turn on the opt-in export_notes feature
  --jobs <url>      keep the jobs of long-running tools in the Redis at this
                    URL, for example redis://127.0.0.1:6379, shared by every
                    replica that uses it (needs the redis feature)
  --max-run <seconds>
                    how long a job may run before it ends as a fault, 600
                    unless set: a job whose replica died reads as that
                    fault once this has passed

Environment:
  RUST_LOG    which log records to write: target=level directives separated
              by commas, a bare level for every other target, for example
              info,rmcp::service=error; INFO and above when unset";

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let mut log_json = false;
    let mut export = false;
    let mut http = None;
    let mut jobs = None;
    let mut sessions = None;
    let mut stateless = false;
    let mut max_run = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--log-json" => log_json = true,
            "--export" => export = true,
            "--http" => match args.next() {
                Some(address) => http = Some(address),
                None => {
                    eprintln!("--http needs an address, such as 127.0.0.1:8080\n\n{USAGE}");
                    std::process::exit(2);
                }
            },
            "--stateless" => stateless = true,
            "--max-run" => match args.next().and_then(|seconds| seconds.parse().ok()) {
                Some(seconds) => max_run = Some(Duration::from_secs(seconds)),
                None => {
                    eprintln!("--max-run needs a whole number of seconds, such as 600\n\n{USAGE}");
                    std::process::exit(2);
                }
            },
            "--redis" => match args.next() {
                Some(url) => {
                    jobs = Some(("--redis", url.clone()));
                    sessions = Some(url);
                }
                None => {
                    eprintln!(
                        "--redis needs a Redis URL, such as redis://127.0.0.1:6379\n\n{USAGE}"
                    );
                    std::process::exit(2);
                }
            },
            "--jobs" => match args.next() {
                Some(url) => jobs = Some(("--jobs", url)),
                None => {
                    eprintln!(
                        "--jobs needs a Redis URL, such as redis://127.0.0.1:6379\n\n{USAGE}"
                    );
                    std::process::exit(2);
                }
            },
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
    // Stdout is the MCP channel of a stdio server: a log line there is a
    // broken message to the client. The log goes to stderr.
    let fmt = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false);
    if log_json {
        // JSON escapes every value by itself.
        let json = fmt
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false);
        tracing_subscriber::registry()
            .with(json)
            .with(filter)
            .init();
    } else {
        // A client's request id must not start a line in rmcp's records.
        tracing_subscriber::registry()
            .with(fmt.fmt_fields(notes::log::escaped_fields()))
            .with(filter)
            .init();
    }

    // Failures of the server itself go to the log too, so that `--log-json`
    // output stays one JSON object per line.
    let mut notes = notes::Notes::new(export);
    let jobs = match jobs {
        Some((flag, url)) => match redis_jobs(&url) {
            Ok(jobs) => Some(jobs),
            Err(error) => {
                eprintln!("{flag} {url}: {error}\n\n{USAGE}");
                std::process::exit(2);
            }
        },
        None => (max_run.is_some() || stateless).then(outcome_runtime::Jobs::new),
    };
    if let Some(jobs) = jobs {
        // Without sessions (`--stateless`) a job is bound to none, and its
        // id alone reads it: the runtime reads the mode from each request.
        notes = notes.with_jobs(match max_run {
            Some(max_run) => jobs.with_max_run(max_run),
            None => jobs,
        });
    }
    let served = match http {
        None => serve_stdio(notes).await,
        Some(address) => {
            let config = StreamableHttpServerConfig::default().with_legacy_session_mode(!stateless);
            let token = config.cancellation_token.clone();
            let stop = move || token.cancel();
            let router = match mcp_router(Arc::new(notes), config, sessions.as_deref()) {
                Ok(router) => router,
                Err(error) => {
                    eprintln!("--redis: {error}\n\n{USAGE}");
                    std::process::exit(2);
                }
            };
            serve_http(&address, router, stop).await
        }
    };
    if let Err(error) = served {
        tracing::error!(error = %error, "server_stopped");
        std::process::exit(1);
    }
    Ok(())
}

/// Jobs in the Redis at `url`.
#[cfg(feature = "redis")]
fn redis_jobs(url: &str) -> Result<outcome_runtime::Jobs, String> {
    outcome_runtime::Jobs::redis(url).map_err(|error| match error.source() {
        Some(cause) => format!("{error}: {cause}"),
        None => error.to_string(),
    })
}

/// The streamable HTTP service at `/mcp`: its sessions in memory, or, with
/// the Redis URL `redis`, also in Redis, so that every replica serves them.
#[cfg(feature = "redis")]
fn mcp_router(
    notes: Arc<notes::Notes>,
    mut config: StreamableHttpServerConfig,
    redis: Option<&str>,
) -> Result<axum::Router, String> {
    let factory = move || Ok(notes.clone());
    let Some(url) = redis else {
        let service =
            StreamableHttpService::new(factory, Arc::new(LocalSessionManager::default()), config);
        return Ok(axum::Router::new().nest_service("/mcp", service));
    };
    let store =
        outcome_runtime::session_store::RedisSessionStore::open(url).map_err(
            |error| match error.source() {
                Some(cause) => format!("{error}: {cause}"),
                None => error.to_string(),
            },
        )?;
    config.session_store = Some(Arc::new(store.clone()));
    // A session the client ended on another replica ends here too.
    let sessions =
        outcome_runtime::session_store::SessionsInRedis::new(LocalSessionManager::default(), store);
    let service = StreamableHttpService::new(factory, Arc::new(sessions), config);
    Ok(axum::Router::new().nest_service("/mcp", service))
}

/// The streamable HTTP service at `/mcp`, its sessions in memory: sessions
/// in Redis need the `redis` feature.
#[cfg(not(feature = "redis"))]
fn mcp_router(
    notes: Arc<notes::Notes>,
    config: StreamableHttpServerConfig,
    redis: Option<&str>,
) -> Result<axum::Router, String> {
    if redis.is_some() {
        return Err(
            "this build has no Redis session store: build it with --features redis".to_owned(),
        );
    }
    let service = StreamableHttpService::new(
        move || Ok(notes.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    Ok(axum::Router::new().nest_service("/mcp", service))
}

/// Jobs in Redis need the `redis` feature.
#[cfg(not(feature = "redis"))]
fn redis_jobs(_url: &str) -> Result<outcome_runtime::Jobs, String> {
    Err("this build has no Redis job store: build it with --features redis".to_owned())
}

/// Serves one client on stdin and stdout until it goes away.
async fn serve_stdio(notes: notes::Notes) -> Result<(), Box<dyn Error>> {
    let server = notes.serve(rmcp::transport::stdio()).await?;
    server.waiting().await?;
    Ok(())
}

/// Serves streamable HTTP at `/mcp` on `address` until Ctrl-C.
///
/// Every session gets the same `Notes`, so all share its note store and
/// version counter; its jobs tell the sessions apart by themselves.
///
/// `stop` cancels the service's token on Ctrl-C: it ends every session and
/// closes their open event streams, which the graceful shutdown would
/// otherwise wait on.
async fn serve_http(
    address: &str,
    router: axum::Router,
    stop: impl FnOnce() + Send + 'static,
) -> Result<(), Box<dyn Error>> {
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|error| format!("cannot listen on {address}: {error}"))?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    tracing::info!(url = %url, "server_listening");
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            if let Err(error) = tokio::signal::ctrl_c().await {
                // No Ctrl-C to wait for: serve until the process is killed.
                tracing::warn!(error = %error, "no_ctrl_c_handler");
                std::future::pending::<()>().await;
            }
            tracing::info!("server_stopping");
            stop();
        })
        .await?;
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
