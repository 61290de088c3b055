//! The span of every `tools/call`, after OpenTelemetry's conventions for
//! MCP (`docs/gen-ai/mcp.md` of `semantic-conventions-genai` v0.1.0, status
//! Development), and with the `opentelemetry` feature the client's trace
//! context as its parent and the `mcp.server.operation.duration` histogram.
//!
//! A subscriber that does not take the span pays a disabled span's check,
//! nothing more: no attribute is read or formatted.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use rmcp::RoleServer;
use rmcp::service::RequestContext;
use tracing::Span;
use tracing::field::Empty;

use crate::base::bounds::{Bounded, bounded};
use crate::base::outcome::Ending;
use crate::base::outcome::Outcome;
use crate::base::panics::guard_subscriber;
use crate::base::scope::CallIds;

/// How a call's answer failed, in the conventions' `error.type`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Failure {
    /// The answer was a result: no `error.type`.
    None,
    /// An `isError` result: `error.type` is `tool_error`.
    Tool,
    /// A JSON-RPC error: its code is `error.type` and the status code.
    Code(i32),
}

/// A call's or a job's span and, with `opentelemetry`, its metric.
pub(crate) struct Telemetry {
    span: Span,
    #[cfg(feature = "opentelemetry")]
    metric: Option<metric::Attributes>,
}

impl Telemetry {
    /// The `tools/call {tool}` span (a child of the client's trace context,
    /// with `opentelemetry`), and the call's ids when it is recorded, for
    /// the span of a job it starts. The span names the tool as `logged`,
    /// bounded where the call entered; the metric names a known tool as
    /// `tool` is, and an unknown one (`!known`) as [`OTHER`], so made-up
    /// names cannot crowd out real ones.
    pub(crate) fn call(
        tool: &str,
        logged: &Bounded<'_>,
        known: bool,
        context: &RequestContext<RoleServer>,
    ) -> (Self, Option<Box<CallIds>>) {
        // A root span, or rmcp's service-loop span would make a session one
        // trace. Guarded: a panicking subscriber loses the span, not the call.
        // The span takes its values as it is made, one hand-over to the
        // subscriber rather than one per value; tracing evaluates them only
        // for a span that is enabled, so a call whose span nobody takes
        // reads nothing (but for the metric, with `opentelemetry`).
        let once = std::cell::OnceCell::new();
        let read = || once.get_or_init(|| Read::of(logged, context));
        let span = guard_subscriber(|| {
            tracing::info_span!(
                target: "outcome_runtime",
                parent: None,
                "tools/call",
                otel.name = read().name.as_str(),
                otel.kind = "server",
                otel.status_code = Empty,
                mcp.method.name = "tools/call",
                gen_ai.operation.name = "execute_tool",
                gen_ai.tool.name = &*read().tool,
                jsonrpc.request.id = &*read().request,
                mcp.session.id = read().transport.session.as_deref(),
                mcp.protocol.version = read().version.as_ref().map(|v| bounded(v.as_str())).as_deref(),
                network.transport = read().transport.transport,
                network.protocol.name = read().transport.http_version.map(|_| "http"),
                network.protocol.version = read().transport.http_version,
                error.type = Empty,
                rpc.response.status_code = Empty,
                outcome_runtime.outcome = Empty,
            )
        })
        .unwrap_or_else(Span::none);
        #[cfg(not(feature = "opentelemetry"))]
        let _ = (tool, known);
        #[cfg(feature = "opentelemetry")]
        let metric = {
            let read = read();
            Some(metric::Attributes::new(
                known.then_some(tool),
                &read.transport,
                read.version.as_ref(),
            ))
        };
        let mut ids = None;
        if !span.is_disabled() {
            let read = read();
            #[cfg(feature = "opentelemetry")]
            guard_subscriber(|| parent::adopt(&span, &context.meta));
            ids = Some(Box::new(CallIds {
                request: read.request.to_string(),
                session: read.transport.session.as_deref().map(str::to_owned),
            }));
        }
        let telemetry = Telemetry {
            span,
            #[cfg(feature = "opentelemetry")]
            metric,
        };
        (telemetry, ids)
    }

    /// No span: the telemetry of a call that has not started.
    pub(crate) fn none() -> Self {
        Telemetry {
            span: Span::none(),
            #[cfg(feature = "opentelemetry")]
            metric: None,
        }
    }

    /// A job's span, with the starting call's `ids`: a root that follows
    /// from the call's span (its child in the trace, with `opentelemetry`),
    /// so that the call's span ends with its answer while the work goes on.
    pub(crate) fn job(tool: &Bounded<'_>, call: &Span, ids: Option<&CallIds>) -> Self {
        let span = guard_subscriber(|| {
            tracing::info_span!(
                target: "outcome_runtime",
                parent: None,
                "tool_job",
                otel.name = Empty,
                otel.kind = "internal",
                otel.status_code = Empty,
                gen_ai.operation.name = "execute_tool",
                gen_ai.tool.name = Empty,
                jsonrpc.request.id = Empty,
                mcp.session.id = Empty,
                error.type = Empty,
                outcome_runtime.outcome = Empty,
            )
        })
        .unwrap_or_else(Span::none);
        if !span.is_disabled() {
            guard_subscriber(|| {
                if let Some(ids) = ids {
                    span.record("jsonrpc.request.id", ids.request.as_str());
                    if let Some(session) = &ids.session {
                        span.record("mcp.session.id", session.as_str());
                    }
                }
                let tool = tool.as_str();
                span.record("otel.name", format!("job {tool}").as_str());
                span.record("gen_ai.tool.name", tool);
                #[cfg(feature = "opentelemetry")]
                {
                    use tracing_opentelemetry::OpenTelemetrySpanExt;
                    let _ = span.set_parent(call.context());
                }
                #[cfg(not(feature = "opentelemetry"))]
                span.follows_from(call);
            });
        }
        Telemetry {
            span,
            #[cfg(feature = "opentelemetry")]
            metric: None,
        }
    }

    // Inlined, so a span nobody takes costs its check where it is entered.
    #[inline]
    pub(crate) fn enter(&self) -> Inside<'_> {
        if self.span.is_disabled() {
            return Inside(None);
        }
        self.enter_taken()
    }

    /// [`enter`](Self::enter) for a span a subscriber takes.
    fn enter_taken(&self) -> Inside<'_> {
        Inside(guard_subscriber(|| self.span.enter()))
    }

    /// The same span for a second owner (a job's work and its bookkeeping).
    pub(crate) fn share(&self) -> Telemetry {
        let span = if self.span.is_disabled() {
            Span::none()
        } else {
            guard_subscriber(|| self.span.clone()).unwrap_or_else(Span::none)
        };
        Telemetry {
            span,
            #[cfg(feature = "opentelemetry")]
            metric: None,
        }
    }

    /// `work` in this span, which ends when `work` is dropped.
    pub(crate) fn instrument<F: Future>(self, work: F) -> InSpan<F> {
        InSpan {
            telemetry: self,
            work,
        }
    }

    /// Records the outcome, `error.type`, an error status for a fault only
    /// (outcomes 2 and 3 are the model's to fix), and the metric's duration.
    // Inlined, so a span nobody takes (and no metric) costs its check.
    #[inline]
    pub(crate) fn ended(&self, ending: Ending, failure: Failure, duration_ms: f64) {
        if !self.span.is_disabled() || cfg!(feature = "opentelemetry") {
            self.record_ended(ending, failure, duration_ms);
        }
    }

    /// [`ended`](Self::ended) for a span a subscriber takes, or a metric.
    fn record_ended(&self, ending: Ending, failure: Failure, duration_ms: f64) {
        let outcome = ending.as_str();
        let fault = ending == Ending::Outcome(Outcome::Fault);
        if !self.span.is_disabled() {
            guard_subscriber(|| {
                self.span.record("outcome_runtime.outcome", outcome);
                match failure {
                    Failure::None => {}
                    Failure::Tool => {
                        self.span.record("error.type", "tool_error");
                    }
                    Failure::Code(code) => {
                        // The conventions' codes are text.
                        self.span.record("error.type", format_args!("{code}"));
                        self.span
                            .record("rpc.response.status_code", format_args!("{code}"));
                    }
                }
                if fault {
                    self.span.record("otel.status_code", "error");
                }
            });
        }
        #[cfg(feature = "opentelemetry")]
        if let Some(metric) = &self.metric {
            metric.record(outcome, failure, duration_ms / 1000.0);
        }
        #[cfg(not(feature = "opentelemetry"))]
        let _ = duration_ms;
    }
}

impl Drop for Telemetry {
    #[inline(always)]
    fn drop(&mut self) {
        if !self.span.is_disabled() {
            close(&mut self.span);
        }
    }
}

#[inline(never)]
fn close(span: &mut Span) {
    let span = std::mem::replace(span, Span::none());
    guard_subscriber(|| drop(span));
}

/// A span entered until this drops; exiting is guarded as entering was.
pub(crate) struct Inside<'a>(Option<tracing::span::Entered<'a>>);

impl Drop for Inside<'_> {
    #[inline]
    fn drop(&mut self) {
        if let Some(entered) = self.0.take() {
            exit(entered);
        }
    }
}

/// Leaves a span a subscriber takes.
fn exit(entered: tracing::span::Entered<'_>) {
    guard_subscriber(|| drop(entered));
}

pin_project_lite::pin_project! {
    /// A future polled inside a span, with every hand-over guarded.
    pub(crate) struct InSpan<F> {
        telemetry: Telemetry,
        #[pin]
        work: F,
    }
}

impl<F: Future> Future for InSpan<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        let _inside = this.telemetry.enter();
        this.work.poll(cx)
    }
}

/// Stands for a metric attribute the client chose freely (an unknown tool,
/// a protocol version MCP lacks), after OpenTelemetry's `_OTHER` for HTTP
/// methods: the series stay as few as the server's tools.
#[cfg(feature = "opentelemetry")]
pub(crate) const OTHER: &str = "_OTHER";

/// A request id for a record: a string is bounded as tool names are.
pub(crate) fn request_id(id: &rmcp::model::RequestId) -> Cow<'_, str> {
    match id {
        rmcp::model::NumberOrString::Number(number) => Cow::Owned(number.to_string()),
        rmcp::model::NumberOrString::String(text) => bounded(text),
    }
}

/// What a call's span says of it, read from its request. All but the
/// transport's values are the client's text: bounded, and recorded as
/// text, which formatters quote.
struct Read<'a> {
    /// `tools/call {tool}`.
    name: String,
    tool: Cow<'a, str>,
    request: Cow<'a, str>,
    transport: Transport<'a>,
    version: Option<rmcp::model::ProtocolVersion>,
}

impl<'a> Read<'a> {
    fn of(tool: &'a Bounded<'_>, context: &'a RequestContext<RoleServer>) -> Self {
        let tool = Cow::Borrowed(tool.as_str());
        Read {
            name: format!("tools/call {tool}"),
            tool,
            request: request_id(&context.id),
            transport: Transport::of(context),
            version: context.protocol_version(),
        }
    }
}

struct Transport<'a> {
    /// `tcp` over HTTP, else `pipe` (stdio, or any other byte stream).
    transport: &'static str,
    http_version: Option<&'static str>,
    /// The `Mcp-Session-Id` header of the HTTP request.
    session: Option<Cow<'a, str>>,
}

impl<'a> Transport<'a> {
    fn of(context: &'a RequestContext<RoleServer>) -> Self {
        let Some(parts) = context.extensions.get::<http::request::Parts>() else {
            return Transport {
                transport: "pipe",
                http_version: None,
                session: None,
            };
        };
        let http_version = match parts.version {
            http::Version::HTTP_09 => "0.9",
            http::Version::HTTP_10 => "1.0",
            http::Version::HTTP_2 => "2",
            http::Version::HTTP_3 => "3",
            _ => "1.1",
        };
        // The client's text: bounded as tool names are.
        let session = parts
            .headers
            .get("mcp-session-id")
            .and_then(|value| value.to_str().ok())
            .map(bounded);
        Transport {
            transport: "tcp",
            http_version: Some(http_version),
            session,
        }
    }
}

/// The client's W3C trace context (SEP-414: `traceparent` and `tracestate`
/// in the request's `_meta`) as the parent of the call's span.
#[cfg(feature = "opentelemetry")]
mod parent {
    use opentelemetry::trace::{
        SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState,
    };
    use rmcp::model::RequestMetaObject;
    use tracing::Span;
    use tracing_opentelemetry::OpenTelemetrySpanExt;

    /// Makes a valid trace context in `meta` the parent of `span`; with a
    /// malformed one the call starts its own trace, as W3C asks.
    pub(super) fn adopt(span: &Span, meta: &RequestMetaObject) {
        let Some(remote) = meta
            .get_traceparent()
            .and_then(|traceparent| parse(traceparent, meta.get_tracestate().unwrap_or_default()))
        else {
            return;
        };
        let context = opentelemetry::Context::new().with_remote_span_context(remote);
        // Without an OpenTelemetry layer there is no trace to join.
        let _ = span.set_parent(context);
    }

    /// A `traceparent` header value (W3C Trace Context, level 1) with its
    /// `tracestate`: `version-traceid-parentid-flags`, lowercase hex.
    pub(super) fn parse(traceparent: &str, tracestate: &str) -> Option<SpanContext> {
        let mut parts = traceparent.trim().split('-');
        let version = parts.next().filter(|part| is_hex(part, 2))?;
        let trace_id = parts.next().filter(|part| is_hex(part, 32))?;
        let span_id = parts.next().filter(|part| is_hex(part, 16))?;
        let flags = parts.next().filter(|part| is_hex(part, 2))?;
        // Version ff is invalid; version 00 has exactly four parts, a later
        // version may add more after them.
        if version == "ff" || (version == "00" && parts.next().is_some()) {
            return None;
        }
        let trace_id = TraceId::from_hex(trace_id).ok()?;
        let span_id = SpanId::from_hex(span_id).ok()?;
        if trace_id == TraceId::INVALID || span_id == SpanId::INVALID {
            return None;
        }
        let flags = u8::from_str_radix(flags, 16).ok()?;
        let sampled = TraceFlags::new(flags) & TraceFlags::SAMPLED;
        // A malformed `tracestate` is dropped; the parent stays.
        let state = tracestate.parse().unwrap_or(TraceState::NONE);
        Some(SpanContext::new(trace_id, span_id, sampled, true, state))
    }

    fn is_hex(part: &str, len: usize) -> bool {
        part.len() == len
            && part
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        const TRACE: &str = "0af7651916cd43dd8448eb211c80319c";
        const SPAN: &str = "b7ad6b7169203331";

        #[test]
        fn a_valid_traceparent_is_a_remote_sampled_parent() {
            let parent = parse(&format!("00-{TRACE}-{SPAN}-01"), "congo=t61rcWkgMzE").unwrap();
            assert_eq!(parent.trace_id(), TraceId::from_hex(TRACE).unwrap());
            assert_eq!(parent.span_id(), SpanId::from_hex(SPAN).unwrap());
            assert!(parent.is_sampled());
            assert!(parent.is_remote());
            assert_eq!(parent.trace_state().get("congo"), Some("t61rcWkgMzE"));
        }

        #[test]
        fn an_unsampled_parent_stays_unsampled() {
            let parent = parse(&format!("00-{TRACE}-{SPAN}-00"), "").unwrap();
            assert!(!parent.is_sampled());
        }

        #[test]
        fn malformed_traceparents_are_ignored() {
            for bad in [
                String::new(),
                "garbage".to_owned(),
                format!("00-{TRACE}-{SPAN}"),
                format!("00-{TRACE}-{SPAN}-01-extra"),
                format!("ff-{TRACE}-{SPAN}-01"),
                format!("00-{}-{SPAN}-01", TRACE.to_uppercase()),
                format!("00-{}-{SPAN}-01", "0".repeat(32)),
                format!("00-{TRACE}-{}-01", "0".repeat(16)),
                format!("00-{TRACE}x-{SPAN}-01"),
                format!("0-{TRACE}-{SPAN}-01"),
                format!("00-{TRACE}-{SPAN}-1"),
                format!("00-{TRACE}-{SPAN}-+1"),
                format!("00-+{}-{SPAN}-01", &TRACE[1..]),
            ] {
                assert!(parse(&bad, "").is_none(), "{bad:?}");
            }
        }

        #[test]
        fn ten_megabytes_of_trace_context_stay_bounded() {
            let huge = "a".repeat(10 << 20);
            assert!(parse(&huge, "").is_none());
            assert!(parse(&format!("00-{TRACE}-{SPAN}-01-{huge}"), "").is_none());
            // One member too long to be valid: the state is dropped.
            let parent = parse(&format!("00-{TRACE}-{SPAN}-01"), &format!("k={huge}")).unwrap();
            assert_eq!(parent.trace_state().header(), "");
            // Many valid members: the first 32 are kept, as W3C allows.
            let many = "k=v,".repeat((10 << 20) / 4);
            let parent = parse(&format!("00-{TRACE}-{SPAN}-01"), &many).unwrap();
            assert!(parent.trace_state().header().len() <= 32 * 4);
        }

        #[test]
        fn a_later_version_may_carry_more_parts() {
            assert!(parse(&format!("01-{TRACE}-{SPAN}-01-what-comes"), "").is_some());
        }

        #[test]
        fn a_malformed_tracestate_keeps_the_parent() {
            let parent = parse(&format!("00-{TRACE}-{SPAN}-01"), "not a list,=").unwrap();
            assert_eq!(parent.trace_id(), TraceId::from_hex(TRACE).unwrap());
        }
    }
}

/// The `mcp.server.operation.duration` histogram.
#[cfg(feature = "opentelemetry")]
mod metric {
    use std::sync::OnceLock;

    use opentelemetry::KeyValue;
    use opentelemetry::metrics::Histogram;
    use rmcp::model::ProtocolVersion;

    use super::{Failure, OTHER, Transport};

    /// The conventions' advice for MCP durations, in seconds.
    const BOUNDARIES: [f64; 14] = [
        0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
    ];

    /// The histogram, made once from the global meter provider: set that
    /// provider before the first call.
    fn histogram() -> &'static Histogram<f64> {
        static HISTOGRAM: OnceLock<Histogram<f64>> = OnceLock::new();
        HISTOGRAM.get_or_init(|| {
            let scope = opentelemetry::InstrumentationScope::builder(env!("CARGO_PKG_NAME"))
                .with_version(env!("CARGO_PKG_VERSION"))
                .build();
            opentelemetry::global::meter_with_scope(scope)
                .f64_histogram("mcp.server.operation.duration")
                .with_unit("s")
                .with_description("How long a tools/call took, from its request to its answer.")
                .with_boundaries(BOUNDARIES.to_vec())
                .build()
        })
    }

    /// The attributes of a call known when it starts.
    pub(super) struct Attributes {
        known: Vec<KeyValue>,
    }

    impl Attributes {
        /// `tool`: `None` for a name the router lacks, recorded as [`OTHER`].
        pub(super) fn new(
            tool: Option<&str>,
            transport: &Transport<'_>,
            version: Option<&ProtocolVersion>,
        ) -> Self {
            let mut known = Vec::with_capacity(10);
            known.push(KeyValue::new("mcp.method.name", "tools/call"));
            known.push(KeyValue::new("gen_ai.operation.name", "execute_tool"));
            known.push(KeyValue::new(
                "gen_ai.tool.name",
                tool.unwrap_or(OTHER).to_owned(),
            ));
            known.push(KeyValue::new("network.transport", transport.transport));
            if let Some(version) = transport.http_version {
                known.push(KeyValue::new("network.protocol.name", "http"));
                known.push(KeyValue::new("network.protocol.version", version));
            }
            if let Some(version) = version {
                // Only a version MCP defines gets a series of its own.
                let version = ProtocolVersion::KNOWN_VERSIONS
                    .iter()
                    .find(|known| *known == version)
                    .map_or(OTHER, ProtocolVersion::as_str);
                known.push(KeyValue::new("mcp.protocol.version", version.to_owned()));
            }
            Attributes { known }
        }

        pub(super) fn record(&self, outcome: &str, failure: Failure, seconds: f64) {
            let mut attributes = self.known.clone();
            attributes.push(KeyValue::new("outcome_runtime.outcome", outcome.to_owned()));
            match failure {
                Failure::None => {}
                Failure::Tool => attributes.push(KeyValue::new("error.type", "tool_error")),
                Failure::Code(code) => {
                    attributes.push(KeyValue::new("error.type", code.to_string()));
                    attributes.push(KeyValue::new("rpc.response.status_code", code.to_string()));
                }
            }
            histogram().record(seconds, &attributes);
        }
    }
}
