//! The closest name: `did you mean ..?` within a few edits.

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
pub(crate) fn edits_within(a: &str, b: &str, limit: usize) -> Option<usize> {
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
