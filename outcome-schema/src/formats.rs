//! The string formats this crate checks: the ones schemars writes for
//! standard and common types (`date-time`, `uuid`, `uri`, IP addresses)
//! and for the `email` and `url` attributes. An unknown format is not
//! checked.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The formats this crate checks, each with what it asks for in words.
const FORMATS: &[(&str, &str)] = &[
    ("ip", "an IP address such as '192.0.2.1'"),
    ("ipv4", "an IPv4 address such as '192.0.2.1'"),
    ("ipv6", "an IPv6 address such as '2001:db8::1'"),
    ("date", "a date in the form YYYY-MM-DD"),
    (
        "date-time",
        "a date and time with its offset, such as '2024-05-01T13:45:00Z'",
    ),
    (
        "partial-date-time",
        "a date and time without offset, such as '2024-05-01T13:45:00'",
    ),
    ("time", "a time in the form HH:MM:SS"),
    ("partial-time", "a time in the form HH:MM:SS"),
    (
        "uuid",
        "a UUID such as '67e55044-10b1-426f-9247-bb680e5fe0c8'",
    ),
    ("uri", "a URI such as 'https://example.com/page'"),
    ("email", "an email address such as 'name@example.com'"),
    ("hostname", "a host name such as 'example.com'"),
];

/// What a string `format` this crate checks asks for; `None` for the
/// formats it does not know, which it leaves unchecked.
pub(crate) fn format_text(format: &str) -> Option<&'static str> {
    FORMATS
        .iter()
        .find(|(name, _)| *name == format)
        .map(|(_, text)| *text)
}

/// The name of `format` as this crate checks it; `None` for a format it
/// does not check.
pub(crate) fn checked(format: &str) -> Option<&'static str> {
    FORMATS
        .iter()
        .find(|(name, _)| *name == format)
        .map(|(name, _)| *name)
}

/// Whether `text` is written in `format`. Where the common parsers of a
/// format accept more than its standard (a space for the `T`, an offset
/// without a colon), this accepts it too: blaming an argument the type
/// would take would hide the one that failed.
pub(crate) fn format_fits(format: &str, text: &str) -> bool {
    match format {
        "ip" => text.parse::<IpAddr>().is_ok(),
        "ipv4" => text.parse::<Ipv4Addr>().is_ok(),
        "ipv6" => text.parse::<Ipv6Addr>().is_ok(),
        "date" => date(text) == Some(""),
        "date-time" => date_time(text, true),
        "partial-date-time" => date_time(text, false),
        "time" => time(text).is_some_and(|rest| rest.is_empty() || offset(rest)),
        "partial-time" => time(text) == Some(""),
        "uuid" => uuid(text),
        "uri" => uri(text),
        "email" => email(text),
        "hostname" => hostname(text),
        _ => true,
    }
}

/// Splits 1 to `most` ASCII digits off the front of `text`.
fn digits(text: &str, most: usize) -> Option<(u32, &str)> {
    let length = text
        .bytes()
        .take(most)
        .take_while(u8::is_ascii_digit)
        .count();
    if length == 0 {
        return None;
    }
    let value = text[..length].parse().ok()?;
    Some((value, &text[length..]))
}

/// Reads a date (`2024-02-29`, with real month lengths) off the front of
/// `text` and returns what follows it.
fn date(text: &str) -> Option<&str> {
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'+') => (false, &text[1..]),
        Some(b'-') => (true, &text[1..]),
        _ => (false, text),
    };
    let year_length = unsigned.bytes().take_while(u8::is_ascii_digit).count();
    let signed = unsigned.len() != text.len();
    // Four digits, or with a sign the expanded years of ISO 8601.
    if year_length < 4 || (!signed && year_length > 4) || year_length > 9 {
        return None;
    }
    let year: i64 = unsigned[..year_length].parse().ok()?;
    let year = if negative { -year } else { year };
    let rest = unsigned[year_length..].strip_prefix('-')?;
    let (month, rest) = digits(rest, 2)?;
    let rest = rest.strip_prefix('-')?;
    let (day, rest) = digits(rest, 2)?;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (1..=days).contains(&day).then_some(rest)
}

/// Reads a time (`13:45`, `13:45:00`, `13:45:00.250`) off the front of
/// `text` and returns what follows it.
fn time(text: &str) -> Option<&str> {
    let (hour, rest) = digits(text, 2)?;
    let (minute, mut rest) = digits(rest.strip_prefix(':')?, 2)?;
    if let Some(after) = rest.strip_prefix(':') {
        let (second, after) = digits(after, 2)?;
        // 60: a leap second.
        if second > 60 {
            return None;
        }
        rest = after;
        if let Some(fraction) = rest.strip_prefix(['.', ',']) {
            let length = fraction.bytes().take_while(u8::is_ascii_digit).count();
            if length == 0 {
                return None;
            }
            rest = &fraction[length..];
        }
    }
    (hour < 24 && minute < 60).then_some(rest)
}

/// `Z`, or a signed offset of hours and minutes (`+02:00`, `-0530`, `+02`).
fn offset(text: &str) -> bool {
    let text = text.strip_prefix(' ').unwrap_or(text);
    if text.eq_ignore_ascii_case("z") {
        return true;
    }
    let Some(rest) = text.strip_prefix(['+', '-']) else {
        return false;
    };
    if !rest.is_ascii() {
        return false;
    }
    let (hours, minutes) = match rest.len() {
        2 => (rest, "00"),
        4 => rest.split_at(2),
        5 if rest.as_bytes()[2] == b':' => (&rest[..2], &rest[3..]),
        _ => return false,
    };
    matches!(
        (digits(hours, 2), digits(minutes, 2)),
        (Some((hours, "")), Some((minutes, ""))) if hours < 24 && minutes < 60
    )
}

fn date_time(text: &str, with_offset: bool) -> bool {
    let Some(rest) = date(text) else {
        return false;
    };
    let Some(rest) = rest.strip_prefix(['T', 't', ' ']) else {
        return false;
    };
    match time(rest) {
        Some(rest) if with_offset => offset(rest),
        Some(rest) => rest.is_empty(),
        None => false,
    }
}

/// Hyphenated (`8-4-4-4-12`) or 32 hex digits, bare, in braces or as a URN.
fn uuid(text: &str) -> bool {
    let text = text
        .strip_prefix("urn:uuid:")
        .or_else(|| text.strip_prefix('{').and_then(|t| t.strip_suffix('}')))
        .unwrap_or(text);
    let hex = |part: &str, length: usize| {
        part.len() == length && part.bytes().all(|b| b.is_ascii_hexdigit())
    };
    if hex(text, 32) {
        return true;
    }
    let parts: Vec<&str> = text.splitn(6, '-').collect();
    parts.len() == 5
        && parts
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(part, length)| hex(part, length))
}

/// A scheme (a letter, then letters, digits, `+`, `-` or `.`) and a colon.
fn uri(text: &str) -> bool {
    let text = text.trim_matches(|c: char| c <= ' ');
    let Some((scheme, _)) = text.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// An address as mail systems take it: a local part of up to 64
/// characters with no space, `@`, and a host name or a bracketed address.
/// A quoted local part is taken as it is.
fn email(text: &str) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else {
        return false;
    };
    let quoted = local.len() >= 2 && local.starts_with('"') && local.ends_with('"');
    let local_fits = quoted
        || (!local.is_empty()
            && local.chars().count() <= 64
            && !local.starts_with('.')
            && !local.ends_with('.')
            && !local.contains("..")
            && !local.contains(|c: char| {
                c.is_whitespace() || c.is_control() || "@()<>[]:;,\\\"".contains(c)
            }));
    let domain_fits = match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(address) => {
            let address = address.strip_prefix("IPv6:").unwrap_or(address);
            address.parse::<IpAddr>().is_ok()
        }
        None => hostname(domain),
    };
    local_fits && domain_fits
}

/// A host name: dot-separated labels of 1 to 63 letters, digits and
/// hyphens, not starting or ending with a hyphen, 253 characters at most.
/// Letters outside ASCII are taken, as an internationalised name is.
fn hostname(text: &str) -> bool {
    let text = text.strip_suffix('.').unwrap_or(text);
    !text.is_empty()
        && text.chars().count() <= 253
        && text.split('.').all(|label| {
            !label.is_empty()
                && label.chars().count() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c == '-' || c.is_alphanumeric())
        })
}
