//! The report: findings grouped into defects by rule and template, and
//! its text.

use super::*;

/// One answer that breaks one expectation.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The tool called.
    pub tool: String,
    /// What the call got wrong on purpose: "the required argument path
    /// left out".
    pub mistake: String,
    /// The call sent, as JSON: `{"name": .., "arguments": ..}`.
    pub call: Value,
    /// The text the model read (the JSON-RPC error's message, for a call
    /// that got one).
    pub text: String,
    /// The expectation broken.
    pub broken: Expectation,
    /// What is wrong, one sentence.
    pub detail: String,
}

/// A call the audit made and did not judge, and why: its answer is about
/// something else than the mistake the call made.
#[derive(Clone, Debug)]
pub struct NotJudged {
    /// The tool called.
    pub tool: String,
    /// What the call got wrong on purpose.
    pub mistake: String,
    /// The call sent, as JSON: `{"name": .., "arguments": ..}`.
    pub call: Value,
    /// The text the model read.
    pub text: String,
    /// Why the answer was not judged, one sentence.
    pub why: String,
}

/// Findings that are one defect: the same expectation broken by texts of
/// one template (the same first words, but for the names and values of
/// each call).
#[derive(Clone, Debug)]
pub struct Defect<'r> {
    /// The expectation broken.
    pub broken: Expectation,
    /// The template the texts share: the first eight words of their
    /// first line, with the
    /// arguments' names, quoted values, numbers and identifiers written as
    /// `<argument>`, `<value>`, `#` and `<name>`.
    pub template: String,
    /// Each finding of the defect, in the order of the calls; the first
    /// is its example.
    pub findings: Vec<&'r Finding>,
    /// The tools whose answers show it, in the order of the calls.
    pub tools: Vec<&'r str>,
}

impl Defect<'_> {
    /// The calls whose answers show it: a call may break one rule in
    /// several places. The findings of one call stand together, in the
    /// order of the calls.
    pub fn calls(&self) -> usize {
        let mut calls = self
            .findings
            .iter()
            .map(|finding| &finding.call)
            .collect::<Vec<_>>();
        calls.dedup();
        calls.len()
    }
}

/// What the audit found: see [`Audit`](crate::Audit).
#[derive(Clone, Debug, Default)]
pub struct AuditReport {
    /// The tools the server lists.
    pub tools: usize,
    /// The calls made.
    pub calls: usize,
    /// The calls whose answer was judged: the calls made, less those
    /// [not judged](Self::not_judged) and those a tool refused as not a
    /// task.
    pub judged: usize,
    /// Whether the log records were checked (only for a server audited in
    /// this process).
    pub logs_checked: bool,
    /// Every expectation an answer broke, in the order of the calls.
    pub findings: Vec<Finding>,
    /// What the audit could not probe, and why: a schema it cannot read or
    /// build a value for, a size past its bounds, tools past its bounds.
    pub not_probed: Vec<NotProbed>,
    /// The calls whose answer is about something else than the call's
    /// mistake (the audit's baseline, which the server refused), and why.
    pub not_judged: Vec<NotJudged>,
    /// The tools the audit did not run with a call that keeps to their
    /// schema, since they are not annotated read-only (see
    /// [`ValidCalls`]).
    pub not_run: Vec<String>,
    /// Every entry of the tool list, in its order, each under exactly one
    /// [`Heading`], with why and its counts.
    pub by_tool: Vec<ToolSummary>,
}

impl AuditReport {
    /// Whether every tool was probed, at least one answer was judged, and
    /// every answer judged met every expectation.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty() && self.not_probed.is_empty() && self.judged > 0
    }

    /// Why the report is not [clean](Self::is_clean), one sentence a
    /// reason: its findings, what was not probed, and no answer judged,
    /// with why none was. Empty when it is clean.
    pub fn why_not_clean(&self) -> Vec<String> {
        let mut why = Vec::new();
        if !self.findings.is_empty() {
            why.push(format!(
                "{} findings: answers that break an expectation, grouped into the {} defects \
                 below",
                self.findings.len(),
                self.defects().len()
            ));
        }
        if !self.not_probed.is_empty() {
            why.push(format!(
                "{} not probed: what the audit made no call for, or got no answer from, was \
                 not checked; each is listed with why",
                self.not_probed.len()
            ));
        }
        if self.judged == 0 {
            why.push(format!("no answer judged: {}", self.why_none_judged()));
        }
        why
    }

    /// Why no answer was judged, from the headings of the tools.
    fn why_none_judged(&self) -> String {
        if self.tools == 0 {
            return "the server lists no tools".into();
        }
        let count = |heading: Heading| {
            self.by_tool
                .iter()
                .filter(|tool| tool.heading == heading)
                .count()
        };
        let mut parts = Vec::new();
        let not_run = count(Heading::NotRun);
        if not_run > 0 {
            parts.push(format!(
                "{not_run} not run, which take no argument the audit can get wrong and are not \
                 annotated read-only (--run-every-tool runs them)"
            ));
        }
        for heading in [Heading::NotProbed, Heading::NotJudged] {
            let n = count(heading);
            if n > 0 {
                parts.push(format!("{n} {}, each listed with why", heading.words()));
            }
        }
        if parts.is_empty() {
            "no call got an answer the audit could judge".into()
        } else {
            format!(
                "of the {} tools, none got a call whose answer the audit could judge: {}",
                self.tools,
                parts.join("; ")
            )
        }
    }

    /// The findings as defects: one for each expectation broken by texts
    /// of one template, in the order they were first found.
    pub fn defects(&self) -> Vec<Defect<'_>> {
        let mut defects: Vec<Defect<'_>> = Vec::new();
        let mut index = std::collections::HashMap::new();
        for finding in &self.findings {
            let template = template(finding);
            let at = *index
                .entry((finding.broken.name(), template.clone()))
                .or_insert_with(|| {
                    defects.push(Defect {
                        broken: finding.broken,
                        template,
                        findings: Vec::new(),
                        tools: Vec::new(),
                    });
                    defects.len() - 1
                });
            let defect = &mut defects[at];
            defect.findings.push(finding);
            if !defect.tools.contains(&finding.tool.as_str()) {
                defect.tools.push(&finding.tool);
            }
        }
        defects
    }

    /// The number of calls with at least one finding.
    pub fn calls_with_findings(&self) -> usize {
        let mut calls: Vec<&Value> = self.findings.iter().map(|f| &f.call).collect();
        calls.dedup();
        calls.len()
    }
}

/// A finding's text as a template: the first eight words of its first
/// line, with the call's argument names, quoted and bracketed values,
/// numbers and identifiers (a word with `_` or a capital inside) written
/// as placeholders, so that the texts one template writes over calls and
/// tools read as one. The start is where a template shows: what follows
/// (a validator's list of errors) varies with the mistake.
pub(crate) fn template(finding: &Finding) -> String {
    let line = finding
        .text
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or_default();
    let text = line;
    // The names are looked up once per word: a schema may declare
    // thousands.
    let arguments: std::collections::HashSet<&str> = finding
        .call
        .get("arguments")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, _)| name.as_str())
        .chain(finding.mistake.split(' ').filter(|w| w.contains('_')))
        .collect();
    // For each character, where the quote or bracket it opens closes on
    // its line: found in one pass from the end, so the template is linear
    // in the text.
    let chars: Vec<char> = text.chars().collect();
    let closers = ['\'', '"', '`', '}', ']'];
    let mut next = [usize::MAX; 5];
    let mut closes = vec![usize::MAX; chars.len()];
    for (at, &c) in chars.iter().enumerate().rev() {
        let opens = match c {
            '{' => Some(3),
            '[' => Some(4),
            _ => closers[..3].iter().position(|&q| q == c),
        };
        if let Some(kind) = opens {
            closes[at] = next[kind];
        }
        if c == '\n' {
            next = [usize::MAX; 5];
        } else if let Some(kind) = closers.iter().position(|&q| q == c) {
            next[kind] = at;
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        if closes[at] != usize::MAX {
            out.push_str("<value>");
            at = closes[at] + 1;
        } else if c.is_ascii_digit() {
            while at < chars.len() && chars[at].is_ascii_digit() {
                at += 1;
            }
            out.push('#');
        } else {
            out.push(c);
            at += 1;
        }
    }
    let template = identifiers(&out, &arguments);
    template
        .split_whitespace()
        .take(TEMPLATE_WORDS)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The words of a first line that make its template: enough for a
/// sentence's frame, short of where a validator's words vary with the
/// mistake ("expected string, received null").
pub(crate) const TEMPLATE_WORDS: usize = 8;

/// `text` with each of the call's `arguments` written as `<argument>`, and
/// each other identifier (a word with `_`, or a capital after a small
/// letter: `read_note`, `statusArguments`) as `<name>`.
pub(crate) fn identifiers(text: &str, arguments: &std::collections::HashSet<&str>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let camel = word
            .as_bytes()
            .windows(2)
            .any(|pair| pair[0].is_ascii_lowercase() && pair[1].is_ascii_uppercase());
        if arguments.contains(word.as_str()) {
            out.push_str("<argument>");
        } else if word.contains('_') || camel {
            out.push_str("<name>");
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The characters the report shows of one line of a server's text, or of
/// anything else the server named (a tool, an argument).
pub(crate) const SHOWN_LINE: usize = 500;

/// The lines the report shows of a server's text.
pub(crate) const SHOWN_LINES: usize = 20;

/// The entries the report shows of what was not probed.
pub(crate) const SHOWN_NOT_PROBED: usize = 100;

/// Any text a server wrote, as the audit's report shows it: one line of at
/// most 500 characters, its whitespace folded, its control and invisible
/// characters escaped, since the report is read in a terminal and the
/// text is any server's. For an error message to print beside the report.
pub fn shown_line(text: &str) -> String {
    one_line(text, SHOWN_LINE)
}

/// `text` as the report shows it: each of its first lines on a line of its
/// own, bounded, with its control and invisible characters escaped, since
/// the report is read in a terminal and the text is any server's.
pub(crate) fn shown(text: &str) -> String {
    let mut lines = text.split('\n');
    let mut out = String::new();
    for (index, line) in lines.by_ref().take(SHOWN_LINES).enumerate() {
        if index > 0 {
            out.push_str("\n          ");
        }
        out.push_str(&one_line(line, SHOWN_LINE));
    }
    let rest = lines.count();
    if rest > 0 {
        out.push_str(&format!("\n          ... and {rest} more lines"));
    }
    out
}

/// What the report shows for a tool, an argument or the tool list.
pub(crate) fn what(tool: Option<&String>, argument: Option<&String>) -> String {
    match (tool, argument) {
        (None, _) => "the tool list".to_owned(),
        (Some(tool), None) => one_line(tool, SHOWN_LINE),
        (Some(tool), Some(argument)) => format!(
            "{}, argument {}",
            one_line(tool, SHOWN_LINE),
            one_line(argument, SHOWN_LINE)
        ),
    }
}

/// Counts of `(key, n)`, in the order first met, as `key n, key n`.
pub(crate) fn tally<'a>(keys: impl Iterator<Item = (&'a str, usize)>) -> Vec<(&'a str, usize)> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for (key, n) in keys {
        match counts.iter_mut().find(|(k, _)| *k == key) {
            Some((_, count)) => *count += n,
            None => counts.push((key, n)),
        }
    }
    counts
}

impl fmt::Display for AuditReport {
    /// A header with the counts, a summary by rule and by tool, then what
    /// was not probed, not run and not judged (a line each, the first
    /// 100), then one block per defect: the expectation broken and what is
    /// wrong, the calls and tools that show it, and one example call with
    /// the text read. What the server wrote is shown bounded (the first
    /// 20 lines, 500 characters each), its control and invisible
    /// characters escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let defects = self.defects();
        let verdict = if self.is_clean() {
            "clean"
        } else {
            "NOT clean"
        };
        let mut counts = vec![
            format!("{} tools", self.tools),
            format!("{} calls", self.calls),
        ];
        if !self.findings.is_empty() {
            counts.push(format!(
                "{} defects ({} findings in {} calls)",
                defects.len(),
                self.findings.len(),
                self.calls_with_findings()
            ));
        }
        for (n, what) in [
            (self.not_probed.len(), "not probed"),
            (self.not_run.len(), "not run"),
            (self.not_judged.len(), "not judged"),
        ] {
            if n > 0 {
                counts.push(format!("{n} {what}"));
            }
        }
        write!(f, "outcome audit: {verdict}: {}", counts.join(", "))?;
        if self.judged == 0 {
            write!(f, " (no answer judged)")?;
        }
        if !self.logs_checked {
            write!(f, " (log records not checked)")?;
        }
        writeln!(f)?;
        for why in self.why_not_clean() {
            writeln!(f, "not clean: {}", one_line(&why, SHOWN_LINE * 2))?;
        }
        if !defects.is_empty() {
            let rules = tally(defects.iter().map(|d| (d.broken.name(), 1)));
            let findings = tally(self.findings.iter().map(|x| (x.broken.name(), 1)));
            let by_rule: Vec<String> = rules
                .iter()
                .zip(&findings)
                .map(|((rule, n), (_, m))| format!("{rule} {n} ({m})"))
                .collect();
            writeln!(f, "\nby rule, defects (findings): {}", by_rule.join(", "))?;
            let tools = tally(self.findings.iter().map(|x| (x.tool.as_str(), 1)));
            let by_tool: Vec<String> = tools
                .iter()
                .take(SHOWN_NOT_PROBED)
                .map(|(tool, n)| format!("{} {n}", one_line(tool, SHOWN_LINE)))
                .collect();
            writeln!(f, "by tool, findings: {}", by_tool.join(", "))?;
        }
        let headings: Vec<String> = Heading::ALL
            .into_iter()
            .filter_map(|heading| {
                let tools: Vec<&ToolSummary> = self
                    .by_tool
                    .iter()
                    .filter(|tool| tool.heading == heading)
                    .collect();
                let shown: Vec<String> = tools
                    .iter()
                    .take(SHOWN_NOT_PROBED)
                    .map(|tool| one_line(&tool.name, SHOWN_LINE))
                    .collect();
                let more = if tools.len() > shown.len() {
                    ", ..."
                } else {
                    ""
                };
                (!tools.is_empty()).then(|| {
                    format!(
                        "{} ({}): {}{more}",
                        heading.words(),
                        tools.len(),
                        shown.join(", ")
                    )
                })
            })
            .collect();
        if !headings.is_empty() {
            if defects.is_empty() {
                writeln!(f)?;
            }
            writeln!(f, "by heading, tools: {}", headings.join("; "))?;
        }
        let lists =
            !self.not_probed.is_empty() || !self.not_run.is_empty() || !self.not_judged.is_empty();
        if lists {
            writeln!(f)?;
        }
        for not in self.not_probed.iter().take(SHOWN_NOT_PROBED) {
            let what = what(not.tool.as_ref(), not.argument.as_ref());
            writeln!(f, "not probed: {what}: {}", one_line(&not.why, SHOWN_LINE))?;
        }
        if let Some(rest) = self.not_probed.len().checked_sub(SHOWN_NOT_PROBED)
            && rest > 0
        {
            writeln!(f, "not probed: ... and {rest} more")?;
        }
        if !self.not_run.is_empty() {
            let tools: Vec<String> = self
                .not_run
                .iter()
                .take(SHOWN_NOT_PROBED)
                .map(|tool| one_line(tool, SHOWN_LINE))
                .collect();
            writeln!(
                f,
                "not run (not annotated read-only, so called only with arguments that break \
                 the schema; to run them too, audit a disposable copy of the server with \
                 --run-every-tool): {}{}",
                tools.join(", "),
                if self.not_run.len() > tools.len() {
                    ", ..."
                } else {
                    ""
                }
            )?;
        }
        for not in self.not_judged.iter().take(SHOWN_NOT_PROBED) {
            writeln!(
                f,
                "not judged: {}: {}: {}",
                one_line(&not.tool, SHOWN_LINE),
                one_line(&not.mistake, SHOWN_LINE),
                one_line(&not.why, SHOWN_LINE)
            )?;
        }
        if let Some(rest) = self.not_judged.len().checked_sub(SHOWN_NOT_PROBED)
            && rest > 0
        {
            writeln!(f, "not judged: ... and {rest} more")?;
        }
        for (number, defect) in defects.iter().enumerate() {
            let example = defect.findings[0];
            writeln!(f)?;
            writeln!(
                f,
                "[{}] {}: {}",
                number + 1,
                defect.broken,
                one_line(&example.detail, SHOWN_LINE)
            )?;
            let calls = defect.calls();
            if calls > 1 {
                let tools: Vec<String> = defect
                    .tools
                    .iter()
                    .take(20)
                    .map(|tool| one_line(tool, SHOWN_LINE))
                    .collect();
                writeln!(
                    f,
                    "  in:     {calls} calls of {}{}",
                    tools.join(", "),
                    if defect.tools.len() > tools.len() {
                        ", ..."
                    } else {
                        ""
                    }
                )?;
            }
            writeln!(
                f,
                "  e.g.:   {}: {}",
                one_line(&example.tool, SHOWN_LINE),
                one_line(&example.mistake, SHOWN_LINE)
            )?;
            writeln!(
                f,
                "  sent:   {}",
                one_line(&example.call.to_string(), SHOWN_LINE)
            )?;
            writeln!(f, "  read:   {}", shown(&example.text))?;
        }
        Ok(())
    }
}
