//! What only the protocol understands, left out of a message passed on
//! from elsewhere: JSON-RPC words and reserved codes, and a lone code name
//! said in words.

/// Words that make a lone lowercase name an error's code rather than a
/// value: `invalid_args`, `resource_not_found`, `path_outside_root`.
const CODE_WORDS: &[&str] = &[
    "not",
    "no",
    "invalid",
    "error",
    "denied",
    "forbidden",
    "failed",
    "failure",
    "missing",
    "unknown",
    "unsupported",
    "exists",
    "conflict",
    "unauthorized",
    "bad",
    "required",
    "exceeded",
    "too",
    "illegal",
    "malformed",
    "refused",
    "unavailable",
    "outside",
    "disallowed",
];

/// A lone code name (`invalid_args`, `PATH_DENIED`) said in words ("Invalid
/// args"); `None` for other text, `meeting_notes` and `ERR_404` included.
pub(super) fn code_in_words(text: &str) -> Option<String> {
    let code = text.strip_suffix('.').unwrap_or(text);
    let words: Vec<&str> = code.split('_').collect();
    let is_name = words.len() >= 2
        && words
            .iter()
            .all(|word| !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphabetic()));
    let is_code = is_name
        && (!code.bytes().any(|b| b.is_ascii_lowercase())
            || words
                .iter()
                .any(|word| CODE_WORDS.contains(&word.to_ascii_lowercase().as_str())));
    if !is_code {
        return None;
    }
    let mut said = words.join(" ").to_ascii_lowercase();
    said[..1].make_ascii_uppercase();
    Some(said)
}

/// Words that name the protocol, never the tool's domain: the model cannot
/// act on them, wherever they stand.
const JARGON_WORDS: &[&str] = &["json-rpc", "jsonrpc", "invalid_params", "invalidparams"];

/// Jargon only beside a code or other jargon ("MCP error", "(code
/// -32602)"); elsewhere the tool's own ("Error reading the index").
const LABEL_WORDS: &[&str] = &["error", "code", "mcp", "rpc", "json"];

/// Punctuation around a word that says nothing about the word itself.
const FRAME: &[char] = &['(', ')', '[', ']', ':', ',', ';', '.'];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Word {
    Plain,
    /// Jargon beside jargon; plain otherwise.
    Label,
    /// Always left out.
    Jargon,
}

/// `line` without what only the protocol understands: rmcp's argument
/// prefix, "Invalid params", JSON-RPC words and reserved codes, with the
/// "error" or "code" before them and brackets holding only them.
pub(super) fn without_jargon(line: &str) -> String {
    let line = crate::base::rmcp_errors::without_argument_prefix(line);
    let words: Vec<&str> = line.split(' ').filter(|word| !word.is_empty()).collect();
    let cores: Vec<String> = words
        .iter()
        .map(|word| word.trim_matches(FRAME).to_ascii_lowercase())
        .collect();
    let mut kinds: Vec<Word> = cores
        .iter()
        .map(|core| {
            if is_reserved_code(core) || JARGON_WORDS.contains(&core.as_str()) {
                Word::Jargon
            } else if LABEL_WORDS.contains(&core.as_str()) {
                Word::Label
            } else {
                Word::Plain
            }
        })
        .collect();
    for at in 0..words.len().saturating_sub(1) {
        if cores[at] == "invalid" && cores[at + 1] == "params" && !ends_clause(words[at]) {
            kinds[at] = Word::Jargon;
            kinds[at + 1] = Word::Jargon;
        }
    }
    // A label joins the jargon next to it unless punctuation parts them:
    // "JSON-RPC error: x" loses "error", "params: Error reading" keeps it.
    let mut changed = true;
    while changed {
        changed = false;
        for at in 0..words.len() {
            if kinds[at] != Word::Label {
                continue;
            }
            let before = at > 0 && kinds[at - 1] == Word::Jargon && !ends_clause(words[at - 1]);
            let after = kinds.get(at + 1) == Some(&Word::Jargon) && !ends_clause(words[at]);
            if before || after {
                kinds[at] = Word::Jargon;
                changed = true;
            }
        }
    }
    let mut kept: Vec<String> = Vec::new();
    // Unclosed brackets of a removed word, for the next word kept.
    let mut opening = String::new();
    let mut at = 0;
    while at < words.len() {
        if let Some(end) = bracket_group(&words, &kinds, at) {
            carry_stop(&mut kept, words[end]);
            at = end + 1;
            continue;
        }
        let word = words[at];
        if kinds[at] != Word::Jargon {
            kept.push(format!("{}{word}", std::mem::take(&mut opening)));
        } else {
            let lead = word.len() - word.trim_start_matches(['(', '[']).len();
            opening.push_str(&word[..lead]);
            let closing: String = word
                .trim_end_matches([':', ',', ';', '.'])
                .chars()
                .rev()
                .take_while(|c| matches!(c, ')' | ']'))
                .collect();
            if let Some(last) = kept.last_mut() {
                last.extend(closing.chars().rev());
            }
            carry_stop(&mut kept, word);
        }
        at += 1;
    }
    let joined = kept.join(" ");
    // What stood between the jargon and the text ("error -32602 - No
    // note"), but not the sign of a number the text starts with.
    const LEAD: [char; 5] = [':', ',', ';', '.', ' '];
    let mut text = joined.trim_start_matches(LEAD);
    while let Some(rest) = text
        .strip_prefix(['-', '\u{2013}', '\u{2014}'])
        .filter(|rest| rest.starts_with(' '))
    {
        text = rest.trim_start_matches(LEAD);
    }
    text.trim_end_matches([':', ',', ';', '-', ' ']).to_owned()
}

fn ends_clause(word: &str) -> bool {
    word.ends_with([':', ',', ';', '.'])
}

/// A code in the range JSON-RPC reserves for itself, -32768 to -32000.
fn is_reserved_code(core: &str) -> bool {
    core.strip_prefix('-')
        .filter(|digits| digits.len() == 5 && digits.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|digits| digits.parse::<u32>().ok())
        .is_some_and(|code| (32000..=32768).contains(&code))
}

/// Where a bracketed group that starts at `at` and holds only jargon ends:
/// "(code -32602)" goes as a whole, brackets included.
fn bracket_group(words: &[&str], kinds: &[Word], at: usize) -> Option<usize> {
    let close = match words[at].chars().next()? {
        '(' => ')',
        '[' => ']',
        _ => return None,
    };
    let end = (at..words.len()).find(|&end| {
        words[end]
            .trim_end_matches([':', ',', ';', '.'])
            .ends_with(close)
    })?;
    (kinds[at..=end].iter().all(|kind| *kind == Word::Jargon)).then_some(end)
}

/// Keeps the full stop, comma or semicolon a removed word ended with, on the
/// word kept before it: the sentence around it still needs it.
fn carry_stop(kept: &mut [String], removed: &str) {
    let Some(stop) = removed
        .chars()
        .last()
        .filter(|c| matches!(c, '.' | ',' | ';'))
    else {
        return;
    };
    if let Some(last) = kept.last_mut()
        && !last.ends_with([':', ',', ';', '.'])
    {
        last.push(stop);
    }
}
