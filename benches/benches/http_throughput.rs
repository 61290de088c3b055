//! One server over rmcp's streamable HTTP, stateless, for `wrk` to load:
//! `benches/throughput.sh` starts it once per server and round, and
//! compares the requests per second of the wrapped server with those of
//! bare rmcp writing an equal log line by hand.
//!
//! `BENCH_SERVER` chooses the server: `wrapped` (the default; this crate's
//! boundary and request log), `bare_timed` (rmcp alone, its tool timing
//! itself and writing the line the request log writes for a result) or
//! `bare_spanned` (the same, inside a span equal to the request log's,
//! opened by hand: under `fmt`, a line equal to the wrapped server's).
//! `BENCH_ADDR` is the address to listen on (default `127.0.0.1:0`, a free
//! port); the first line on stdout is the endpoint's URL. `BENCH_LOG` is
//! the file the log goes to (default `/dev/null`): both servers write
//! through the same subscriber, so the log costs each the same per line.
//! `BENCH_LOG_FILTER` is its filter, as `target=level` directives (default
//! `info`): rmcp writes three lines of its own at INFO for every stateless
//! request, which `info,rmcp=warn` leaves out.
//!
//! Requests use the stateless lifecycle of protocol 2026-07-28: no
//! `initialize`, every `tools/call` carrying its protocol version and the
//! client's capabilities in `_meta`, and its method and tool in the
//! `Mcp-Method` and `Mcp-Name` headers; each is answered with one JSON
//! body.

use std::io::Write;
use std::sync::Arc;

use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// The two servers, each with one tool, `echo`, that takes no arguments.
mod servers {
    use outcome_runtime::{ToolError, tool, tool_handler, tool_router};
    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::model::NumberOrString;
    use rmcp::service::RequestContext;
    use rmcp::{RoleServer, ServerHandler};

    /// Wrapped in the boundary, served with the request log.
    #[derive(Clone)]
    pub struct Wrapped;

    #[tool_router]
    impl Wrapped {
        /// Return a number as text.
        #[tool]
        pub fn echo(&self) -> Result<String, ToolError> {
            Ok("42".to_owned())
        }
    }

    #[tool_handler]
    impl ServerHandler for Wrapped {}

    /// rmcp alone, with the router in a field.
    #[derive(Clone)]
    pub struct BareTimed {
        pub tool_router: ToolRouter<BareTimed>,
    }

    #[rmcp::tool_router(vis = "pub")]
    impl BareTimed {
        #[rmcp::tool(
            description = "Return a number as text, and log a line with the call's real duration."
        )]
        pub fn echo(&self) -> Result<String, ToolError> {
            // What a request log written by hand measures, and the fields
            // of the request log's `tool_call_completed`.
            let started = std::time::Instant::now();
            let text = "42".to_owned();
            let elapsed = started.elapsed();
            tracing::info!(
                target: "outcome_runtime",
                tool = "echo",
                outcome = "result",
                duration_ms = elapsed.as_secs_f64() * 1000.0,
                "tool_call_completed"
            );
            Ok(text)
        }
    }

    #[rmcp::tool_handler(router = self.tool_router)]
    impl ServerHandler for BareTimed {}

    /// rmcp alone, its tool opening by hand the span the request log opens
    /// (the same name, fields and values) and writing the same line in it:
    /// with a `fmt` subscriber, a line equal to the wrapped server's, span
    /// and all.
    #[derive(Clone)]
    pub struct BareSpanned {
        pub tool_router: ToolRouter<BareSpanned>,
    }

    #[rmcp::tool_router(vis = "pub")]
    impl BareSpanned {
        #[rmcp::tool(
            description = "Return a number as text, and log a line with the call's real duration."
        )]
        pub fn echo(&self, context: RequestContext<RoleServer>) -> Result<String, ToolError> {
            let started = std::time::Instant::now();
            let parts = context.extensions.get::<http::request::Parts>();
            let request = match &context.id {
                NumberOrString::Number(number) => number.to_string(),
                NumberOrString::String(text) => text.to_string(),
            };
            let version = context.protocol_version();
            let span = tracing::info_span!(
                target: "outcome_runtime",
                parent: None,
                "tools/call",
                otel.name = "tools/call echo",
                otel.kind = "server",
                otel.status_code = tracing::field::Empty,
                mcp.method.name = "tools/call",
                gen_ai.operation.name = "execute_tool",
                gen_ai.tool.name = "echo",
                jsonrpc.request.id = request.as_str(),
                mcp.session.id = parts
                    .and_then(|parts| parts.headers.get("mcp-session-id"))
                    .and_then(|value| value.to_str().ok()),
                mcp.protocol.version = version.as_ref().map(|version| version.as_str()),
                network.transport = if parts.is_some() { "tcp" } else { "pipe" },
                network.protocol.name = parts.map(|_| "http"),
                network.protocol.version = parts.map(|_| "1.1"),
                error.type = tracing::field::Empty,
                rpc.response.status_code = tracing::field::Empty,
                outcome_runtime.outcome = tracing::field::Empty,
            );
            let _inside = span.enter();
            let text = "42".to_owned();
            let elapsed = started.elapsed();
            tracing::info!(
                target: "outcome_runtime",
                tool = "echo",
                outcome = "result",
                duration_ms = elapsed.as_secs_f64() * 1000.0,
                "tool_call_completed"
            );
            span.record("outcome_runtime.outcome", "result");
            Ok(text)
        }
    }

    #[rmcp::tool_handler(router = self.tool_router)]
    impl ServerHandler for BareSpanned {}
}

use servers::{BareSpanned, BareTimed, Wrapped};

/// Serves `server` at `/mcp` on `listener`, statelessly, until the process
/// is killed. Every request gets the same `Arc`: the factory runs per
/// request, and a router built there would be measured too.
async fn serve<S: rmcp::ServerHandler>(server: S, listener: tokio::net::TcpListener) {
    let server = Arc::new(server);
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true);
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(NeverSessionManager::default()),
        config,
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    axum::serve(listener, router)
        .await
        .expect("the server runs");
}

fn main() {
    let server = std::env::var("BENCH_SERVER").unwrap_or_else(|_| "wrapped".to_owned());
    let address = std::env::var("BENCH_ADDR").unwrap_or_else(|_| "127.0.0.1:0".to_owned());
    let log = std::env::var("BENCH_LOG").unwrap_or_else(|_| "/dev/null".to_owned());
    let filter: Targets = std::env::var("BENCH_LOG_FILTER")
        .as_deref()
        .unwrap_or("info")
        .parse()
        .expect("BENCH_LOG_FILTER holds target=level directives");

    // The request log on, at INFO, into a non-blocking writer, as a server
    // in production would have it; writing to a file costs the writer's
    // thread a system call per line, as a real log does.
    let file = std::fs::File::create(&log).expect("the log file opens");
    let (writer, _flush) = tracing_appender::non_blocking(file);
    tracing_subscriber::fmt()
        .with_writer(writer)
        .with_ansi(false)
        .finish()
        .with(filter)
        .init();

    // A fixed two workers: the figures then don't follow the machine's
    // count of cores.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&address)
            .await
            .expect("the address is free");
        let bound = listener.local_addr().expect("the listener's address");
        // The script reads this line to find the port.
        let mut stdout = std::io::stdout();
        writeln!(stdout, "http://{bound}/mcp").expect("stdout is open");
        stdout.flush().expect("stdout is open");
        match server.as_str() {
            "wrapped" => serve(Wrapped, listener).await,
            "bare_timed" => {
                let tool_router = BareTimed::tool_router();
                serve(BareTimed { tool_router }, listener).await
            }
            "bare_spanned" => {
                let tool_router = BareSpanned::tool_router();
                serve(BareSpanned { tool_router }, listener).await
            }
            other => {
                panic!("BENCH_SERVER: no server {other:?} (wrapped, bare_timed or bare_spanned)")
            }
        }
    });
}
