//! A string a `pattern` matches, built from the pattern itself, so that a
//! tool whose argument must look like a slug, a code or an id gets a call
//! without its author writing an example.

use regex_syntax::hir::{Class, Hir, HirKind};

/// The deepest nesting of groups and repetitions read: as deep as the
/// runtime's own reading of a pattern goes.
const NEST_LIMIT: u32 = 64;

/// A string `pattern` matches, as short as the pattern allows, with each
/// repetition taken `extra` more times than its minimum (within its
/// maximum), and no longer than `limit` bytes. `None` when the pattern
/// cannot be read, matches nothing, or asks for more than `limit`.
///
/// Each class gives its most ordinary character (`a`, `A`, `0`), each
/// alternation its first branch, and assertions (`^`, `$`, `\b`) nothing:
/// the string is read against the pattern afterwards, and one an
/// assertion refuses is not sent.
pub(crate) fn matching(pattern: &str, extra: u32, limit: usize) -> Option<String> {
    let hir = regex_syntax::ParserBuilder::new()
        .nest_limit(NEST_LIMIT)
        .build()
        .parse(pattern)
        .ok()?;
    let mut out = String::new();
    build(&hir, extra, limit, &mut out)?;
    Some(out)
}

fn build(hir: &Hir, extra: u32, limit: usize, out: &mut String) -> Option<()> {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(literal) => out.push_str(std::str::from_utf8(&literal.0).ok()?),
        HirKind::Class(class) => out.push(ordinary(class)?),
        HirKind::Capture(capture) => build(&capture.sub, extra, limit, out)?,
        HirKind::Concat(parts) => {
            for part in parts {
                build(part, extra, limit, out)?;
            }
        }
        HirKind::Alternation(branches) => build(branches.first()?, extra, limit, out)?,
        HirKind::Repetition(repetition) => {
            let times = repetition
                .min
                .saturating_add(extra)
                .min(repetition.max.unwrap_or(u32::MAX));
            if times > 0 {
                let mut once = String::new();
                build(&repetition.sub, extra, limit, &mut once)?;
                // Counted before it is built: `(a{1000}){1000}` is a
                // megabyte.
                if once.len().saturating_mul(times as usize) > limit {
                    return None;
                }
                for _ in 0..times {
                    out.push_str(&once);
                }
            }
        }
    }
    (out.len() <= limit).then_some(())
}

/// The character of `class` a reader takes for an ordinary one: the
/// first small letter, capital or digit it holds, else the first
/// printable one.
fn ordinary(class: &Class) -> Option<char> {
    let holds = |c: char| match class {
        Class::Unicode(class) => class
            .ranges()
            .iter()
            .any(|range| range.start() <= c && c <= range.end()),
        Class::Bytes(class) => u8::try_from(c).is_ok_and(|b| {
            class
                .ranges()
                .iter()
                .any(|range| range.start() <= b && b <= range.end())
        }),
    };
    let ordinary = ('a'..='z')
        .chain('A'..='Z')
        .chain('0'..='9')
        .chain(['-', '_', '.']);
    if let Some(c) = ordinary.into_iter().find(|c| holds(*c)) {
        return Some(c);
    }
    let starts: Vec<char> = match class {
        Class::Unicode(class) => class.ranges().iter().map(|r| r.start()).collect(),
        // Bytes past ASCII are no character on their own.
        Class::Bytes(class) => class
            .ranges()
            .iter()
            .map(|r| r.start())
            .filter(u8::is_ascii)
            .map(char::from)
            .collect(),
    };
    starts
        .iter()
        .copied()
        .find(|c| !c.is_control() && !c.is_whitespace())
        .or_else(|| starts.first().copied())
}

#[cfg(test)]
mod tests {
    use super::matching;

    #[test]
    fn each_part_of_a_pattern_gives_its_ordinary_string() {
        for (pattern, expected) in [
            ("^[a-z][a-z0-9-]*$", "a"),
            ("^[A-Z]{3}$", "AAA"),
            (r"^\d{4}-\d{2}-\d{2}$", "0000-00-00"),
            ("^(cat|dog)s?$", "cat"),
            (r"^[^\s@]+@[^\s@]+\.[^\s@]+$", "a@a.a"),
            ("^#[0-9a-fA-F]{6}$", "#aaaaaa"),
            ("^[b-d]+_[5-9]$", "b_5"),
            (r"\bword\b", "word"),
            ("(?i)^abc$", "abc"),
        ] {
            assert_eq!(
                matching(pattern, 0, 100).as_deref(),
                Some(expected),
                "{pattern}"
            );
        }
        assert_eq!(matching("^a+$", 4, 100).as_deref(), Some("aaaaa"));
        assert_eq!(matching("^a{2,3}$", 4, 100).as_deref(), Some("aaa"));
    }

    #[test]
    fn what_cannot_be_built_is_none() {
        // Not a pattern; a class of nothing; past the limit, however it
        // is nested.
        assert_eq!(matching("(", 0, 100), None);
        assert_eq!(matching("[^\\x00-\\x{10FFFF}]", 0, 100), None);
        assert_eq!(matching("^a{101}$", 0, 100), None);
        assert_eq!(matching("^((a{1000}){1000}){1000}$", 0, 100_000), None);
        let deep = format!("{}a{}", "(".repeat(200), ")".repeat(200));
        assert_eq!(matching(&deep, 0, 100), None);
    }
}
