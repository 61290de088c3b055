//! A call's log records, captured: a subscriber that keeps every event
//! and the fields of the spans it happened in.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::ThreadId;

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record as SpanRecord};
use tracing::subscriber::DefaultGuard;
use tracing::{Event, Level, Metadata, Subscriber};

/// One captured event.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The event's level.
    pub level: Level,
    /// The event's target (`outcome_runtime` for the runtime's records).
    pub target: String,
    /// The event's message: the event name, such as `tool_call_failed`.
    pub message: String,
    /// Every other field, formatted, in the order they were recorded.
    pub fields: Vec<(String, String)>,
    /// The fields of the spans the event was in, innermost first, as they
    /// were then.
    pub spans: Vec<(String, String)>,
}

impl Record {
    /// The event name: its message.
    pub fn name(&self) -> &str {
        &self.message
    }

    /// A field's value as text, if the event recorded it.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, value)| value.as_str())
    }

    /// A field of the innermost span that has it:
    /// `record.span_field("gen_ai.tool.name")` reads the `tools/call` span's.
    pub fn span_field(&self, name: &str) -> Option<&str> {
        self.spans
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, value)| value.as_str())
    }
}

impl fmt::Display for Record {
    /// One line: level, event name, then `field=value` pairs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:<5} {}", self.level, self.message)?;
        for (name, value) in &self.fields {
            write!(f, " {name}={value}")?;
        }
        Ok(())
    }
}

/// Captures every event at INFO and above, from any target, with its spans'
/// fields.
#[derive(Clone, Debug, Default)]
pub struct LogCapture {
    records: Arc<Mutex<Vec<Record>>>,
    spans: Arc<Mutex<Spans>>,
    next_span: Arc<AtomicU64>,
}

#[derive(Debug, Default)]
struct Spans {
    open: HashMap<u64, OpenSpan>,
    entered: HashMap<ThreadId, Vec<u64>>,
}

#[derive(Debug)]
struct OpenSpan {
    parent: Option<u64>,
    fields: Vec<(String, String)>,
    handles: usize,
}

impl Spans {
    fn fields(&self, mut id: Option<u64>) -> Vec<(String, String)> {
        let mut fields = Vec::new();
        while let Some(span) = id.and_then(|id| self.open.get(&id)) {
            fields.extend(span.fields.iter().cloned());
            id = span.parent;
        }
        fields
    }

    fn current(&self) -> Option<u64> {
        self.entered
            .get(&std::thread::current().id())
            .and_then(|stack| stack.last().copied())
    }
}

impl LogCapture {
    /// An empty capture.
    pub fn new() -> Self {
        Self::default()
    }

    /// Makes this capture the thread's default subscriber until the guard
    /// drops.
    pub fn set_default(&self) -> DefaultGuard {
        tracing::subscriber::set_default(self.clone())
    }

    /// A copy of the records so far.
    pub fn records(&self) -> Vec<Record> {
        self.lock().clone()
    }

    /// The records so far, leaving the capture empty.
    pub fn take(&self) -> Vec<Record> {
        std::mem::take(&mut *self.lock())
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Record>> {
        self.records.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn spans(&self) -> MutexGuard<'_, Spans> {
        self.spans.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Subscriber for LogCapture {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        *metadata.level() <= Level::INFO
    }

    fn max_level_hint(&self) -> Option<tracing::level_filters::LevelFilter> {
        Some(tracing::level_filters::LevelFilter::INFO)
    }

    fn new_span(&self, attributes: &Attributes<'_>) -> Id {
        let id = self.next_span.fetch_add(1, Ordering::Relaxed) + 1;
        let mut visitor = Fields::default();
        attributes.record(&mut visitor);
        let mut spans = self.spans();
        let parent = if attributes.is_root() {
            None
        } else if let Some(parent) = attributes.parent() {
            Some(parent.into_u64())
        } else {
            spans.current()
        };
        spans.open.insert(
            id,
            OpenSpan {
                parent,
                fields: visitor.fields,
                handles: 1,
            },
        );
        Id::from_u64(id)
    }

    fn record(&self, id: &Id, values: &SpanRecord<'_>) {
        let mut visitor = Fields::default();
        values.record(&mut visitor);
        if let Some(span) = self.spans().open.get_mut(&id.into_u64()) {
            for (name, value) in visitor.fields {
                match span.fields.iter_mut().find(|(field, _)| *field == name) {
                    Some(field) => field.1 = value,
                    None => span.fields.push((name, value)),
                }
            }
        }
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let metadata = event.metadata();
        let mut visitor = Fields::default();
        event.record(&mut visitor);
        let spans = {
            let spans = self.spans();
            let parent = if event.is_root() {
                None
            } else if let Some(parent) = event.parent() {
                Some(parent.into_u64())
            } else {
                spans.current()
            };
            spans.fields(parent)
        };
        self.lock().push(Record {
            level: *metadata.level(),
            target: metadata.target().to_owned(),
            message: visitor.message,
            fields: visitor.fields,
            spans,
        });
    }

    fn enter(&self, id: &Id) {
        let mut spans = self.spans();
        spans
            .entered
            .entry(std::thread::current().id())
            .or_default()
            .push(id.into_u64());
    }

    fn exit(&self, id: &Id) {
        let mut spans = self.spans();
        let thread = std::thread::current().id();
        if let Some(stack) = spans.entered.get_mut(&thread) {
            if let Some(at) = stack.iter().rposition(|entered| *entered == id.into_u64()) {
                stack.remove(at);
            }
            if stack.is_empty() {
                spans.entered.remove(&thread);
            }
        }
    }

    fn clone_span(&self, id: &Id) -> Id {
        if let Some(span) = self.spans().open.get_mut(&id.into_u64()) {
            span.handles += 1;
        }
        id.clone()
    }

    fn try_close(&self, id: Id) -> bool {
        let mut spans = self.spans();
        let Some(span) = spans.open.get_mut(&id.into_u64()) else {
            return false;
        };
        span.handles -= 1;
        if span.handles > 0 {
            return false;
        }
        spans.open.remove(&id.into_u64());
        true
    }
}

#[derive(Default)]
struct Fields {
    message: String,
    fields: Vec<(String, String)>,
}

impl Visit for Fields {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.message = value.to_owned();
        } else {
            self.fields
                .push((field.name().to_owned(), value.to_owned()));
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if field.name() == "message" {
            self.message = format!("{value:?}");
        } else {
            self.fields
                .push((field.name().to_owned(), format!("{value:?}")));
        }
    }
}
