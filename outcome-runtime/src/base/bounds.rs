//! The bounds of what the client sends and any record carries: a tool
//! name or a request id is the client's text, an error's text may be
//! anything.

use std::borrow::Cow;

/// The longest `error` field, in bytes: an error's text may be anything (a
/// response body, a file); 64 KiB keeps real chains and log pipelines whole.
pub(crate) const RECORD_LIMIT: usize = 64 * 1024;

/// `text` cut to [`RECORD_LIMIT`] bytes, saying so when it was cut.
pub(crate) fn bounded_text(text: &str) -> Cow<'_, str> {
    if text.len() <= RECORD_LIMIT {
        return Cow::Borrowed(text);
    }
    let mut end = RECORD_LIMIT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!(
        "{} [cut: {} more bytes]",
        &text[..end],
        text.len() - end
    ))
}

/// A tool name fit for a log line: an unknown one is the model's text, so
/// it is cut to 128 characters and its invisible characters escaped.
#[inline]
pub(crate) fn bounded(tool: &str) -> Cow<'_, str> {
    // The common case, short printable ASCII, without decoding or a call.
    if tool.len() <= TOOL_LIMIT && tool.bytes().all(|b| b.is_ascii_graphic() || b == b' ') {
        return Cow::Borrowed(tool);
    }
    bounded_slowly(tool)
}

/// The longest tool name a record carries, in characters.
const TOOL_LIMIT: usize = 128;

/// [`bounded`], for a name that is not short printable ASCII.
#[cold]
#[inline(never)]
fn bounded_slowly(tool: &str) -> Cow<'_, str> {
    if tool.len() <= TOOL_LIMIT && !tool.chars().any(crate::base::message::is_invisible) {
        return Cow::Borrowed(tool);
    }
    let mut text = String::new();
    for c in tool.chars().take(TOOL_LIMIT) {
        if crate::base::message::is_invisible(c) {
            text.extend(c.escape_unicode());
        } else {
            text.push(c);
        }
    }
    if tool.chars().nth(TOOL_LIMIT).is_some() {
        text.push_str("...");
    }
    Cow::Owned(text)
}

/// Text from outside (a tool name, a request id) as records carry it:
/// bounded once, where it enters, and carried so.
#[derive(Clone, Debug)]
pub(crate) struct Bounded<'a>(Cow<'a, str>);

impl<'a> Bounded<'a> {
    /// `text`, bounded as [`bounded`] bounds a tool name.
    #[inline]
    pub(crate) fn new(text: &'a str) -> Self {
        Bounded(bounded(text))
    }

    /// The bounded text.
    #[inline(always)]
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

/// A call's tool name: as the router keys it or the client sent it, which
/// finds the route and names the tool to the model; and as records carry
/// it, bounded once, when the call starts.
#[derive(Clone, Debug, Default)]
pub(crate) struct ToolName {
    name: Cow<'static, str>,
    /// The name records carry, when bounding changed it.
    cut: Option<Box<str>>,
}

impl ToolName {
    /// `name`, bounded for records.
    #[inline]
    pub(crate) fn new(name: Cow<'static, str>) -> Self {
        let cut = match bounded(&name) {
            Cow::Borrowed(_) => None,
            Cow::Owned(cut) => Some(cut.into_boxed_str()),
        };
        ToolName { name, cut }
    }

    /// The name as records carry it.
    #[inline(always)]
    pub(crate) fn logged(&self) -> Bounded<'_> {
        Bounded(Cow::Borrowed(self.cut.as_deref().unwrap_or(&self.name)))
    }
}

/// The name itself, as the router keys it or the client sent it.
impl std::ops::Deref for ToolName {
    type Target = str;

    #[inline(always)]
    fn deref(&self) -> &str {
        &self.name
    }
}

/// The bounded name, as every record carries it: a text that formats a
/// tool name into a record's message gets no more than its fields do.
impl std::fmt::Display for ToolName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.logged().as_str())
    }
}
