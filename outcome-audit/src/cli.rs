//! The command line, read by clap: what `outcome-audit` takes, its help,
//! and the [`Options`] the audit runs with. Everything clap refuses is
//! its error (a short usage and a hint, with the closest valid option for
//! a mistyped one), which `main` prints with the audit's own exit status.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use clap::builder::PossibleValue;
use clap::error::ErrorKind;
use clap::{Arg, ArgAction, ArgMatches, Command, ValueEnum, value_parser};
use http::{HeaderName, HeaderValue};
use outcome_audit::{ValidCalls, shown_line};

/// What `--help` says before the usage: what the audit calls, what it
/// expects of each answer and what its report holds, as the README says
/// at more length.
const ABOUT: &str = "\
Audits an MCP server: lists its tools, calls each one the way a model gets
it wrong, and checks every answer. Given -- and a command, it starts the
command and speaks MCP with it over stdin and stdout; given a URL, it
connects to the streamable HTTP endpoint there, such as
http://127.0.0.1:8080/mcp or https://mcp.example.com/mcp.

The calls, derived from each tool's input schema, one mistake each: a
required argument left out, or sent as null; an argument of the wrong JSON
type; a value outside its enum, its minimum or maximum, its
exclusiveMinimum or exclusiveMaximum, its minLength or maxLength; a string
outside its pattern or its format; and a key the schema does not declare,
when the schema sets additionalProperties to false. A server refuses these
before the tool runs. A tool that takes no arguments cannot be called
wrong: it gets none of these. Besides, each tool annotated read-only
(readOnlyHint) gets one call its schema accepts, its strings sent as
no-such-audit-value: a path, an id, a name the server does not hold. That
call runs the tool and reaches its author's own words; a result is a fine
answer, a failure must be isError, not a fault, and keep to the writing
rules. With --run-every-tool every tool gets that call: audit a server
whose data may change.

Each tool's description in the tool list is checked too:
description-missing, description-too-long (past 2,048 UTF-16 code units,
which clients drop) and description-lists-failures.

Each answer must be:
  is-error           a result with isError true: not a success, not a
                     JSON-RPC error (which many clients never show the model)
  not-fault          not the message of a server failure: the request was
                     wrong, and the text must say so
  names-argument     the text names the argument that is wrong
  quotes-value       the text quotes the value sent, when one was
  <rule>             the writing rules, as outcome-runtime checks them at
                     compile time: names-tool (the last sentence names the
                     tool to call next; the tool that failed is no step),
                     known-tool, known-parameter, no-lookup, no-type-name,
                     no-path, no-stack-frame, no-log-line, no-env-var,
                     no-command, short
(Only the in-process audit, outcome_runtime::testing::audit, also checks
that each call was logged as tool_call_failed with outcome invalid.)

An answer is not judged, and is listed with why, when it is about
something else than the call's mistake: an argument the call did not get
wrong (the server refused the audit's baseline value), a client capability
the audit does not offer (-32021), or a fault that heals itself. A tool
that answers -32601 (one that must run as a task) is not probed further.

The report starts with a header line with the counts, a line for each
reason it is not clean, then a summary by rule, by tool and by heading
(every tool of the tool list is under exactly one: run, not run, not
probed, not judged), then a line for each thing the audit did not probe,
run or judge, with why, then one block per defect: findings of one rule
whose texts share one template (a validator's message over many calls and
tools) are one defect, shown with the calls and tools that show it and one
example: the tool and its mistake, the call sent as JSON, the text the
model read. What the server wrote is shown bounded and with its control
characters escaped, in error messages too.

Not probed: a tool or argument the audit makes no call for, because its
schema cannot be read (not an object, a $ref outside it or in a loop with
no way out, a pattern the audit builds no string for), holds itself with
no object or list between (an untagged enum with a variant of itself,
which a server's reader may go round until its stack overflows: it is
sent no value), asks for more than the audit builds (a string past 100,000
characters, a list past 1,000 items, arguments past 256 KiB, nesting past
32 levels, more than 100,000 steps to walk), or has a name past 128
characters; tools past the first 1,000, or past 100 pages of the tool
list; and a call with no answer within --call-timeout. A report with any,
or with no answer judged, is NOT clean. An answer longer than 16 KiB is
checked on its first 16 KiB, and reported as too long (short). The audit
stops at 1,000 findings.";

/// The exit statuses, in both helps: a script reads them.
const EXIT_STATUS: &str = "\
Exit status:
  0    every tool was probed and every answer meets every expectation
  1    the report has findings
  2    the arguments are wrong: nothing was audited
  3    no findings, but some tool or argument was not probed, or no
       answer was judged
  4    the server could not be started or reached, did not answer
       initialize within --init-timeout, stopped answering, or the audit
       ran out of --timeout (the report so far is printed)
  130  interrupted (SIGINT, as Ctrl-C sends, or SIGTERM): the server was
       stopped, and no report is printed";

/// What `--help` says after the options.
const PROCESS_GROUP: &str = "\
The server started with -- runs in a process group of its own. On its way
out, whichever way (a report, an error, a timeout, Ctrl-C), the audit
closes the server's stdin and kills the group: no process the server
started is left running.";

/// Headers the HTTP transport sets itself.
const RESERVED_HEADERS: [&str; 4] = [
    "accept",
    "mcp-session-id",
    "mcp-protocol-version",
    "last-event-id",
];

/// The server to audit.
pub enum Target {
    /// The program and its arguments, as given after `--`: an argument
    /// need not be UTF-8 to be passed on.
    Command(Vec<OsString>),
    Url(String),
}

/// How the report is printed: `--format`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

impl ValueEnum for Format {
    fn value_variants<'a>() -> &'a [Self] {
        &[Self::Text, Self::Json]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(match self {
            Self::Text => "text",
            Self::Json => "json",
        }))
    }
}

/// What the audit runs with, read from the command line.
pub struct Options {
    pub target: Target,
    pub format: Format,
    pub timeout: Duration,
    pub call_timeout: Duration,
    pub init_timeout: Duration,
    pub headers: HashMap<HeaderName, HeaderValue>,
    pub server_stderr: Option<PathBuf>,
    pub valid_calls: ValidCalls,
}

/// The options in `args` (the program's name first, as
/// [`std::env::args_os`] gives it), or clap's error to print: `--help`
/// and `--version` are such errors too, meant for stdout.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Options, clap::Error> {
    let mut command = command();
    let matches = command.try_get_matches_from_mut(args)?;
    read(&matches).map_err(|(kind, problem)| command.error(kind, problem))
}

/// The command line clap reads; its `--help` is the audit's manual.
fn command() -> Command {
    Command::new("outcome-audit")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Audits an MCP server for what a model reads when it gets a call wrong")
        .long_about(ABOUT)
        .override_usage(
            "outcome-audit [OPTIONS] -- <COMMAND> [<ARGUMENT>...]\n       outcome-audit [OPTIONS] <URL>",
        )
        .after_help(EXIT_STATUS)
        .after_long_help(format!("{PROCESS_GROUP}\n\n{EXIT_STATUS}"))
        .arg(
            Arg::new("url")
                .value_name("URL")
                .value_parser(url)
                .conflicts_with("command")
                .help("The server's streamable HTTP endpoint, http:// or https://"),
        )
        .arg(
            Arg::new("command")
                .value_name("COMMAND")
                .num_args(1..)
                // Only after `--`, and all of it, as given: a server's own
                // options are no options of the audit.
                .last(true)
                .value_parser(value_parser!(OsString))
                .help("After --: the command that starts the server, which speaks MCP\non its stdin and stdout"),
        )
        // The help texts are wrapped to fit 80 columns beside the options,
        // where clap would add the defaults and values past the edge: they
        // say them themselves (a unit test holds them to the defaults).
        .args(
            [
                Arg::new("format")
                    .long("format")
                    .value_name("text|json")
                    .value_parser(clap::builder::EnumValueParser::<Format>::new())
                    .default_value("text")
                    .hide_default_value(true)
                    .hide_possible_values(true)
                    .help("The report as text (the default), or as one\nJSON document")
                    .long_help(
                        "The report as text (the default), or as one JSON document:\n\
                         format 1, whose fields may be added to, never renamed or\n\
                         removed (the README lists them)",
                    ),
                Arg::new("timeout")
                    .long("timeout")
                    .value_name("SECONDS")
                    .value_parser(seconds)
                    .default_value("120")
                    .hide_default_value(true)
                    .help("Stop when the whole audit takes longer, and\nprint the report so far (default 120)"),
                Arg::new("call-timeout")
                    .long("call-timeout")
                    .value_name("SECONDS")
                    .value_parser(seconds)
                    .default_value("30")
                    .hide_default_value(true)
                    .help("Cancel a call with no answer within it, report\nit as not probed, and go on (default 30)"),
                Arg::new("init-timeout")
                    .long("init-timeout")
                    .value_name("SECONDS")
                    .value_parser(seconds)
                    .default_value("10")
                    .hide_default_value(true)
                    .help("Give up on a server that does not answer\ninitialize within it (default 10)"),
                Arg::new("header")
                    .long("header")
                    .value_name("NAME: VALUE")
                    .action(ArgAction::Append)
                    .conflicts_with("command")
                    .help("Send this header on every HTTP request\n(repeatable; a URL only)")
                    .long_help(
                        "Send this header on every HTTP request of the session, such as\n\
                         'Authorization: Bearer <token>': repeatable, each name once; a\n\
                         URL only. The transport sets Accept, Mcp-Session-Id,\n\
                         MCP-Protocol-Version and Last-Event-Id itself. An error about a\n\
                         header names it, never its value.",
                    ),
                Arg::new("run-every-tool")
                    .long("run-every-tool")
                    .action(ArgAction::SetTrue)
                    .help("Give every tool the call its schema accepts,\nnot only those annotated read-only: they run"),
                Arg::new("server-stderr")
                    .long("server-stderr")
                    .value_name("FILE")
                    .value_parser(value_parser!(PathBuf))
                    .conflicts_with("url")
                    .help("Write the stderr of the server started with --\nto FILE; without it, it is dropped"),
            ],
        )
}

/// A URL, as the positional argument takes it: a word that is none is
/// most often a server's command given without `--`.
fn url(text: &str) -> Result<String, &'static str> {
    if text.starts_with("http://") || text.starts_with("https://") {
        Ok(text.to_owned())
    } else {
        Err("expected an http(s) URL, or -- and the server's command")
    }
}

/// A number of seconds, as the timeouts take it.
fn seconds(text: &str) -> Result<Duration, &'static str> {
    text.parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s < 1e9)
        .map(Duration::from_secs_f64)
        .ok_or("not a positive number of seconds")
}

/// The options clap has read, with what clap cannot check: that there is
/// something to audit, and the headers. A header is read here, not by a
/// value parser, since clap's error would quote the value, and the value
/// is a token as often as not.
fn read(matches: &ArgMatches) -> Result<Options, (ErrorKind, String)> {
    let target = if let Some(url) = matches.get_one::<String>("url") {
        Target::Url(url.clone())
    } else if let Some(command) = matches.get_many::<OsString>("command") {
        Target::Command(command.cloned().collect())
    } else {
        return Err((
            ErrorKind::MissingRequiredArgument,
            "nothing to audit: give a URL, or -- and the server's command".into(),
        ));
    };
    let mut headers = HashMap::new();
    for text in matches.get_many::<String>("header").into_iter().flatten() {
        let (name, value) =
            header(text).map_err(|problem| (ErrorKind::ValueValidation, problem))?;
        if headers.insert(name.clone(), value).is_some() {
            return Err((
                ErrorKind::ArgumentConflict,
                format!("--header {name} is given twice: a header is sent with one value"),
            ));
        }
    }
    let seconds = |id: &str| *matches.get_one::<Duration>(id).expect("a default value");
    Ok(Options {
        target,
        format: *matches
            .get_one::<Format>("format")
            .expect("a default value"),
        timeout: seconds("timeout"),
        call_timeout: seconds("call-timeout"),
        init_timeout: seconds("init-timeout"),
        headers,
        server_stderr: matches.get_one::<PathBuf>("server-stderr").cloned(),
        valid_calls: if matches.get_flag("run-every-tool") {
            ValidCalls::Every
        } else {
            ValidCalls::ReadOnly
        },
    })
}

/// `Name: value`, as `--header` takes it. An error names the header, never
/// its value.
fn header(text: &str) -> Result<(HeaderName, HeaderValue), String> {
    let (name, value) = text
        .split_once(':')
        .ok_or("--header needs a name, a colon and a value: --header 'X-Api-Key: ...'")?;
    let name = name.trim();
    let parsed = HeaderName::from_bytes(name.as_bytes())
        .map_err(|_| format!("--header {}: not a header name", shown_line(name)))?;
    if RESERVED_HEADERS.contains(&parsed.as_str()) {
        return Err(format!(
            "--header {parsed}: the HTTP transport sets this header itself"
        ));
    }
    let value = HeaderValue::from_str(value.trim()).map_err(|_| {
        format!(
            "--header {parsed}: its value has a character a header cannot carry (a control \
             character)"
        )
    })?;
    Ok((parsed, value))
}

#[cfg(test)]
mod tests {
    /// clap's own checks of the command's definition (conflicting names,
    /// a default its parser refuses), which it makes only in debug builds
    /// and only when parsing: here, once, whatever the arguments.
    #[test]
    fn the_command_line_is_well_formed() {
        super::command().debug_assert();
    }

    /// The help says each default itself, since clap's would not fit.
    #[test]
    fn each_help_says_its_default() {
        for option in super::command().get_arguments() {
            let Some(default) = option.get_default_values().first() else {
                continue;
            };
            let default = default.to_string_lossy();
            let help = option.get_help().map(ToString::to_string);
            assert!(
                help.as_deref()
                    .is_some_and(|help| help.contains(&format!("(default {default})"))
                        || help.contains(&format!("{default} (the default)"))),
                "{}: {help:?} does not say its default, {default}",
                option.get_id()
            );
        }
    }
}
