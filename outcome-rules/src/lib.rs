//! The writing rules for the text a model reads when a tool call does not
//! produce its result, as one checker.
//!
//! A model recovers from a failed call only if the text tells it what was
//! wrong and what to do next, in words it can act on. These rules say what
//! such a text may not contain and what it must name:
//!
//! | rule | the text |
//! |---|---|
//! | [`names-tool`](Rule::NamesTool) | the next step of outcome 2, and the refresh step of outcome 3, name the tool to call |
//! | [`known-tool`](Rule::KnownTool) | every tool it names is a tool of this server |
//! | [`known-parameter`](Rule::KnownParameter) | every parameter it names is one of that tool's |
//! | [`no-lookup`](Rule::NoLookup) | sends the model nowhere else: no "see the description", "as documented", error code to look up |
//! | [`no-type-name`](Rule::NoTypeName) | names no exception or error type (`FileNotFoundError`, `std::io::Error`) |
//! | [`no-path`](Rule::NoPath) | names no path of the server (`/srv/notes`, `C:\data`, `~/.config`) |
//! | [`no-stack-frame`](Rule::NoStackFrame) | quotes no stack frame or source location (`main.rs:42`, `Traceback`) |
//! | [`no-log-line`](Rule::NoLogLine) | quotes no log line (a timestamp, `ERROR`) |
//! | [`no-env-var`](Rule::NoEnvVar) | names no environment variable (`NOTES_DIR`, `$HOME`) |
//! | [`no-command`](Rule::NoCommand) | gives no command to run (`cargo run`, `pip install`, `--force`) |
//! | [`short`](Rule::Short) | is one or two sentences |
//!
//! Values the model sent are not the author's words: a value quoted by
//! `outcome_runtime::quote` (`'inbox/todo.md'`) and, in a literal, a
//! `format!` placeholder are never checked against the rules.
//!
//! [`check_part`] checks one part of a message as the author wrote it (a
//! string literal at compile time); [`check_message`] checks a whole message
//! as the model reads it (a server's answer at run time). Both run the same
//! code, so a text the compiler accepts is one the audit accepts.
//!
//! The text itself is written here too, once for every crate that writes
//! or shows it: [`quote`] (a value the model sent, as `outcome_runtime::quote`
//! writes it), [`one_line`] (any text, a server's included, as one bounded
//! line with its invisible characters escaped), [`is_invisible`], and the
//! fixed messages of a server failure, [`FAULT_MESSAGE`] and
//! [`RETRY_MESSAGE`].
//!
//! ```
//! use outcome_rules::{Message, Rule, Tools, check_message};
//!
//! let tools = Tools::new().tool("search_notes").tool("read_note");
//! let good = "No note at 'inbox/todo.md'. Find the path with search_notes.";
//! assert!(check_message(Message::Invalid, good, &tools).is_empty());
//!
//! let renamed = "No note at 'inbox/todo.md'. Find the path with search_note.";
//! let broken = check_message(Message::Invalid, renamed, &tools);
//! assert_eq!(broken[0].rule, Rule::KnownTool);
//! assert_eq!(
//!     broken[0].to_string(),
//!     "`search_note` is not a tool of this server; did you mean `search_notes`?"
//! );
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::ops::Range;

mod description;
mod text;

pub use description::{DESCRIPTION_LIMIT, DescriptionProblem, check_description};
pub use text::{
    FAULT_MESSAGE, MESSAGE_LIMIT, QUOTE_LIMIT, RETRY_MESSAGE, is_invisible, one_line, quote,
    write_quoted,
};

/// Stands for a value in a literal: where a `format!` placeholder (`{}`)
/// was. The character is never checked, and names nothing.
pub const VALUE: char = '\u{FFFC}';

/// A rule of the text a model reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Rule {
    /// The next step of outcome 2 and the refresh step of outcome 3 name a
    /// tool: the model acts by calling one, and a step that names none
    /// leaves it to guess.
    NamesTool,
    /// Every tool the text names is one of the server's: a step that sends
    /// the model to a tool renamed last month fails every time.
    KnownTool,
    /// Every parameter the text names is one of that tool's.
    KnownParameter,
    /// The text sends the model nowhere else: it cannot read "the
    /// description" from inside a failed call, nor look up an error code.
    NoLookup,
    /// No exception or error type: a type name means nothing to the model,
    /// and tells an attacker what the server runs.
    NoTypeName,
    /// No path of the server: the model cannot open it, and it shows the
    /// server's layout.
    NoPath,
    /// No stack frame or source location.
    NoStackFrame,
    /// No log line: a timestamp or a level is the operator's.
    NoLogLine,
    /// No environment variable: the model cannot set one.
    NoEnvVar,
    /// No command to run: the model cannot run one on the server.
    NoCommand,
    /// One or two sentences: what was wrong, and what to do next.
    Short,
}

impl Rule {
    /// Every rule, in the order of the table above.
    pub const ALL: [Rule; 11] = [
        Rule::NamesTool,
        Rule::KnownTool,
        Rule::KnownParameter,
        Rule::NoLookup,
        Rule::NoTypeName,
        Rule::NoPath,
        Rule::NoStackFrame,
        Rule::NoLogLine,
        Rule::NoEnvVar,
        Rule::NoCommand,
        Rule::Short,
    ];

    /// The rule's place in [`Rule::ALL`]: a match with no wildcard, so a
    /// rule added later cannot be left out of the list unnoticed.
    pub const fn index(self) -> usize {
        match self {
            Rule::NamesTool => 0,
            Rule::KnownTool => 1,
            Rule::KnownParameter => 2,
            Rule::NoLookup => 3,
            Rule::NoTypeName => 4,
            Rule::NoPath => 5,
            Rule::NoStackFrame => 6,
            Rule::NoLogLine => 7,
            Rule::NoEnvVar => 8,
            Rule::NoCommand => 9,
            Rule::Short => 10,
        }
    }

    /// The rule's name, as reports and opt-outs write it: `no-path`.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::NamesTool => "names-tool",
            Rule::KnownTool => "known-tool",
            Rule::KnownParameter => "known-parameter",
            Rule::NoLookup => "no-lookup",
            Rule::NoTypeName => "no-type-name",
            Rule::NoPath => "no-path",
            Rule::NoStackFrame => "no-stack-frame",
            Rule::NoLogLine => "no-log-line",
            Rule::NoEnvVar => "no-env-var",
            Rule::NoCommand => "no-command",
            Rule::Short => "short",
        }
    }

    /// The rule named `name` (`no-path`), or its variant's name
    /// (`NoPath`).
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL
            .into_iter()
            .find(|rule| rule.name() == name || format!("{rule:?}") == name)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a part of a message is: the arguments of `ToolError`'s builders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// What was wrong (`ToolError::invalid` and `ToolError::stale`, first
    /// argument).
    Problem,
    /// What the model must do next (`ToolError::invalid`, second argument).
    NextStep,
    /// Where the fresh value comes from (`ToolError::stale`, second
    /// argument).
    Refresh,
    /// The message of a fault that heals itself (`ToolError::retry_later`).
    Retry,
}

impl Part {
    /// How many sentences the part may have: the whole message is one or
    /// two.
    const fn sentences(self) -> usize {
        match self {
            Part::Problem | Part::NextStep | Part::Refresh => 1,
            Part::Retry => 2,
        }
    }

    /// Whether the part is the step that must name a tool.
    const fn is_step(self) -> bool {
        matches!(self, Part::NextStep | Part::Refresh)
    }
}

/// Which outcome a whole message ends a call in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Message {
    /// Outcome 2: the model must change its request.
    Invalid,
    /// Outcome 3: the model must refresh what it read, then retry.
    Stale,
    /// Outcome 4: the server failed; the request was fine.
    Fault,
}

/// The tools a text may name, and their parameters where they are known.
#[derive(Clone, Debug, Default)]
pub struct Tools {
    tools: Vec<Known>,
    /// Where each tool's name is in `tools` (the first, for a name added
    /// twice): finding one costs the same for ten tools as for ten
    /// thousand.
    index: HashMap<String, usize>,
    /// Every parameter of every tool.
    parameters: HashSet<String>,
    /// Whether `tools` is every tool of the server.
    complete: bool,
    /// The tool whose call the text answers.
    own: Option<String>,
}

#[derive(Clone, Debug)]
struct Known {
    name: String,
    parameters: Option<Vec<String>>,
}

impl Tools {
    /// Every tool of the server, added with [`tool`](Self::tool): a name
    /// not among them breaks [`Rule::KnownTool`].
    pub fn new() -> Tools {
        Tools {
            complete: true,
            ..Tools::default()
        }
    }

    /// Nothing known about the server's tools: a step must still name
    /// something that reads as a tool (a `snake_case` name after "call" or
    /// "with"), but no name is refused.
    pub fn unknown() -> Tools {
        Tools::default()
    }

    /// Adds a tool whose parameters are not known: a parameter the text
    /// names for it is not checked.
    pub fn tool(mut self, name: impl Into<String>) -> Tools {
        self.add(name.into(), None);
        self
    }

    fn add(&mut self, name: String, parameters: Option<Vec<String>>) {
        self.index.entry(name.clone()).or_insert(self.tools.len());
        self.parameters.extend(parameters.iter().flatten().cloned());
        self.tools.push(Known { name, parameters });
    }

    /// Adds a tool with every parameter it takes.
    pub fn tool_with_parameters<S: Into<String>>(
        mut self,
        name: impl Into<String>,
        parameters: impl IntoIterator<Item = S>,
    ) -> Tools {
        let parameters = parameters.into_iter().map(Into::into).collect();
        self.add(name.into(), Some(parameters));
        self
    }

    /// Sets the tool whose call the text answers: a step may name it as
    /// "call it again", and a parameter named without a tool is its.
    pub fn answering(mut self, tool: impl Into<String>) -> Tools {
        self.own = Some(tool.into());
        self
    }

    /// Whether the tools added are every tool of the server.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Sets the tool whose call the text answers, or none (a helper's
    /// text, which answers no tool), on tools already built: checking the
    /// texts of many tools against one server's tools needs no copy of them
    /// per tool.
    pub fn set_answering(&mut self, tool: Option<String>) {
        self.own = tool;
    }

    fn get(&self, name: &str) -> Option<&Known> {
        self.index.get(name).map(|&at| &self.tools[at])
    }

    fn is_tool(&self, name: &str) -> bool {
        self.get(name).is_some() || self.own.as_deref() == Some(name)
    }

    fn is_parameter(&self, word: &str) -> bool {
        self.parameters.contains(word)
    }
}

/// A rule a text breaks, where, and what to write instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    /// The rule broken.
    pub rule: Rule,
    /// Where in the text checked, in bytes.
    pub at: Range<usize>,
    /// The words that break it, as written (empty when the text as a whole
    /// breaks it).
    pub words: String,
    /// What is wrong and what to write instead, one sentence.
    pub message: String,
}

impl fmt::Display for Broken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Checks one part of a message as its author wrote it, `text` with
/// [`VALUE`] where a value goes: a step must name a tool, the part must
/// be short enough for the whole to be one or two sentences, and no part
/// may break a rule about words.
pub fn check_part(part: Part, text: &str, tools: &Tools) -> Vec<Broken> {
    // In a literal the values are its placeholders: what it puts in
    // quotes ('chroma_update_documents', 'aws configure') is the author's.
    let scan = Scan::of(text, mask_placeholders(text));
    let mut broken = Vec::new();
    scan.words(tools, &mut broken);
    if part.is_step() {
        scan.names_tool(tools, &mut broken);
    }
    let limit = part.sentences();
    let count = scan.sentences();
    if count > limit {
        let what = match limit {
            1 => "one sentence",
            _ => "two sentences at most",
        };
        broken.push(Broken {
            rule: Rule::Short,
            at: 0..text.len(),
            words: String::new(),
            message: format!(
                "the {} is {count} sentences; make it {what}, so that the whole message \
                 is one or two",
                part_name(part)
            ),
        });
    }
    broken.sort_by_key(|b| (b.at.start, b.rule));
    broken
}

/// Checks a whole message as the model reads it: the rules about words,
/// one or two sentences, and for outcomes 2 and 3 a tool named as the next
/// step.
pub fn check_message(outcome: Message, text: &str, tools: &Tools) -> Vec<Broken> {
    let mut scan = Scan::new(text);
    scan.unmask_tools(tools);
    let mut broken = Vec::new();
    scan.words(tools, &mut broken);
    if matches!(outcome, Message::Invalid | Message::Stale) {
        scan.names_tool(tools, &mut broken);
    }
    let count = scan.sentences();
    if count > 2 {
        broken.push(Broken {
            rule: Rule::Short,
            at: 0..text.len(),
            words: String::new(),
            message: format!(
                "the message is {count} sentences; say what was wrong and what to do \
                 next in one or two"
            ),
        });
    }
    broken.sort_by_key(|b| (b.at.start, b.rule));
    broken
}

/// Whether `text` names a tool as a step must, by the rule
/// [`Rule::NamesTool`]: a tool of `tools`, a name after "call", or (with
/// the tools not all known) a name that reads as a tool.
///
/// ```
/// use outcome_rules::{Tools, names_tool};
///
/// let unknown = Tools::unknown();
/// assert!(names_tool("Find the path with search_notes.", &unknown));
/// assert!(names_tool("Call search to find it.", &unknown));
/// assert!(!names_tool("Call it again later.", &unknown));
/// assert!(names_tool("Use fetch with its address.", &Tools::unknown().answering("fetch")));
/// ```
pub fn names_tool(text: &str, tools: &Tools) -> bool {
    let mut broken = Vec::new();
    Scan::new(text).names_tool(tools, &mut broken);
    broken.is_empty()
}

/// A text's last sentence, read as the step the model is to take next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step<'t> {
    /// The text before the step, without the space between.
    pub problem: &'t str,
    /// The step, as written.
    pub step: &'t str,
    /// Whether the step names a tool, as [`Rule::NamesTool`] reads one.
    pub names_tool: bool,
    /// Whether the step is surely an instruction: it follows a problem and
    /// starts with a verb that is hardly ever a noun ("Set", "Use"; not
    /// "Search failed", "Call limit is 100").
    pub imperative: bool,
}

/// Verbs a step starts with.
const STEP_VERBS: &[&str] = &[
    "Call", "Use", "Run", "Try", "Pass", "List", "Read", "Search", "Find", "Check", "Retry", "Ask",
    "Set", "Send", "Give",
];

/// Of [`STEP_VERBS`], those that are hardly ever a noun starting a
/// problem ("Read error", "Search failed").
const IMPERATIVES: &[&str] = &["Call", "Use", "Try", "Pass", "Retry", "Ask", "Set", "Give"];

/// Words after an imperative that make it no step, or a step that already
/// says to call the tool again ("Use of ..", "Call it again later").
const NOT_A_STEP_AFTER: &[&str] = &["of", "failed", "error", "errors", "it", "back", "later"];

/// Verbs whose presence right after an imperative's first words makes it a
/// noun ("Call limit is 100").
const IS: &[&str] = &["is", "are", "was", "were", "has", "have"];

/// The step `text` ends with: its last sentence, when it starts with a
/// verb a step starts with.
///
/// ```
/// use outcome_rules::{Tools, last_step};
///
/// let tools = Tools::new().tool("read_file");
/// let step = last_step("notes/ is a directory. Call list_directory to read it.", &tools).unwrap();
/// assert_eq!(step.problem, "notes/ is a directory.");
/// assert!(step.names_tool && step.imperative);
/// let step = last_step("Offset is past the end. Set offset to 0.", &tools).unwrap();
/// assert!(!step.names_tool && step.imperative);
/// assert!(last_step("Call limit is 100.", &tools).is_some_and(|step| !step.imperative));
/// assert!(last_step("No such file (e.g. a typo). Try again", &tools).is_some());
/// assert!(last_step("No such file.", &tools).is_none());
/// ```
pub fn last_step<'t>(text: &'t str, tools: &Tools) -> Option<Step<'t>> {
    let text = text.trim_end();
    let start = sentences(text).last()?.start;
    let step = &text[start..];
    let verb = step.split(' ').next()?;
    if !STEP_VERBS.contains(&verb) {
        return None;
    }
    let words: Vec<String> = step
        .split(' ')
        .take(4)
        .map(|word| word.trim_matches(MARKS).to_ascii_lowercase())
        .collect();
    let next = words.get(1).map_or("", String::as_str);
    let reads_as_noun = words.iter().skip(1).any(|word| IS.contains(&word.as_str()));
    Some(Step {
        problem: text[..start].trim_end(),
        step,
        names_tool: names_tool(step, tools),
        imperative: start > 0
            && IMPERATIVES.contains(&verb)
            && !NOT_A_STEP_AFTER.contains(&next)
            && !reads_as_noun,
    })
}

/// Marks around a word.
const MARKS: &[char] = &['(', ')', '[', ']', ':', ',', ';', '.'];

/// The words of a text this process did not write (an upstream's error,
/// a library's message) that tell what the server is made of, or send the
/// model where it cannot go: a path, a stack frame, a type name, an
/// environment variable, a log line's level or timestamp, a command, an
/// error code, "see the docs".
///
/// Unlike [`check_message`], a value in quotes is checked too: nothing
/// says the model sent it. A `word=value` is not counted, being as often
/// the parameter the model should pass as a log's field, nor a URI, as
/// often the resource the model asked for; nor is a step
/// that names no tool or a text that runs long, which the caller mends.
///
/// ```
/// use outcome_rules::{Rule, leaks};
///
/// let text = "cannot lint '/srv/rules/x.yml'. Set NOTES_DIR first.";
/// let rules: Vec<Rule> = leaks(text).iter().map(|b| b.rule).collect();
/// assert_eq!(rules, [Rule::NoPath, Rule::NoEnvVar]);
/// assert!(leaks("No note at 'inbox/todo.md'. Set force=true to replace it.").is_empty());
/// ```
pub fn leaks(text: &str) -> Vec<Broken> {
    Scan::unmasked(text).leaks()
}

/// [`leaks`] in a text whose author quoted the model's values, as
/// `outcome_runtime::quote` does: what stands in quotes is not checked.
///
/// ```
/// use outcome_rules::{leaks_outside_values, Rule};
///
/// assert!(leaks_outside_values("No file at '/home/me/a.md'.").is_empty());
/// assert_eq!(leaks_outside_values("No file under /srv/notes.")[0].rule, Rule::NoPath);
/// ```
pub fn leaks_outside_values(text: &str) -> Vec<Broken> {
    Scan::new(text).leaks()
}

impl Scan<'_> {
    /// The words that tell what the server is made of: see [`leaks`].
    fn leaks(&self) -> Vec<Broken> {
        let scan = self;
        let mut broken = Vec::new();
        scan.phrases(&mut broken);
        for (index, word) in scan.words.iter().enumerate() {
            let text = scan.word(word);
            match scan.word_rule_at(index) {
                Some((rule, message)) => broken.push(scan.broken(rule, word.at.clone(), message)),
                None if word_rule(text).is_some() => {}
                None => scan.command(index, &mut broken),
            }
        }
        broken.sort_by_key(|b| (b.at.start, b.rule));
        broken
    }
}

/// The sentences of `text`, in bytes, as the rules count them: each ends
/// after its full stop (or `!`, `?`, a line break) and the marks that
/// close it, without the space that follows.
///
/// ```
/// let text = "No note at 'a.md'. Call search_notes (e.g. with 'a').";
/// let sentences: Vec<&str> = outcome_rules::sentences(text)
///     .into_iter()
///     .map(|at| &text[at])
///     .collect();
/// assert_eq!(sentences, ["No note at 'a.md'.", "Call search_notes (e.g. with 'a')."]);
/// ```
pub fn sentences(text: &str) -> Vec<Range<usize>> {
    let scan = Scan::new(text);
    let mut sentences = Vec::new();
    let mut start = None;
    for word in &scan.words {
        // The word's own opening marks belong to its sentence.
        let from = text[..word.at.start]
            .rfind(char::is_whitespace)
            .map_or(0, |at| {
                at + text[at..].chars().next().map_or(1, char::len_utf8)
            });
        let from = from.max(sentences.last().map_or(0, |s: &Range<usize>| s.end));
        start.get_or_insert(from);
        if word.ends_sentence {
            let end = text[word.at.end..]
                .find(char::is_whitespace)
                .map_or(text.len(), |at| word.at.end + at);
            sentences.push(start.take().unwrap_or(from)..end);
        }
    }
    if let Some(start) = start {
        let end = text.trim_end().len().max(start);
        sentences.push(start..end);
    }
    sentences
}

fn part_name(part: Part) -> &'static str {
    match part {
        Part::Problem => "problem",
        Part::NextStep => "next step",
        Part::Refresh => "refresh step",
        Part::Retry => "message",
    }
}

/// A text, with the values in it masked, split into words.
struct Scan<'t> {
    text: &'t str,
    /// `text` with every value replaced by `x`s of the same byte length.
    masked: String,
    words: Vec<Word>,
    /// How many names were looked up among the known ones for the closest:
    /// at most [`CLOSEST_LOOKUPS`] a text.
    lookups: std::cell::Cell<usize>,
}

/// How many names of one text are compared with the server's tools and
/// parameters for a close one (`did you mean ..?`): 64. A name past them
/// is taken as close to none, so that a text of many thousand names costs
/// no more than 64 looked up, whatever the number of tools.
pub const CLOSEST_LOOKUPS: usize = 64;

/// A word: a run between whitespace, without the punctuation around it.
#[derive(Clone, Debug)]
struct Word {
    at: Range<usize>,
    /// Whether a sentence ends right after it.
    ends_sentence: bool,
    /// The punctuation right after it (`,`, `.`), if any.
    followed_by: Option<char>,
}

/// Words after which a `call` names no tool.
const NOT_NAMES: &[&str] = &[
    "the", "a", "an", "it", "this", "that", "again", "back", "later", "them", "these", "those",
    "one", "each", "every", "any", "some", "me", "us", "our", "your", "its", "their", "with",
    "for", "to", "in", "on", "after", "before", "once", "first", "now", "only", "both", "either",
    "another", "other", "same", "another", "then", "and", "or",
];

/// Words before a noun: "this call", "the call".
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "this", "that", "each", "every", "same", "your", "its", "their", "our",
    "next", "last", "first", "one", "any", "no", "whole", "tool", "tool's",
];

/// Words an instruction starts with besides a verb: "Please use ..", "You
/// can list ..", "To get one, call ..".
const INSTRUCTION_STARTS: &[&str] = &["please", "you", "to", "then", "first", "instead", "next"];

/// Words that say what kind of parameter, not which: "Missing required
/// argument", "Invalid parameter".
const QUALITIES: &[&str] = &[
    "required",
    "invalid",
    "missing",
    "unknown",
    "unexpected",
    "optional",
    "extra",
    "bad",
    "wrong",
    "valid",
    "given",
    "following",
    "additional",
    "mandatory",
    "unsupported",
    "unrecognized",
    "unrecognised",
    "duplicate",
    "empty",
    "malformed",
    "conflicting",
];

/// Words that end the clause a tool named after "with" stands in.
const CLAUSE_ENDS: &[&str] = &[
    "and", "or", "first", "instead", "then", "before", "after", "again", "to", "for",
];

impl<'t> Scan<'t> {
    /// The scan of a text whose quotes do not mark the model's values.
    fn unmasked(text: &'t str) -> Scan<'t> {
        Scan::of(text, text.to_owned())
    }

    fn new(text: &'t str) -> Scan<'t> {
        Scan::of(text, mask_values(text))
    }

    fn of(text: &'t str, masked: String) -> Scan<'t> {
        let words = split_words(&masked);
        Scan {
            text,
            masked,
            words,
            lookups: std::cell::Cell::new(0),
        }
    }

    /// The index of the first word of the last sentence.
    fn last_sentence(&self) -> usize {
        let before_last = self.words.len().saturating_sub(1);
        self.words[..before_last]
            .iter()
            .rposition(|word| word.ends_sentence)
            .map_or(0, |end| end + 1)
    }

    /// Reads a quoted value that is one of `tools` as the tool's name:
    /// "Use 'chroma_update_documents' to update them" names a tool.
    fn unmask_tools(&mut self, tools: &Tools) {
        for word in &self.words {
            let original = &self.text[word.at.clone()];
            let masked = &self.masked[word.at.clone()];
            if masked != original && tools.is_tool(original) {
                self.masked.replace_range(word.at.clone(), original);
            }
        }
    }

    /// The name among `candidates` closest to `name`, while this text has
    /// lookups left.
    fn closest<'a>(
        &self,
        name: &str,
        candidates: impl Iterator<Item = &'a str>,
    ) -> Option<&'a str> {
        let done = self.lookups.get();
        if done >= CLOSEST_LOOKUPS {
            return None;
        }
        self.lookups.set(done + 1);
        closest(name, candidates)
    }

    fn word(&self, word: &Word) -> &str {
        &self.masked[word.at.clone()]
    }

    fn lower(&self, index: usize) -> Option<String> {
        self.words
            .get(index)
            .map(|word| self.word(word).to_ascii_lowercase())
    }

    fn broken(&self, rule: Rule, at: Range<usize>, message: String) -> Broken {
        Broken {
            rule,
            words: self.text[at.clone()].to_owned(),
            at,
            message,
        }
    }

    /// The sentences of the text: ends of sentences, plus a last one
    /// without its end.
    fn sentences(&self) -> usize {
        let ends = self.words.iter().filter(|w| w.ends_sentence).count();
        let open = self.words.last().is_some_and(|w| !w.ends_sentence);
        ends + usize::from(open)
    }

    /// The rules about words: each is checked on every word, and phrases
    /// on the lowercase text.
    fn words(&self, tools: &Tools, broken: &mut Vec<Broken>) {
        self.phrases(broken);
        for (index, word) in self.words.iter().enumerate() {
            if let Some((rule, message)) = self.word_rule_at(index) {
                broken.push(self.broken(rule, word.at.clone(), message));
                continue;
            }
            if word_rule(self.word(word)).is_some() {
                continue;
            }
            self.command(index, broken);
        }
        self.fields(tools, broken);
        self.names(tools, broken);
    }

    /// The rule word `index` breaks, if any, read in its sentence: a URL
    /// sends the model away only when the words before it do ("see",
    /// "visit", "for more information"), being otherwise the resource the
    /// call is about; a name in capitals with an underscore is an
    /// environment variable only when it reads as one (`..._TOKEN`,
    /// `..._DIR`, "set" or "export" before it), being otherwise a code or a
    /// constant (`ENTITY_NOT_FOUND`).
    fn word_rule_at(&self, index: usize) -> Option<(Rule, String)> {
        let text = self.word(&self.words[index]);
        let (rule, message) = word_rule(text)?;
        let before = |words: &[&str]| {
            (index.saturating_sub(4)..index)
                .filter_map(|i| self.lower(i))
                .any(|word| words.contains(&word.trim_matches(MARKS)))
        };
        match rule {
            Rule::NoLookup if text.contains("://") => before(REFERRING).then_some((rule, message)),
            // "a whole number from -32768 to 32767": a bound, not a code.
            Rule::NoLookup if text.starts_with('-') => {
                let next = self.lower(index + 1);
                let bound = next.is_some_and(|next| next == "to" || next == "and")
                    || index
                        .checked_sub(1)
                        .and_then(|i| self.lower(i))
                        .is_some_and(|word| BOUNDS.contains(&word.trim_matches(MARKS)));
                (!bound).then_some((rule, message))
            }
            Rule::NoEnvVar if is_capital_snake(text) => {
                let after = self.lower(index + 1).is_some_and(|next| {
                    matches!(next.as_str(), "environment" | "env" | "variable")
                });
                let named = ENV_SUFFIXES.iter().any(|suffix| text.ends_with(suffix));
                if named || after || before(&["set", "export", "env", "unset"]) {
                    return Some((rule, message));
                }
                // Not a variable: perhaps a code to look up (`ERR_404`).
                is_code(text).then(|| {
                    let message = format!(
                        "`{text}` is an error code, which the model cannot look up; say in \
                         words what went wrong"
                    );
                    (Rule::NoLookup, message)
                })
            }
            _ => Some((rule, message)),
        }
    }

    /// The fields of a log line or a debug dump: `key=value` words of two
    /// keys or more in a text, or one opening a bracket (`[type=missing`).
    /// One key alone is as often the parameter and value the model should
    /// send ("set reset=true to replace it"), and a known parameter's
    /// always is.
    fn fields(&self, tools: &Tools, broken: &mut Vec<Broken>) {
        let fields: Vec<&Word> = self
            .words
            .iter()
            .filter(|word| {
                let text = self.word(word);
                is_field(text)
                    && !text
                        .split_once('=')
                        .is_some_and(|(key, _)| tools.is_parameter(key))
            })
            .collect();
        // A dump has fields of different keys; "view_range=[1, 500]" then
        // "view_range=[501, 1000]" are the values of one parameter.
        let key = |word: &Word| self.word(word).split_once('=').map(|(key, _)| key);
        let distinct = fields
            .iter()
            .any(|word| key(word) != fields.first().and_then(|first| key(first)));
        for word in &fields {
            let bracketed = self.masked[..word.at.start].ends_with(['[', '{']);
            if !distinct && !bracketed {
                continue;
            }
            let text = self.word(word);
            let message = format!(
                "`{text}` is a field of a log line or a debug dump, which is the operator's; \
                 say in words what was wrong"
            );
            broken.push(self.broken(Rule::NoLogLine, word.at.clone(), message));
        }
    }

    /// Phrases that send the model elsewhere, and the words of a stack
    /// frame or a log line that span more than one word.
    fn phrases(&self, broken: &mut Vec<Broken>) {
        let lower = self.masked.to_ascii_lowercase();
        for (phrase, rule, why) in PHRASES {
            let mut from = 0;
            while let Some(found) = lower[from..].find(phrase) {
                let start = from + found;
                let end = start + phrase.len();
                from = end;
                let starts_word = start == 0 || !is_word_byte(lower.as_bytes()[start - 1]);
                let ends_word = end == lower.len() || !is_word_byte(lower.as_bytes()[end]);
                if starts_word && ends_word {
                    let message = format!("\"{}\" {why}", &self.text[start..end]);
                    broken.push(self.broken(*rule, start..end, message));
                }
            }
        }
    }

    /// A command at word `index`: a tool the server's operator runs, then
    /// what it does (`cargo run`, `pip install`); `sudo` alone.
    fn command(&self, index: usize, broken: &mut Vec<Broken>) {
        let Some(first) = self.lower(index) else {
            return;
        };
        let Some((_, verbs)) = COMMANDS.iter().find(|(program, _)| *program == first) else {
            return;
        };
        let word = &self.words[index];
        let then = if word.followed_by.is_none() {
            self.words.get(index + 1)
        } else {
            None
        };
        let end = match (verbs.is_empty(), then) {
            (true, _) => word.at.end,
            (false, Some(next))
                if verbs.contains(&self.word(next)) || self.word(next).starts_with('-') =>
            {
                next.at.end
            }
            _ => return,
        };
        let at = word.at.start..end;
        let message = format!(
            "`{}` is a command the model cannot run; say what the model can do with \
             this server's tools instead",
            &self.text[at.clone()]
        );
        broken.push(self.broken(Rule::NoCommand, at, message));
    }

    /// Tool and parameter names that are not the server's.
    fn names(&self, tools: &Tools, broken: &mut Vec<Broken>) {
        let mut current: Option<String> = tools.own.clone();
        for (index, word) in self.words.iter().enumerate() {
            let name = self.word(word);
            if let Some(mention) = self.tool_mention(index, tools) {
                if tools.is_tool(name) {
                    current = Some(name.to_owned());
                    continue;
                }
                if !tools.complete || tools.is_parameter(name) {
                    continue;
                }
                let sure = mention == Mention::Sure;
                let close = self.closest(name, tools.tools.iter().map(|tool| tool.name.as_str()));
                if !sure && close.is_none() {
                    continue;
                }
                let message = match close {
                    Some(close) => {
                        format!("`{name}` is not a tool of this server; did you mean `{close}`?")
                    }
                    None => format!(
                        "`{name}` is not a tool of this server; name one of its tools: {}",
                        tool_list(tools)
                    ),
                };
                broken.push(self.broken(Rule::KnownTool, word.at.clone(), message));
                continue;
            }
            if !self.is_parameter_mention(index) {
                continue;
            }
            let Some(tool) = current.as_deref().and_then(|tool| tools.get(tool)) else {
                continue;
            };
            let Some(parameters) = &tool.parameters else {
                continue;
            };
            if parameters.iter().any(|p| p == name) {
                continue;
            }
            let close = self.closest(name, parameters.iter().map(String::as_str));
            // A plain word close to no parameter is as often English ("the
            // input parameter must be ..."): only a name is surely one.
            let plain = name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-');
            if close.is_none() && plain {
                continue;
            }
            let message = match close {
                Some(close) => format!(
                    "`{name}` is not a parameter of `{}`; did you mean `{close}`?",
                    tool.name
                ),
                None if parameters.is_empty() => {
                    format!(
                        "`{}` takes no parameters, so `{name}` is not one",
                        tool.name
                    )
                }
                None => format!(
                    "`{name}` is not a parameter of `{}`; its parameters are {}",
                    tool.name,
                    backticked(parameters.iter().map(String::as_str))
                ),
            };
            broken.push(self.broken(Rule::KnownParameter, word.at.clone(), message));
        }
    }

    /// Whether word `index` names a tool: surely, after "call" or as "with
    /// `search_notes`" at the end of a clause, or perhaps, as any
    /// `snake_case` name.
    fn tool_mention(&self, index: usize, tools: &Tools) -> Option<Mention> {
        let word = &self.words[index];
        let name = self.word(word);
        if !is_name(name) {
            return None;
        }
        let before = index.checked_sub(1).and_then(|i| {
            let previous = &self.words[i];
            previous
                .followed_by
                .is_none()
                .then(|| self.lower(i))
                .flatten()
        });
        // A name in capitals (`GITHUB_TOKEN`) is a variable or a code; a
        // kebab-case name (`resolve-library-id`) reads as a tool only where
        // its author set it apart, in quotes.
        let lowercase = name.bytes().any(|b| b.is_ascii_lowercase());
        let quoted = self.masked[..word.at.start].ends_with(['\'', '"', '`']);
        let snake = lowercase && (name.contains('_') || name.contains('-') && quoted);
        // "the 'connect' tool": a name before the word "tool".
        let before_tool = word.followed_by.is_none_or(|c| "'\"`".contains(c))
            && self
                .lower(index + 1)
                .is_some_and(|next| next == "tool" || next == "tools");
        let lower = name.to_ascii_lowercase();
        if NOT_NAMES.contains(&lower.as_str()) {
            return None;
        }
        // "call" is the verb, not the noun of "this call fails".
        let verb = index < 2
            || self.words[index - 2].ends_sentence
            || self.words[index - 2].followed_by.is_some()
            || self
                .lower(index - 2)
                .is_some_and(|word| !DETERMINERS.contains(&word.as_str()));
        let sure = match before.as_deref() {
            _ if !verb => false,
            Some("call" | "invoke" | "use" | "run" | "try") => snake || tools.is_tool(name),
            Some("with" | "using" | "via") => {
                (snake || tools.is_tool(name)) && self.ends_clause(index)
            }
            _ => false,
        };
        if sure {
            return Some(Mention::Sure);
        }
        // A plain word after "call" is a tool only if it is close to one
        // ("call reindx"): "the most recent call last" names none.
        let called = verb && matches!(before.as_deref(), Some("call" | "invoke"));
        let perhaps = (snake && !self.is_parameter_mention(index) && !self.is_value(index))
            || called
            || before_tool
            || tools.is_tool(name);
        perhaps.then_some(Mention::Perhaps)
    }

    /// Whether word `index` ends the clause it is in: "with search_notes"
    /// at the end, or before "and", "first", a comma.
    fn ends_clause(&self, index: usize) -> bool {
        let word = &self.words[index];
        if word.followed_by.is_some() || index + 1 == self.words.len() {
            return true;
        }
        self.lower(index + 1)
            .is_some_and(|next| CLAUSE_ENDS.contains(&next.as_str()))
    }

    /// Whether word `index` names a parameter: "with `path` set to", "set
    /// `path` to", "pass `path`", "without `path`", "`path` as".
    fn is_parameter_mention(&self, index: usize) -> bool {
        let at = self.words[index].at.clone();
        let word = self.word(&self.words[index]);
        // A quoted value stands masked: it is the model's, and names no
        // parameter ("takes no argument 'limt'").
        if self.text[at.clone()] != self.masked[at] {
            return false;
        }
        if !is_name(word) || NOT_NAMES.contains(&word.to_ascii_lowercase().as_str()) {
            return false;
        }
        // A word another rule reads (`MDB_MCP_INDEX_CHECK`) is that.
        if word_rule(word).is_some() {
            return false;
        }
        let open = |i: usize| self.words[i].followed_by.is_none();
        let before = index
            .checked_sub(1)
            .filter(|&i| open(i))
            .and_then(|i| self.lower(i));
        let after = open(index).then(|| self.lower(index + 1)).flatten();
        let then = (open(index) && index + 1 < self.words.len() && open(index + 1))
            .then(|| self.lower(index + 2))
            .flatten();
        match (before.as_deref(), after.as_deref()) {
            (Some("set" | "pass" | "parameter" | "argument"), _) => true,
            // "retry without if_match", but not "answered without text".
            (Some("without"), _) => word.contains('_'),
            (Some("with"), Some("set")) => then.as_deref() == Some("to"),
            (Some("with"), Some("as" | "corrected" | "=")) => true,
            // "no argument", "each parameter": a determiner, not a name.
            (_, Some("parameter" | "argument")) => {
                let lower = word.to_ascii_lowercase();
                !DETERMINERS.contains(&lower.as_str()) && !QUALITIES.contains(&lower.as_str())
            }
            _ => false,
        }
    }

    /// Whether word `index` is a value: after "to" or "=" as in "set to
    /// `read_only`", or after "is".
    fn is_value(&self, index: usize) -> bool {
        index
            .checked_sub(1)
            .filter(|&i| self.words[i].followed_by.is_none())
            .and_then(|i| self.lower(i))
            .is_some_and(|before| matches!(before.as_str(), "to" | "=" | "is" | "be" | "as"))
    }

    /// A step must name a tool; with tools known, one of them.
    fn names_tool(&self, tools: &Tools, broken: &mut Vec<Broken>) {
        // The step is the last sentence; a tool named before it, or named
        // in passing ("Invalid arguments for read_file"), is no step.
        let first = self.last_sentence();
        // An instruction: "Use ..", "Please use ..", "You can list ..",
        // "To get one, call ..".
        let verb_led = self.lower(first).is_some_and(|word| {
            STEP_VERBS
                .iter()
                .any(|verb| verb.eq_ignore_ascii_case(&word))
                || INSTRUCTION_STARTS.contains(&word.as_str())
        });
        // A tool that is not the server's still counts as named here:
        // `known-tool` says what is wrong with it.
        let mut depth = 0usize;
        let mut scanned = self.words.get(first).map_or(0, |word| word.at.start);
        // A literal's placeholder where a tool's name stands ("Call {}",
        // "using the tool: {}", a step that is only one) may be the name:
        // the compiler cannot say it names none.
        let placeholder_names = (first..self.words.len()).any(|index| {
            let word = &self.words[index];
            if self.text[word.at.clone()] != VALUE.to_string() {
                return false;
            }
            let before = index.checked_sub(1).and_then(|i| self.lower(i));
            let after = self.lower(index + 1);
            self.words.len() - first == 1
                || before.is_some_and(|word| {
                    matches!(
                        word.as_str(),
                        "call"
                            | "invoke"
                            | "use"
                            | "using"
                            | "with"
                            | "via"
                            | "run"
                            | "try"
                            | "tool"
                            | "tools"
                    )
                })
                || after.is_some_and(|word| word == "tool")
        });
        if placeholder_names {
            return;
        }
        let named = (first..self.words.len()).any(|index| {
            let word = &self.words[index];
            // Inside parentheses a tool is named in passing.
            for b in self.masked[scanned..word.at.start].bytes() {
                match b {
                    b'(' => depth += 1,
                    b')' => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
            scanned = word.at.start;
            let name = self.word(word);
            match self.tool_mention(index, tools) {
                Some(Mention::Sure) => true,
                // Named without a verb that calls it: a step if the
                // sentence is an instruction, or if it names another of
                // the server's tools, outside parentheses; never the tool
                // that just failed.
                Some(Mention::Perhaps) => {
                    depth == 0
                        && tools.own.as_deref() != Some(name)
                        && (tools.get(name).is_some()
                            || verb_led
                                && (!tools.complete
                                    || self
                                        .closest(
                                            name,
                                            tools.tools.iter().map(|tool| tool.name.as_str()),
                                        )
                                        .is_some()))
                }
                None => false,
            }
        });
        if named {
            return;
        }
        let example = match &tools.own {
            Some(own) => format!("\"Call {own} again with ...\""),
            None => "\"Find the path with search_notes\"".to_owned(),
        };
        let list = if tools.complete && !tools.tools.is_empty() {
            format!(" (this server's tools: {})", tool_list(tools))
        } else {
            String::new()
        };
        // The step is the last sentence: quoted, so that the author sees
        // which words were read as the step.
        let start = self
            .words
            .get(self.last_sentence())
            .map_or(0, |word| word.at.start);
        let step = self.text[start..].trim();
        // A literal's placeholder is shown as its author wrote one.
        let shown: String = step
            .chars()
            .take(STEP_SHOWN)
            .collect::<String>()
            .replace(VALUE, "{}");
        let cut = if step.chars().nth(STEP_SHOWN).is_some() {
            "..."
        } else {
            ""
        };
        broken.push(Broken {
            rule: Rule::NamesTool,
            at: 0..self.text.len(),
            words: String::new(),
            message: format!(
                "the step \"{shown}{cut}\" names no tool; name the tool the model calls next, \
                 as {example}{list}"
            ),
        });
    }
}

/// How much of a step that names no tool its message quotes, in
/// characters.
const STEP_SHOWN: usize = 80;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mention {
    Sure,
    Perhaps,
}

/// Whether `word` can be a tool's or a parameter's name: letters, digits,
/// `_`, `-` and `.` inside, starting with a letter.
fn is_name(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        && !word.ends_with(['.', '-', '_'])
        && !word.contains('.')
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `text` with every value masked: a quoted value (`'...'`, as
/// `outcome_runtime::quote` writes it) and [`VALUE`] become `x`s of the
/// same byte length, so positions still point into `text`.
fn mask_values(text: &str) -> String {
    let mut masked = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    let mut previous: Option<char> = None;
    // Once a quote finds no close, no later one can: the scan from a later
    // opening quote (which follows whitespace or a bracket, never a `\`)
    // is in the same state as the earlier scan once that one passed it,
    // and sees the same bytes. Remembering it keeps masking linear.
    let mut unclosed = false;
    while let Some((at, c)) = chars.next() {
        if c == VALUE {
            masked.push_str("xxx");
            previous = Some('x');
            continue;
        }
        let opens = c == '\'' && previous.is_none_or(|p| p.is_whitespace() || "([{\"".contains(p));
        let end = match opens && !unclosed {
            true => closing_quote(&text[at + 1..]),
            false => None,
        };
        unclosed |= opens && end.is_none();
        if let Some(end) = end {
            let inner = &text[at + 1..at + 1 + end];
            masked.push('\'');
            masked.extend(std::iter::repeat_n('x', inner.len()));
            masked.push('\'');
            while chars.peek().is_some_and(|&(next, _)| next <= at + 1 + end) {
                chars.next();
            }
            previous = Some('\'');
            continue;
        }
        masked.push(c);
        previous = Some(c);
    }
    masked
}

/// `text` with each [`VALUE`] as `xxx`, of the same byte length.
fn mask_placeholders(text: &str) -> String {
    text.replace(VALUE, "xxx")
}

/// The byte offset of the quote that closes a quoted value in `rest`: a
/// `'` not escaped, followed by the end, whitespace or punctuation.
fn closing_quote(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    let mut escaped = false;
    for (at, &b) in bytes.iter().enumerate() {
        if escaped {
            escaped = false;
            continue;
        }
        match b {
            b'\\' => escaped = true,
            b'\'' => {
                let next = bytes.get(at + 1).copied();
                if next.is_none_or(|n| !n.is_ascii_alphanumeric()) {
                    return Some(at);
                }
            }
            _ => {}
        }
    }
    None
}

/// Splits `masked` into words, each without the punctuation around it.
fn split_words(masked: &str) -> Vec<Word> {
    let mut words = Vec::new();
    let mut start = None;
    let bytes = masked.as_bytes();
    for (at, c) in masked.char_indices().chain([(masked.len(), ' ')]) {
        if !c.is_whitespace() {
            start.get_or_insert(at);
            continue;
        }
        let Some(from) = start.take() else {
            continue;
        };
        let raw = &masked[from..at];
        let lead = raw.len() - raw.trim_start_matches(LEADING).len();
        let trimmed = raw.trim_start_matches(LEADING).trim_end_matches(TRAILING);
        if trimmed.is_empty() {
            // A lone mark ends the sentence before it.
            if raw.contains(['.', '!', '?'])
                && let Some(last) = words.last_mut()
            {
                let last: &mut Word = last;
                last.ends_sentence = true;
            }
            continue;
        }
        let begin = from + lead;
        let end = begin + trimmed.len();
        let tail = &masked[end..at];
        let followed_by = tail.chars().find(|c| !"'\"`)]}".contains(*c));
        // A sentence ends at `.`, `!` or `?` followed by the end or a word
        // that starts as a sentence does.
        let mark = tail.contains(['.', '!', '?']);
        // A line break ends a sentence too: a text of four lines is four.
        let broken_line = masked[at..]
            .chars()
            .take_while(|c| c.is_whitespace())
            .any(|c| c == '\n' || c == '\r');
        let next = bytes[at..]
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .map(|skip| at + skip);
        let starts_sentence = next.is_none_or(|n| {
            masked[n..]
                .trim_start_matches(LEADING)
                .chars()
                .next()
                .is_none_or(|c| c.is_uppercase() || c.is_ascii_digit())
        });
        // "e.g." and its kind end no sentence.
        let abbreviation = tail.starts_with('.')
            && ABBREVIATIONS
                .iter()
                .any(|short| trimmed.eq_ignore_ascii_case(short));
        // A line that introduces a list, or one followed by an item of a
        // list, goes on: "Found 2 notes:\n- a.md\n- b.md" is one sentence.
        let list_goes_on = followed_by == Some(':')
            || next.is_some_and(|n| {
                let line = &masked[n..];
                line.starts_with(['-', '*', '\u{2022}'])
                    || line
                        .trim_start_matches(|c: char| c.is_ascii_digit())
                        .starts_with(['.', ')'])
                        && line.starts_with(|c: char| c.is_ascii_digit())
            });
        words.push(Word {
            at: begin..end,
            ends_sentence: (mark && starts_sentence && !abbreviation)
                || (broken_line && (mark || !list_goes_on)),
            followed_by,
        });
    }
    words
}

/// Words whose full stop ends no sentence.
const ABBREVIATIONS: &[&str] = &["e.g", "i.e", "etc", "vs", "approx", "incl", "cf"];

const LEADING: &[char] = &['(', '[', '{', '"', '`', '\'', '*', '<'];
const TRAILING: &[char] = &[
    '.', ',', ';', ':', '!', '?', ')', ']', '}', '"', '`', '\'', '*', '>',
];

/// Phrases that break a rule wherever they stand, lowercase.
const PHRASES: &[(&str, Rule, &str)] = &[
    ("see the description", Rule::NoLookup, LOOKUP),
    ("see the tool description", Rule::NoLookup, LOOKUP),
    ("see the documentation", Rule::NoLookup, LOOKUP),
    ("see the docs", Rule::NoLookup, LOOKUP),
    ("see the logs", Rule::NoLookup, LOOKUP),
    ("check the logs", Rule::NoLookup, LOOKUP),
    ("see the server logs", Rule::NoLookup, LOOKUP),
    ("check the documentation", Rule::NoLookup, LOOKUP),
    ("check the docs", Rule::NoLookup, LOOKUP),
    ("read the docs", Rule::NoLookup, LOOKUP),
    ("refer to the", Rule::NoLookup, LOOKUP),
    ("consult the", Rule::NoLookup, LOOKUP),
    ("as documented", Rule::NoLookup, LOOKUP),
    ("see above", Rule::NoLookup, LOOKUP),
    ("for further information", Rule::NoLookup, LOOKUP),
    ("for more information", Rule::NoLookup, LOOKUP),
    ("for more details", Rule::NoLookup, LOOKUP),
    ("see below", Rule::NoLookup, LOOKUP),
    ("error code", Rule::NoLookup, CODE),
    ("errno", Rule::NoLookup, CODE),
    ("traceback", Rule::NoStackFrame, FRAME),
    ("stack trace", Rule::NoStackFrame, FRAME),
    ("stack backtrace", Rule::NoStackFrame, FRAME),
    ("panicked at", Rule::NoStackFrame, FRAME),
    ("environment variable", Rule::NoEnvVar, ENV),
    ("environment variables", Rule::NoEnvVar, ENV),
    ("env var", Rule::NoEnvVar, ENV),
];

const LOOKUP: &str = "sends the model to read something it cannot reach from a failed call; \
     say in this text what it must change";
const CODE: &str = "asks the model to look up a code; say in words what went wrong";
const FRAME: &str = "is the operator's, not the model's; the log has it, so leave it out";
const ENV: &str = "is the operator's to set, not the model's; say what the model can do instead";

/// Programs whose commands the model cannot run, with the words that make
/// them a command (none: the program alone is one).
const COMMANDS: &[(&str, &[&str])] = &[
    ("sudo", &[]),
    (
        "cargo",
        &["run", "build", "install", "test", "add", "update", "check"],
    ),
    ("npm", &["install", "i", "run", "start", "ci", "exec"]),
    ("npx", &[]),
    ("pip", &["install", "uninstall"]),
    ("pip3", &["install", "uninstall"]),
    ("python", &["-m", "-c"]),
    ("python3", &["-m", "-c"]),
    ("apt", &["install", "get", "update"]),
    ("apt-get", &[]),
    ("brew", &["install", "services"]),
    (
        "docker",
        &["run", "exec", "compose", "restart", "start", "stop"],
    ),
    ("kubectl", &[]),
    ("systemctl", &[]),
    ("chmod", &[]),
    ("chown", &[]),
    (
        "git",
        &[
            "pull", "push", "clone", "checkout", "reset", "commit", "fetch", "stash",
        ],
    ),
    ("curl", &[]),
    ("aws", &["configure", "s3", "sso", "login", "sts"]),
    ("gcloud", &["auth", "config", "init", "components"]),
    ("az", &["login", "account"]),
    ("gh", &["auth", "repo", "pr", "login"]),
    ("export", &[]),
];

/// The rule one word breaks on its own, if any, and why.
fn word_rule(word: &str) -> Option<(Rule, String)> {
    if word.bytes().all(|b| b == b'x') {
        return None;
    }
    if let Some(why) = path(word) {
        return Some((
            Rule::NoPath,
            format!(
                "`{word}` is {why}; say what the model can name instead, or quote the model's own value"
            ),
        ));
    }
    if is_frame(word) {
        return Some((
            Rule::NoStackFrame,
            format!(
                "`{word}` is a source location, which is the operator's; the log has it, so leave it out"
            ),
        ));
    }
    if is_type_name(word) {
        return Some((
            Rule::NoTypeName,
            format!(
                "`{word}` is a type name, which means nothing to the model; say in words what went wrong"
            ),
        ));
    }
    if is_env_var(word) {
        return Some((
            Rule::NoEnvVar,
            format!(
                "`{word}` is an environment variable, which the model cannot set; say what the model can do instead"
            ),
        ));
    }
    if is_code(word) {
        return Some((
            Rule::NoLookup,
            format!(
                "`{word}` is an error code, which the model cannot look up; say in words what went wrong"
            ),
        ));
    }
    if is_level(word) {
        return Some((
            Rule::NoLogLine,
            format!(
                "`{word}` belongs to a log line, which is the operator's; say what went wrong in the model's terms"
            ),
        ));
    }
    if word.contains("://") {
        return Some((
            Rule::NoLookup,
            format!(
                "`{word}` sends the model to a page it cannot read from a failed call; say \
                 in this text what it must change"
            ),
        ));
    }
    if is_flag(word) {
        return Some((
            Rule::NoCommand,
            format!(
                "`{word}` is a command-line flag the model cannot pass; name the tool's parameter instead"
            ),
        ));
    }
    None
}

const LEVELS: &[&str] = &[
    "ERROR", "WARN", "WARNING", "INFO", "DEBUG", "TRACE", "FATAL", "CRITICAL",
];

/// A log line's timestamp or level.
fn is_level(word: &str) -> bool {
    is_timestamp(word) || LEVELS.contains(&word)
}

/// Why `word` is a path of the server, if it is one: absolute (`/srv/x`,
/// `C:\x`, `\\host\x`) or in a home directory (`~/x`). A relative path
/// (`inbox/todo.md`) and a URL are not.
fn path(word: &str) -> Option<&'static str> {
    if word.contains("://") {
        return None;
    }
    let bytes = word.as_bytes();
    let unix = bytes.first() == Some(&b'/')
        && bytes
            .get(1)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'.' || *b == b'_')
        && word[1..].contains('/');
    let root = matches!(
        word,
        "/etc" | "/srv" | "/var" | "/tmp" | "/home" | "/usr" | "/opt" | "/root"
    );
    let windows = bytes.len() > 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && (bytes[2] == b'\\' || bytes[2] == b'/');
    let share = word.starts_with("\\\\") && word.len() > 2;
    let home = word.starts_with("~/") && word.len() > 2;
    (unix || root || windows || share || home)
        .then_some("a path on the server, which the model cannot open")
}

/// A source location: `main.rs:42`, `server.py:10:5`, `Foo.java:3`.
fn is_frame(word: &str) -> bool {
    let Some((file, rest)) = word.split_once(':') else {
        return false;
    };
    let line = rest.split(':').next().unwrap_or("");
    !line.is_empty()
        && line.bytes().all(|b| b.is_ascii_digit())
        && SOURCE_EXTENSIONS.iter().any(|extension| {
            file.len() > extension.len() + 1
                && file.ends_with(extension)
                && file.as_bytes()[file.len() - extension.len() - 1] == b'.'
        })
}

const SOURCE_EXTENSIONS: &[&str] = &[
    "rs", "py", "js", "ts", "mjs", "go", "java", "kt", "rb", "c", "cc", "cpp", "h", "cs", "php",
    "swift", "scala", "ex", "exs",
];

/// An exception or error type: `FileNotFoundError`, `IOException`,
/// `std::io::Error`, `io::ErrorKind::NotFound`.
fn is_type_name(word: &str) -> bool {
    if word.contains("::") {
        let segments: Vec<&str> = word.split("::").collect();
        return segments.len() > 1
            && segments.iter().all(|s| {
                !s.is_empty()
                    && s.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'<' || b == b'>')
            });
    }
    // A generated type: a tool's name, then a type's (`read_noteArguments`).
    if let Some(at) = word.find(|c: char| c.is_ascii_uppercase())
        && at > 0
        && word[..at].contains('_')
        && word.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return true;
    }
    let camel = word.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
        && word.bytes().all(|b| b.is_ascii_alphanumeric());
    camel
        && TYPE_SUFFIXES
            .iter()
            .any(|suffix| word.len() > suffix.len() && word.ends_with(suffix))
}

/// The ends of type names a model never needs: `ValueError`,
/// `IOException`, `ReadNoteArguments`.
const TYPE_SUFFIXES: &[&str] = &[
    "Error",
    "Exception",
    "Panic",
    "Fault",
    "Arguments",
    "Params",
    "Model",
    "Schema",
];

/// An environment variable: `$HOME`, `${HOME}`, `%APPDATA%`, or a name in
/// capitals with an underscore (`NOTES_DIR`).
fn is_env_var(word: &str) -> bool {
    let name = word
        .strip_prefix("${")
        .and_then(|w| w.strip_suffix('}'))
        .or_else(|| word.strip_prefix('$'))
        .or_else(|| word.strip_prefix('%').and_then(|w| w.strip_suffix('%')));
    if let Some(name) = name {
        // `$source` and `$merge` are a query's stages; a variable is in
        // capitals.
        return !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            && name.bytes().any(|b| b.is_ascii_alphabetic());
    }
    if WELL_KNOWN_VARIABLES.contains(&word) {
        return true;
    }
    let capitals = word.split('_').filter(|part| !part.is_empty());
    word.contains('_')
        && !word.starts_with('_')
        && word
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && capitals.clone().count() >= 2
        && capitals.clone().all(|part| part.len() >= 2)
}

/// Words before a number that make it a bound or a value, not a code.
const BOUNDS: &[&str] = &[
    "from", "to", "between", "than", "least", "most", "minimum", "maximum", "min", "max", "below",
    "above", "is", "was", "be", "of", "=", "and",
];

/// Words before a URL that send the model to read it.
const REFERRING: &[&str] = &[
    "see",
    "visit",
    "read",
    "consult",
    "refer",
    "documentation",
    "docs",
    "information",
    "details",
    "guide",
    "go",
    "at",
];

/// How the names of environment variables end.
const ENV_SUFFIXES: &[&str] = &[
    "_TOKEN",
    "_KEY",
    "_SECRET",
    "_PASSWORD",
    "_DIR",
    "_PATH",
    "_HOME",
    "_URL",
    "_URI",
    "_HOST",
    "_PORT",
    "_USER",
    "_USERNAME",
    "_CONFIG",
    "_FILE",
    "_ENV",
    "_REGION",
    "_PROFILE",
    "_ENDPOINT",
];

/// A name in capitals with an underscore: `NOTES_DIR`, `ENTITY_NOT_FOUND`.
fn is_capital_snake(word: &str) -> bool {
    word.contains('_')
        && word
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// Environment variables every system has, named without an underscore.
const WELL_KNOWN_VARIABLES: &[&str] = &["PATH", "HOME", "PYTHONPATH", "TMPDIR", "APPDATA"];

/// An error code to look up: `-32602`, `E0308`, `ERR_INVALID`, `0x80070005`.
fn is_code(word: &str) -> bool {
    let negative = word
        .strip_prefix('-')
        .is_some_and(|n| n.len() >= 4 && n.bytes().all(|b| b.is_ascii_digit()));
    let lettered = word.len() >= 5
        && word.as_bytes()[0] == b'E'
        && word[1..].bytes().all(|b| b.is_ascii_digit());
    let err = word.starts_with("ERR_") && word.len() > 4;
    let hex = word.starts_with("0x")
        && word.len() >= 6
        && word[2..].bytes().all(|b| b.is_ascii_hexdigit());
    negative || lettered || err || hex
}

/// A timestamp: `2026-01-31T12:00`, `12:00:01`.
fn is_timestamp(word: &str) -> bool {
    let bytes = word.as_bytes();
    let date = bytes.len() >= 16
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && (bytes[10] == b'T' || bytes[10] == b' ')
        && bytes[..4].iter().all(u8::is_ascii_digit);
    let time = bytes.len() >= 8
        && bytes[2] == b':'
        && bytes[5] == b':'
        && bytes
            .iter()
            .all(|b| b.is_ascii_digit() || matches!(b, b':' | b'.' | b','));
    date || time
}

/// A field of a log line or a debug dump: `input_type=dict`,
/// `type=missing`, `[code=7`.
fn is_field(word: &str) -> bool {
    let word = word.trim_start_matches(['[', '(', '{']);
    word.split_once('=').is_some_and(|(key, _)| {
        !key.is_empty()
            && key.as_bytes()[0].is_ascii_alphabetic()
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
    })
}

/// A command-line flag: `--force`, `--dry-run`.
fn is_flag(word: &str) -> bool {
    word.strip_prefix("--").is_some_and(|flag| {
        flag.len() >= 2
            && flag.as_bytes()[0].is_ascii_alphabetic()
            && flag
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'=')
    })
}

/// The name among `candidates` closest to `name`, when it is close enough
/// to be the one meant: at most a third of `name`'s length away, and at
/// most three edits. The one reading of "did you mean" for the rules, the
/// macros' arguments and the audit. Linear in the names: a candidate whose
/// length differs by more than the edits allowed is passed over unread,
/// and the distance is counted only within that many edits of the
/// diagonal.
///
/// ```
/// let tools = ["search_notes", "read_note"];
/// assert_eq!(outcome_rules::closest("serch_notes", tools.into_iter()), Some("search_notes"));
/// assert_eq!(outcome_rules::closest("delete", tools.into_iter()), None);
/// ```
pub fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let length = name.chars().count();
    let limit = (length / 3).clamp(1, 3);
    candidates
        .filter(|candidate| *candidate != name)
        // A char is one to four bytes: a byte length this far off is a
        // char length more than `limit` off.
        .filter(|candidate| {
            candidate.len() + limit >= length && candidate.len() <= 4 * (length + limit)
        })
        .filter_map(|candidate| Some((edits_within(name, candidate, limit)?, candidate)))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// The edit distance between `a` and `b` (insertions, deletions,
/// substitutions, and two neighbours swapped), by characters, if it is at
/// most `limit`: only the cells
/// within `limit` of the diagonal are counted, so the cost is
/// `(2 × limit + 1)` per character of `a`, however long `b` is.
fn edits_within(a: &str, b: &str, limit: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let far = limit + 1;
    let n = b.len();
    // Rows `i - 2`, `i - 1` and `i` of the table: `row[j]` is the distance
    // between `a[..i]` and `b[..j]`, capped at `far`; the cells just
    // outside each row's band are `far`, so that no stale cell is read.
    let mut before = vec![far; n + 1];
    let mut previous: Vec<usize> = (0..=n).map(|j| j.min(far)).collect();
    let mut current = vec![far; n + 1];
    for i in 1..=a.len() {
        let from = i.saturating_sub(limit);
        let to = (i + limit).min(n);
        if from == 0 {
            current[0] = i.min(far);
        } else {
            current[from - 1] = far;
        }
        for j in from.max(1)..=to {
            let substituted = previous[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut cell = substituted.min(previous[j] + 1).min(current[j - 1] + 1);
            // Two letters swapped are one slip of the keyboard.
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cell = cell.min(before[j - 2] + 1);
            }
            current[j] = cell.min(far);
        }
        if to < n {
            current[to + 1] = far;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    let distance = previous[n];
    (distance <= limit).then_some(distance)
}

fn tool_list(tools: &Tools) -> String {
    const SHOWN: usize = 12;
    let names = tools.tools.iter().map(|tool| tool.name.as_str());
    let mut list = backticked(names.clone().take(SHOWN));
    if tools.tools.len() > SHOWN {
        list.push_str(&format!(" and {} more", tools.tools.len() - SHOWN));
    }
    list
}

fn backticked<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests;
