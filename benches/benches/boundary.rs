//! What the boundary and the request log cost, measured side by side in one
//! run: each wrapped variant against the same body without them.
//!
//! `cargo bench -p outcome-benches` runs everything and ends with a table of
//! ratios and allocation counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use criterion::Criterion;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use tokio::runtime::Runtime;

/// Counts heap allocations, to show the boundary adds none.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The same tool bodies, served several ways: wrapped, and by rmcp alone.
mod servers {
    use outcome_runtime::{ToolError, tool, tool_handler, tool_router};
    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::handler::server::tool::ToolCallContext;
    use rmcp::handler::server::wrapper::{Json, Parameters};
    use rmcp::model::{CallToolRequestParams, CallToolResponse, ServerCapabilities, ServerConfig};
    use rmcp::service::RequestContext;
    use rmcp::{ErrorData, RoleServer, ServerHandler};

    /// The arguments of the tools that take some.
    #[derive(serde::Deserialize, rmcp::schemars::JsonSchema)]
    #[schemars(crate = "rmcp::schemars")]
    pub struct Text {
        /// The text to return.
        pub text: String,
    }

    /// The arguments of the tools whose schema narrows them: a length, a
    /// pattern and a range, each checked before the body.
    #[derive(serde::Deserialize, rmcp::schemars::JsonSchema)]
    #[schemars(crate = "rmcp::schemars")]
    pub struct Checked {
        /// The text to return.
        #[schemars(length(max = 2000), regex(pattern = r"^[a-z ]*$"))]
        pub text: String,
        /// How many days.
        #[schemars(range(min = 1, max = 7))]
        pub days: u8,
    }

    fn body(x: u64) -> u64 {
        x.wrapping_mul(31).wrapping_add(7)
    }

    /// Wrapped in the boundary, served with the request log.
    #[derive(Clone)]
    pub struct Wrapped;

    #[tool_router]
    impl Wrapped {
        /// Return a number.
        #[tool]
        pub fn sync_tool(&self) -> Result<Json<u64>, ToolError> {
            Ok(Json(body(std::hint::black_box(3))))
        }

        /// Return a number, later.
        #[tool]
        pub async fn async_tool(&self) -> Result<Json<u64>, ToolError> {
            Ok(Json(body(std::hint::black_box(3))))
        }

        /// Return a number as text.
        #[tool]
        pub fn echo(&self) -> Result<String, ToolError> {
            Ok("42".to_owned())
        }

        /// Return the text it is given.
        #[tool]
        pub fn echo_text(
            &self,
            Parameters(Text { text }): Parameters<Text>,
        ) -> Result<String, ToolError> {
            Ok(text)
        }

        /// Return the text it is given, once its schema is checked.
        #[tool]
        pub fn echo_checked(
            &self,
            Parameters(Checked { text, days }): Parameters<Checked>,
        ) -> Result<String, ToolError> {
            Ok(if days > 0 { text } else { String::new() })
        }

        /// Fail with an I/O error.
        #[tool]
        pub fn fault(&self) -> Result<Json<u64>, ToolError> {
            Err(std::io::Error::other("disk on fire"))?
        }

        /// Panic.
        #[tool]
        pub fn panics(&self) -> Result<Json<u64>, ToolError> {
            panic!("boom")
        }
    }

    #[tool_handler]
    impl ServerHandler for Wrapped {}

    /// Defines a bare rmcp server: rmcp alone, with the router in a field.
    /// Defined twice, as two types: each has its own copy of rmcp's code,
    /// placed elsewhere in the binary, which is what the wrapped server
    /// has too.
    macro_rules! bare_server {
        ($(#[$attr:meta])* $name:ident) => {
            $(#[$attr])*
            #[derive(Clone)]
            pub struct $name {
                pub tool_router: ToolRouter<$name>,
            }

            #[rmcp::tool_router(vis = "pub")]
            impl $name {
                #[rmcp::tool(description = "Return a number.")]
                pub fn sync_tool(&self) -> Result<Json<u64>, ToolError> {
                    Ok(Json(body(std::hint::black_box(3))))
                }

                #[rmcp::tool(description = "Return a number, later.")]
                pub async fn async_tool(&self) -> Result<Json<u64>, ToolError> {
                    Ok(Json(body(std::hint::black_box(3))))
                }

                #[rmcp::tool(description = "Return a number as text.")]
                pub fn echo(&self) -> Result<String, ToolError> {
                    Ok("42".to_owned())
                }

                #[rmcp::tool(
                    description = "Return a number as text, and log a line as the request log would."
                )]
                pub fn echo_logged(&self) -> Result<String, ToolError> {
                    tracing::info!(
                        target: "outcome_runtime",
                        tool = "echo",
                        outcome = "result",
                        duration_ms = 0.012,
                        "tool_call_completed"
                    );
                    Ok("42".to_owned())
                }

                #[rmcp::tool(
                    description = "Return a number as text, and log a line with the call's real duration."
                )]
                pub fn echo_timed(&self) -> Result<String, ToolError> {
                    // What a request log written by hand measures: the time from
                    // the start of the call to its answer.
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

                #[rmcp::tool(
                    description = "Return a number as text, in a span of the call, and log a line with the call's real duration."
                )]
                pub fn echo_spanned(&self) -> Result<String, ToolError> {
                    // What a server writing its telemetry by hand writes:
                    // the call's span, a root, entered while the body runs,
                    // and the timed line inside it.
                    let started = std::time::Instant::now();
                    let span = tracing::info_span!(
                        target: "outcome_runtime",
                        parent: None,
                        "tools/call",
                        otel.name = "tools/call echo",
                        gen_ai.tool.name = "echo",
                    );
                    let _entered = span.enter();
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

            #[rmcp::tool_router(router = text_router, vis = "pub")]
            impl $name {
                #[rmcp::tool(
                    description = "Return the text it is given, and log a line with the call's real duration."
                )]
                pub fn echo_text_timed(
                    &self,
                    Parameters(Text { text }): Parameters<Text>,
                ) -> Result<String, ToolError> {
                    let started = std::time::Instant::now();
                    let elapsed = started.elapsed();
                    tracing::info!(
                        target: "outcome_runtime",
                        tool = "echo_text",
                        outcome = "result",
                        duration_ms = elapsed.as_secs_f64() * 1000.0,
                        "tool_call_completed"
                    );
                    Ok(text)
                }

                #[rmcp::tool(
                    description = "Return the text it is given, unchecked, and log a line with the call's real duration."
                )]
                pub fn echo_checked_timed(
                    &self,
                    Parameters(Checked { text, days }): Parameters<Checked>,
                ) -> Result<String, ToolError> {
                    let started = std::time::Instant::now();
                    let elapsed = started.elapsed();
                    tracing::info!(
                        target: "outcome_runtime",
                        tool = "echo_checked",
                        outcome = "result",
                        duration_ms = elapsed.as_secs_f64() * 1000.0,
                        "tool_call_completed"
                    );
                    Ok(if days > 0 { text } else { String::new() })
                }
            }

            #[rmcp::tool_handler(router = self.tool_router)]
            impl ServerHandler for $name {}
        };
    }

    bare_server!(
        /// rmcp alone, with the router in a field.
        Bare
    );
    bare_server!(
        /// A second `Bare`, of its own type: how far a ratio strays when the
        /// same code runs from another place in the binary.
        Twin
    );

    /// rmcp alone, with a request log written by hand where one would be
    /// written for every tool at once: a `call_tool` that times the
    /// router's call and logs the line the request log writes.
    #[derive(Clone)]
    pub struct Handwritten {
        pub tool_router: ToolRouter<Handwritten>,
    }

    #[rmcp::tool_router(vis = "pub")]
    impl Handwritten {
        #[rmcp::tool(description = "Return a number as text.")]
        pub fn echo(&self) -> Result<String, ToolError> {
            Ok("42".to_owned())
        }
    }

    impl ServerHandler for Handwritten {
        async fn call_tool(
            &self,
            request: CallToolRequestParams,
            context: RequestContext<RoleServer>,
        ) -> Result<CallToolResponse, ErrorData> {
            let started = std::time::Instant::now();
            // The router takes the request; the line needs its name.
            let tool = request.name.clone();
            let context = ToolCallContext::new(self, request, context);
            let answer = self.tool_router.call(context).await;
            let duration_ms = started.elapsed().as_secs_f64() * 1000.0;
            let outcome = match &answer {
                Ok(CallToolResponse::Complete(result)) if result.is_error != Some(true) => "result",
                Ok(_) => "other",
                Err(_) => "protocol",
            };
            tracing::info!(
                target: "outcome_runtime",
                tool = &*tool,
                outcome,
                duration_ms,
                "tool_call_completed"
            );
            answer
        }

        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }
    }

    /// rmcp alone, with its plain `#[tool_handler]`: the router is built for
    /// every call.
    #[derive(Clone)]
    pub struct Rebuilt;

    #[rmcp::tool_router]
    impl Rebuilt {
        #[rmcp::tool(description = "Return a number as text.")]
        pub fn echo(&self) -> Result<String, ToolError> {
            Ok("42".to_owned())
        }
    }

    #[rmcp::tool_handler]
    impl ServerHandler for Rebuilt {}
}

use servers::{Bare, Handwritten, Rebuilt, Twin, Wrapped};

/// Polls a future that is ready at once, without a runtime in the way.
fn poll_once<F: std::future::Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut context) {
        std::task::Poll::Ready(output) => output,
        std::task::Poll::Pending => unreachable!("the tool body never waits"),
    }
}

fn direct(c: &mut Criterion) {
    let wrapped = Wrapped;
    let bare = Bare {
        tool_router: ToolRouter::new(),
    };
    let mut group = c.benchmark_group("direct");
    group.bench_function("sync_wrapped", |b| b.iter(|| wrapped.sync_tool()));
    group.bench_function("sync_bare", |b| b.iter(|| bare.sync_tool()));
    group.bench_function("async_wrapped", |b| {
        b.iter(|| poll_once(wrapped.async_tool()))
    });
    group.bench_function("async_bare", |b| b.iter(|| poll_once(bare.async_tool())));
    group.finish();
}

fn fault_paths(c: &mut Criterion) {
    let wrapped = Wrapped;
    let _quiet = tracing::subscriber::set_default(Discard);
    let mut group = c.benchmark_group("fault");
    group.bench_function("error", |b| b.iter(|| wrapped.fault().err()));
    group.bench_function("panic", |b| b.iter(|| wrapped.panics().err()));
    group.finish();
}

/// Builds `Wrapped`'s router (once per process, the first time it is used)
/// before a connection, as `Bare`'s is built: its long-lived allocations
/// then sit where `Bare`'s do, not among the connection's buffers, where
/// they would change how the allocator serves every later call.
fn build_router_first() {
    assert!(rmcp::ServerHandler::get_tool(&Wrapped, "echo").is_some());
}

async fn client<S: rmcp::ServerHandler>(server: S) -> RunningService<RoleClient, ()> {
    outcome_runtime::testing::connect(server, ())
        .await
        .expect("the client connects")
}

/// The runtime every measurement runs on: one thread, which the client,
/// the server and the log share.
fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

/// Makes `request` through `client` and checks that it answered a result.
fn call_ok(
    runtime: &Runtime,
    client: &RunningService<RoleClient, ()>,
    request: CallToolRequestParams,
) {
    let result = runtime
        .block_on(client.call_tool(request))
        .expect("the call is answered");
    assert_eq!(result.is_error, Some(false));
}

/// The number in the environment variable `name`, if it is set to one.
fn env_number(name: &str) -> Option<u32> {
    std::env::var(name).ok()?.parse().ok()
}

/// Median time per call of `a` and of `b`, in nanoseconds, and the median
/// of the ratios of each round's pair, measured in alternating rounds (A B,
/// then B A, ...), so that drift of the machine falls on both alike: a
/// pair is measured within a few milliseconds, and its ratio is what a
/// slow moment changes least.
fn interleaved(mut a: impl FnMut(), mut b: impl FnMut()) -> (f64, f64, f64) {
    const ROUNDS: usize = 100;
    const CALLS: u32 = 200;
    let time = |f: &mut dyn FnMut()| {
        let started = std::time::Instant::now();
        for _ in 0..CALLS {
            f();
        }
        started.elapsed().as_nanos() as f64 / f64::from(CALLS)
    };
    let (mut times_a, mut times_b, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let (time_a, time_b) = if round % 2 == 0 {
            let time_a = time(&mut a);
            (time_a, time(&mut b))
        } else {
            let time_b = time(&mut b);
            (time(&mut a), time_b)
        };
        times_a.push(time_a);
        times_b.push(time_b);
        ratios.push(time_a / time_b);
    }
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    (
        median(&mut times_a),
        median(&mut times_b),
        median(&mut ratios),
    )
}

fn round_trip(c: &mut Criterion, runtime: &Runtime, group_name: &str) -> Vec<String> {
    build_router_first();
    let wrapped = runtime.block_on(client(Wrapped));
    let bare = runtime.block_on(client(Bare {
        tool_router: Bare::tool_router(),
    }));
    let rebuilt = runtime.block_on(client(Rebuilt));
    let call = |client: &RunningService<RoleClient, ()>, tool: &'static str| {
        call_ok(runtime, client, CallToolRequestParams::new(tool))
    };
    let mut group = c.benchmark_group(group_name);
    group.bench_function("wrapped_logged", |b| b.iter(|| call(&wrapped, "echo")));
    group.bench_function("bare_router_in_field", |b| b.iter(|| call(&bare, "echo")));
    group.bench_function("bare_one_log_line", |b| {
        b.iter(|| call(&bare, "echo_logged"))
    });
    group.bench_function("bare_router_rebuilt", |b| b.iter(|| call(&rebuilt, "echo")));
    group.finish();

    let pairs = [
        ("bare_router_in_field", &bare, "echo"),
        ("bare_one_log_line", &bare, "echo_logged"),
        ("bare_timed_log_line", &bare, "echo_timed"),
        ("bare_router_rebuilt", &rebuilt, "echo"),
    ];
    pairs
        .into_iter()
        .map(|(name, other, tool)| {
            let (a, b, ratio) = interleaved(|| call(&wrapped, "echo"), || call(other, tool));
            format!(
                "{group_name} (interleaved): wrapped_logged / {name} = {ratio:.3}x \
                 (median of the rounds' ratios; {a:.0} ns vs {b:.0} ns)"
            )
        })
        .collect()
}

/// Heap allocations per call of `f`, averaged over many calls.
fn allocations_per_call(mut f: impl FnMut()) -> f64 {
    const CALLS: u64 = 10_000;
    f();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for _ in 0..CALLS {
        f();
    }
    (ALLOCATIONS.load(Ordering::Relaxed) - before) as f64 / CALLS as f64
}

/// A subscriber that takes every event and keeps none of it.
struct Discard;

impl tracing::Subscriber for Discard {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        black_box(event);
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

/// A subscriber that takes every event and no span, as a log set-up that
/// is not interested in spans (a filter that leaves them out) does.
struct EventsOnly;

impl tracing::Subscriber for EventsOnly {
    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        metadata.is_event()
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        unreachable!("no span is enabled")
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        black_box(event);
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

/// With `BENCH_ROUND_TRIPS=n` set, makes `n` round trips (and one more to
/// warm up) and nothing else:
/// for counting instructions with `valgrind --tool=callgrind`, which,
/// unlike a clock, gives the same count for the same build on a busy
/// machine. Two counts (`n` and `0`) give the cost of one call: each
/// count makes one call more, as a warm-up.
///
/// The call is the wrapped tool's, or with `BENCH_SERVER=bare_logged` bare
/// rmcp's writing an equal log line by hand (`bare_timed`: with the call's
/// duration measured, as a hand-written request log would; `bare_spanned`:
/// the same inside a hand-written `tools/call` span; `twin_timed`:
/// the same from `Twin`, the control; `handwritten`: the line written by a
/// `call_tool` of its own, as [`Handwritten`] does; `wrapped_text` and
/// `bare_text`: a tool that takes a line of text, under a schema that
/// narrows nothing; `wrapped_checked` and `bare_checked`: one whose schema
/// narrows it, checked before the body when wrapped); the subscriber
/// takes every event and no span ([`EventsOnly`]), or with `BENCH_SPANS`
/// set spans too ([`Discard`]).
fn count_mode() -> bool {
    let Some(calls) = env_number("BENCH_ROUND_TRIPS") else {
        return false;
    };
    let runtime = runtime();
    let _subscriber = if std::env::var_os("BENCH_SPANS").is_some() {
        tracing::subscriber::set_default(Discard)
    } else {
        tracing::subscriber::set_default(EventsOnly)
    };
    let bare = || {
        runtime.block_on(client(Bare {
            tool_router: Bare::tool_router(),
        }))
    };
    let bare_text = || {
        runtime.block_on(client(Bare {
            tool_router: Bare::tool_router() + Bare::text_router(),
        }))
    };
    let (client, tool) = match std::env::var("BENCH_SERVER").as_deref() {
        Ok("bare_logged") => (bare(), "echo_logged"),
        Ok("bare_timed") => (bare(), "echo_timed"),
        Ok("bare_spanned") => (bare(), "echo_spanned"),
        Ok("twin_timed") => (
            runtime.block_on(client(Twin {
                tool_router: Twin::tool_router(),
            })),
            "echo_timed",
        ),
        Ok("handwritten") => (
            runtime.block_on(client(Handwritten {
                tool_router: Handwritten::tool_router(),
            })),
            "echo",
        ),
        // Arguments, in a schema that narrows nothing and in one that
        // narrows each: what the input check costs.
        Ok("bare_text") => (bare_text(), "echo_text_timed"),
        Ok("bare_checked") => (bare_text(), "echo_checked_timed"),
        Ok(server @ ("wrapped_text" | "wrapped_checked")) => {
            build_router_first();
            let tool = if server == "wrapped_text" {
                "echo_text"
            } else {
                "echo_checked"
            };
            (runtime.block_on(client(Wrapped)), tool)
        }
        _ => {
            build_router_first();
            (runtime.block_on(client(Wrapped)), "echo")
        }
    };
    let arguments = serde_json::json!({ "text": "a short line of text", "days": 3 });
    let arguments = arguments.as_object().cloned().unwrap_or_default();
    let takes_arguments = tool.starts_with("echo_text") || tool.starts_with("echo_checked");
    // One call first, in every count: what only the first call pays (the
    // router built, statics set) is then in both counts, and cancels out.
    let mut allocated = 0;
    for call in 0..=calls {
        let mut request = CallToolRequestParams::new(tool);
        if takes_arguments {
            request = request.with_arguments(arguments.clone());
        }
        if call == 1 {
            allocated = ALLOCATIONS.load(Ordering::Relaxed);
        }
        call_ok(&runtime, &client, request);
    }
    if calls > 0 {
        let per_call = (ALLOCATIONS.load(Ordering::Relaxed) - allocated) as f64 / calls as f64;
        println!("allocations per call: {per_call:.2}");
    }
    true
}

/// The mean time of one benchmark, in nanoseconds, from criterion's output.
fn mean_ns(dir: &Path, group: &str, name: &str) -> Option<f64> {
    let path = dir.join(group).join(name).join("new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["mean"]["point_estimate"].as_f64()
}

/// With `BENCH_INTERLEAVED=n` set, measures only the interleaved ratio of
/// the wrapped call to bare rmcp writing an equal log line (fixed and
/// timed), with a subscriber that takes every event and no span, `n` times
/// in one process, and prints each run's ratios: the figure the per-call
/// target is about, without criterion's groups around it. Each run also
/// measures two controls, the same calls on both sides: a second bare
/// server against the first (how far a ratio strays when nothing differs),
/// and `Twin` against `Bare` (how far it strays when the same code runs
/// from another place in the binary, as the wrapped server's copy of rmcp
/// does); the wrapped call against the timed line for a tool that takes a
/// kilobyte of text as its arguments; and the wrapped call against a
/// request log written by hand in `call_tool` ([`Handwritten`]), where a
/// server without this crate would write one for all its tools; and the
/// wrapped call against bare rmcp writing both the call's span and the
/// timed line by hand (`echo_spanned`), all a wrapped call writes.
///
/// Each run connects its clients afresh: where a connection's buffers land
/// in memory moves a run's ratio by a percent or two either way, the same
/// for every run on one set of connections, so a figure over many runs
/// must be over many connections. Where the code lands moves it as much:
/// `benches/layouts.sh` runs this mode over several layouts of the binary.
fn interleaved_mode() -> bool {
    let Some(runs) = env_number("BENCH_INTERLEAVED") else {
        return false;
    };
    let runtime = runtime();
    let _subscriber = tracing::subscriber::set_default(EventsOnly);
    build_router_first();
    let call = |client: &RunningService<RoleClient, ()>, tool: &'static str| {
        call_ok(&runtime, client, CallToolRequestParams::new(tool))
    };
    // A kilobyte of text as the arguments of the tools that take some.
    let text = serde_json::json!({ "text": "note ".repeat(200) });
    let Some(text) = text.as_object() else {
        unreachable!("an object")
    };
    let call_with_text = |client: &RunningService<RoleClient, ()>, tool: &'static str| {
        let request = CallToolRequestParams::new(tool).with_arguments(text.clone());
        call_ok(&runtime, client, request)
    };
    for run in 1..=runs {
        let wrapped = runtime.block_on(client(Wrapped));
        let bare = runtime.block_on(client(Bare {
            tool_router: Bare::tool_router() + Bare::text_router(),
        }));
        let bare_again = runtime.block_on(client(Bare {
            tool_router: Bare::tool_router() + Bare::text_router(),
        }));
        let twin = runtime.block_on(client(Twin {
            tool_router: Twin::tool_router() + Twin::text_router(),
        }));
        let handwritten = runtime.block_on(client(Handwritten {
            tool_router: Handwritten::tool_router(),
        }));
        let (_, _, fixed) = interleaved(|| call(&wrapped, "echo"), || call(&bare, "echo_logged"));
        let (_, _, timed) = interleaved(|| call(&wrapped, "echo"), || call(&bare, "echo_timed"));
        let (_, _, same) = interleaved(
            || call(&bare_again, "echo_logged"),
            || call(&bare, "echo_logged"),
        );
        let (_, _, twins) = interleaved(|| call(&twin, "echo_timed"), || call(&bare, "echo_timed"));
        let (_, _, in_handler) =
            interleaved(|| call(&wrapped, "echo"), || call(&handwritten, "echo"));
        let (_, _, spanned) =
            interleaved(|| call(&wrapped, "echo"), || call(&bare, "echo_spanned"));
        let (_, _, with_text) = interleaved(
            || call_with_text(&wrapped, "echo_text"),
            || call_with_text(&bare, "echo_text_timed"),
        );
        println!(
            "run {run}: wrapped / bare_one_log_line = {fixed:.3}x, \
             wrapped / bare_timed_log_line = {timed:.3}x, \
             bare_again / bare_one_log_line = {same:.3}x, \
             twin / bare_timed_log_line = {twins:.3}x, \
             with a kilobyte of arguments: wrapped / bare_timed_log_line = {with_text:.3}x, \
             wrapped / handwritten_request_log = {in_handler:.3}x, \
             wrapped / bare_spanned_timed_log_line = {spanned:.3}x"
        );
    }
    true
}

fn main() {
    if count_mode() || interleaved_mode() {
        return;
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("criterion");
    let mut c = Criterion::default()
        .output_directory(&dir)
        .configure_from_args();
    let runtime = runtime();

    direct(&mut c);
    fault_paths(&mut c);

    // The request log on, at INFO, into a non-blocking writer, as a server
    // in production would have it.
    let (writer, _flush) = tracing_appender::non_blocking(std::io::sink());
    let subscriber = tracing_subscriber::fmt()
        .with_writer(writer)
        .with_max_level(tracing::Level::INFO)
        .finish();
    let logged = tracing::subscriber::set_default(subscriber);
    let mut interleaved_ratios = round_trip(&mut c, &runtime, "round_trip");
    drop(logged);
    // The same with a subscriber that takes every event and formats none:
    // what the boundary and the request log add, without the writer's cost.
    let discarded = tracing::subscriber::set_default(Discard);
    interleaved_ratios.extend(round_trip(&mut c, &runtime, "round_trip_discard"));
    drop(discarded);
    // Every event and no span: the cost of the call's span when the log
    // set-up leaves spans out.
    let events_only = tracing::subscriber::set_default(EventsOnly);
    interleaved_ratios.extend(round_trip(&mut c, &runtime, "round_trip_events_only"));
    drop(events_only);
    c.final_summary();

    let wrapped = Wrapped;
    let bare = Bare {
        tool_router: ToolRouter::new(),
    };
    let allocations = [
        (
            "sync_wrapped",
            allocations_per_call(|| drop(black_box(wrapped.sync_tool()))),
        ),
        (
            "sync_bare",
            allocations_per_call(|| drop(black_box(bare.sync_tool()))),
        ),
        (
            "async_wrapped",
            allocations_per_call(|| drop(poll_once(wrapped.async_tool()))),
        ),
        (
            "async_bare",
            allocations_per_call(|| drop(poll_once(bare.async_tool()))),
        ),
    ];

    let ratio = |group: &str, a: &str, b: &str| -> String {
        match (mean_ns(&dir, group, a), mean_ns(&dir, group, b)) {
            (Some(a_ns), Some(b_ns)) => format!(
                "{group}: {a} / {b} = {:.3}x ({a_ns:.1} ns vs {b_ns:.1} ns, {:+.1} ns)",
                a_ns / b_ns,
                a_ns - b_ns
            ),
            _ => format!("{group}: {a} / {b}: not measured in this run"),
        }
    };
    println!("\nRatios, measured in this run:");
    println!("  {}", ratio("direct", "sync_wrapped", "sync_bare"));
    println!("  {}", ratio("direct", "async_wrapped", "async_bare"));
    println!(
        "  {}",
        ratio("round_trip", "wrapped_logged", "bare_router_in_field")
    );
    println!(
        "  {}",
        ratio("round_trip", "wrapped_logged", "bare_one_log_line")
    );
    println!(
        "  {}",
        ratio("round_trip", "wrapped_logged", "bare_router_rebuilt")
    );
    println!(
        "  {}",
        ratio(
            "round_trip_discard",
            "wrapped_logged",
            "bare_router_in_field"
        )
    );
    for line in &interleaved_ratios {
        println!("  {line}");
    }
    for name in ["error", "panic"] {
        if let Some(ns) = mean_ns(&dir, "fault", name) {
            println!("  fault: {name} costs {ns:.0} ns per call");
        }
    }
    println!("Heap allocations per call:");
    for (name, count) in allocations {
        println!("  {name}: {count:.2}");
    }
}
