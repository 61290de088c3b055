//! Each tool of the tool list under one heading: run, not run, not probed
//! or not judged, with why, so that no tool the server lists goes
//! unmentioned in the report, and none is counted twice.

use super::*;

/// Where a tool of the tool list stands in the report. Each tool is under
/// exactly one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Heading {
    /// Called with arguments its schema accepts, as well as with each
    /// mistake its schema allows, and at least one answer judged.
    Run,
    /// Called only with mistakes, since it is not annotated read-only
    /// (see [`ValidCalls`]); a tool that takes no argument then gets no
    /// call at all.
    NotRun,
    /// No answer of it checked as a whole: its entry or its schema the
    /// audit cannot read or build a call for, a call with no answer, a
    /// tool that must run as a task, or the audit stopped before it.
    NotProbed,
    /// Called, and answered, but no answer judged: each was about
    /// something else than the call's mistake (see [`NotJudged`]).
    NotJudged,
}

impl Heading {
    /// The heading's name, as the JSON report writes it: `run`,
    /// `not_run`, `not_probed`, `not_judged`.
    pub fn name(self) -> &'static str {
        match self {
            Heading::Run => "run",
            Heading::NotRun => "not_run",
            Heading::NotProbed => "not_probed",
            Heading::NotJudged => "not_judged",
        }
    }

    /// The heading as the text report writes it: `not run`.
    pub fn words(self) -> &'static str {
        match self {
            Heading::Run => "run",
            Heading::NotRun => "not run",
            Heading::NotProbed => "not probed",
            Heading::NotJudged => "not judged",
        }
    }

    /// Every heading, in the order the report lists them.
    pub const ALL: [Heading; 4] = [
        Heading::Run,
        Heading::NotRun,
        Heading::NotProbed,
        Heading::NotJudged,
    ];
}

/// One entry of the tool list, and what the audit did with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolSummary {
    /// The tool's name, as the server wrote it (`(no name)` for an entry
    /// without one).
    pub name: String,
    /// Its heading.
    pub heading: Heading,
    /// Why it is under that heading, for every heading but
    /// [`Heading::Run`].
    pub why: Option<String>,
    /// The arguments its input schema declares or requires: a tool that
    /// takes none cannot be called wrong, and gets only the call that
    /// keeps to its schema.
    pub arguments: usize,
    /// The calls made to it.
    pub calls: usize,
    /// Its answers judged.
    pub judged: usize,
    /// Its findings, its description's included.
    pub findings: usize,
    /// The arguments, mistakes and calls of it not probed, itself
    /// included.
    pub not_probed: usize,
}

impl ToolSummary {
    /// An entry of the tool list the audit has not reached (yet): not
    /// probed, for `why`.
    pub(crate) fn unreached(name: String, why: String) -> Self {
        ToolSummary {
            name,
            heading: Heading::NotProbed,
            why: Some(why),
            arguments: 0,
            calls: 0,
            judged: 0,
            findings: 0,
            not_probed: 0,
        }
    }
}

/// Why a tool is not run, as the report says it.
pub(crate) const NOT_RUN: &str = "not annotated read-only, so called only with arguments that \
     break its schema; to run it too, audit a disposable copy of the server with \
     --run-every-tool";

/// Why a tool that takes no arguments is not run: it got no call at all.
pub(crate) const NOT_RUN_WITHOUT_ARGUMENTS: &str = "not annotated read-only, and with no \
     argument to get wrong, so not called; to run it, audit a disposable copy of the server \
     with --run-every-tool";

/// The audit of one tool as it goes: what the report held before it, and
/// the calls made.
pub(crate) struct Progress {
    judged: usize,
    findings: usize,
    not_probed: usize,
    not_judged: usize,
    pub(crate) arguments: usize,
    pub(crate) calls: usize,
    /// The calls that got an answer.
    pub(crate) answered: usize,
    pub(crate) not_run: bool,
}

impl From<&AuditReport> for Progress {
    fn from(report: &AuditReport) -> Self {
        Progress {
            judged: report.judged,
            findings: report.findings.len(),
            not_probed: report.not_probed.len(),
            not_judged: report.not_judged.len(),
            arguments: 0,
            calls: 0,
            answered: 0,
            not_run: false,
        }
    }
}

impl Progress {
    /// Puts the tool `name`, the tool list's `entry`, under its heading,
    /// with its counts, and adds its calls to the report's. `stopped` is
    /// why the audit stopped during it, if it did.
    pub(crate) fn settle(
        self,
        report: &mut AuditReport,
        entry: usize,
        name: &str,
        stopped: Option<&str>,
    ) {
        report.calls += self.calls;
        let judged = report.judged - self.judged;
        let not_probed = &report.not_probed[self.not_probed..];
        let whole = not_probed.iter().find(|not| not.argument.is_none());
        let part = not_probed.iter().find(|not| not.argument.is_some());
        let (heading, why) = if let Some(stopped) = stopped {
            (
                Heading::NotProbed,
                if self.calls == 0 {
                    format!("{stopped} before it")
                } else {
                    format!("{stopped} during its calls")
                },
            )
        } else if let Some(whole) = whole {
            (Heading::NotProbed, whole.why.clone())
        } else if self.calls == 0 && !self.not_run {
            // A required argument the audit builds no value for leaves the
            // tool without a call, and is named as why.
            (
                Heading::NotProbed,
                part.map_or_else(
                    || "the audit made no call to it".into(),
                    |not| not.why.clone(),
                ),
            )
        } else if self.answered == 0 && self.calls > 0 {
            (
                Heading::NotProbed,
                part.map_or_else(
                    || "none of its calls got an answer".into(),
                    |not| not.why.clone(),
                ),
            )
        } else if self.answered > 0 && judged == 0 {
            (
                Heading::NotJudged,
                report.not_judged[self.not_judged..].first().map_or_else(
                    || "no answer of it was judged".into(),
                    |not| not.why.clone(),
                ),
            )
        } else if self.not_run && self.arguments == 0 {
            (Heading::NotRun, NOT_RUN_WITHOUT_ARGUMENTS.to_owned())
        } else if self.not_run {
            (Heading::NotRun, NOT_RUN.to_owned())
        } else {
            (Heading::Run, String::new())
        };
        let summary = &mut report.by_tool[entry];
        *summary = ToolSummary {
            name: name.to_owned(),
            heading,
            why: (heading != Heading::Run).then_some(why),
            arguments: self.arguments,
            calls: self.calls,
            judged,
            findings: report.findings.len() - self.findings,
            not_probed: report.not_probed.len() - self.not_probed,
        };
    }
}
