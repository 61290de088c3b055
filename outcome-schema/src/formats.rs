//! The string formats in words, and the three formats schemars writes
//! that the standard does not define (`ip` for `IpAddr`, `partial-date-time`
//! for chrono's `NaiveDateTime`, `partial-time` for `NaiveTime`), checked
//! as those types read them: they refuse anything else, so a call outside
//! the format would fail anyway, and is told in these words rather than
//! serde's. Every other format is the standard's, checked by the
//! validator; an unknown one is not checked.

use std::net::IpAddr;

/// The formats the words know, each with what it asks for.
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
    ("time", "a time with its offset, such as '13:45:00Z'"),
    ("partial-time", "a time in the form HH:MM:SS"),
    ("duration", "a duration such as 'P3DT4H'"),
    (
        "uuid",
        "a UUID such as '67e55044-10b1-426f-9247-bb680e5fe0c8'",
    ),
    ("uri", "a URI such as 'https://example.com/page'"),
    (
        "uri-reference",
        "a URI or a relative reference such as '/page'",
    ),
    ("iri", "an IRI such as 'https://example.com/page'"),
    (
        "iri-reference",
        "an IRI or a relative reference such as '/page'",
    ),
    (
        "uri-template",
        "a URI template such as 'https://example.com/{id}'",
    ),
    ("email", "an email address such as 'name@example.com'"),
    ("idn-email", "an email address such as 'name@example.com'"),
    ("hostname", "a host name such as 'example.com'"),
    ("idn-hostname", "a host name such as 'example.com'"),
    ("json-pointer", "a pointer such as '/items/0'"),
    (
        "relative-json-pointer",
        "a relative pointer such as '1/items'",
    ),
    ("regex", "a regular expression such as '^[a-z]+$'"),
];

/// Whether a text is written in a format.
pub(crate) type Check = fn(&str) -> bool;

/// The formats schemars writes that the standard does not define, each
/// with its check.
pub(crate) const SCHEMARS_FORMATS: &[(&str, Check)] = &[
    ("ip", ip),
    ("partial-date-time", partial_date_time),
    ("partial-time", partial_time),
];

/// What a string `format` asks for; `None` for a format the words do not
/// know.
pub(crate) fn format_text(format: &str) -> Option<&'static str> {
    FORMATS
        .iter()
        .find(|(name, _)| *name == format)
        .map(|(_, text)| *text)
}

fn ip(text: &str) -> bool {
    text.parse::<IpAddr>().is_ok()
}

/// `2024-05-01T13:45:00`, with a space or a lower-case `t` taken as
/// chrono takes them.
fn partial_date_time(text: &str) -> bool {
    let Some(rest) = date(text) else {
        return false;
    };
    let Some(rest) = rest.strip_prefix(['T', 't', ' ']) else {
        return false;
    };
    time(rest) == Some("")
}

fn partial_time(text: &str) -> bool {
    time(text) == Some("")
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
