//! Cycles in a schema's graph: which schemas, applied again deeper into
//! a value, apply two of themselves to one part of it. Checking stays
//! cheap there (the validator remembers what it checked), but listing
//! every error doubles at each level of the value.

use crate::read::Edge;
use crate::reference::Part;

/// The step into a value an edge of the graph takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step<'a> {
    /// The same value (`allOf`, `anyOf`, `not`, `if`, `$ref`, ...).
    Same,
    /// Any item of a list (`items`, `contains`, `unevaluatedItems`).
    Item,
    /// The item at one position (`prefixItems`).
    ItemAt(usize),
    /// The property of one name.
    Key(&'a str),
    /// Any property (`additionalProperties`, `patternProperties`,
    /// `propertyNames`, ...).
    AnyKey,
}

impl<'a> Step<'a> {
    /// The step of the subschema at `part` of `keyword`.
    pub(crate) fn of(keyword: &str, part: Part<'a>) -> Step<'a> {
        match (keyword, part) {
            ("properties", Part::Named(name)) => Step::Key(name),
            ("prefixItems" | "items", Part::At(at)) => Step::ItemAt(at),
            ("items" | "additionalItems" | "unevaluatedItems" | "contains", _) => Step::Item,
            (
                "patternProperties"
                | "additionalProperties"
                | "unevaluatedProperties"
                | "propertyNames",
                _,
            ) => Step::AnyKey,
            _ => Step::Same,
        }
    }

    /// Whether two steps can lead to the same part of a value.
    fn meets(self, other: Step<'_>) -> bool {
        match (self, other) {
            (Step::Same, _) | (_, Step::Same) => false,
            (Step::Item, Step::Item | Step::ItemAt(_)) | (Step::ItemAt(_), Step::Item) => true,
            (Step::ItemAt(a), Step::ItemAt(b)) => a == b,
            (Step::Key(a), Step::Key(b)) => a == b,
            (Step::AnyKey, Step::Key(_) | Step::AnyKey) | (Step::Key(_), Step::AnyKey) => true,
            _ => false,
        }
    }
}

/// How many steps [`branching`] may take in all before it gives up and
/// calls every schema in a cycle branching.
const LOOK_LIMIT: usize = 100_000;

/// The schemas in a cycle from which two paths of that cycle, through
/// the same value (options, `allOf`, `$ref`), then one step into it, reach
/// one part of the value: two options that each refer back to a list of
/// themselves, or `items` and `contains` both.
pub(crate) fn branching(count: usize, finished: &[usize], edges: &[Vec<Edge<'_>>]) -> Vec<usize> {
    let component = components(count, finished, edges);
    let mut size = vec![0usize; count];
    for &c in &component {
        size[c] += 1;
    }
    let cyclic =
        |node: usize| size[component[node]] > 1 || edges[node].iter().any(|edge| edge.to == node);
    let mut budget = LOOK_LIMIT;
    let mut found = Vec::new();
    for node in (0..count).filter(|&node| cyclic(node)) {
        let inside = |to: usize| component[to] == component[node];
        let mut steps: Vec<Step<'_>> = Vec::new();
        let mut path = vec![node];
        let mut stack = vec![(node, 0usize)];
        while let Some(&mut (at, ref mut next)) = stack.last_mut() {
            budget = budget.saturating_sub(1);
            if budget == 0 {
                return (0..count).filter(|&node| cyclic(node)).collect();
            }
            let Some(edge) = edges[at].get(*next) else {
                stack.pop();
                path.pop();
                continue;
            };
            *next += 1;
            if !inside(edge.to) {
                continue;
            }
            if edge.step == Step::Same {
                if !path.contains(&edge.to) {
                    path.push(edge.to);
                    stack.push((edge.to, 0));
                }
            } else if steps.iter().any(|step| step.meets(edge.step)) {
                found.push(node);
                break;
            } else {
                steps.push(edge.step);
            }
        }
    }
    found
}

/// Which schemas lead (through their subschemas and references) to any
/// of `targets`, the targets included.
pub(crate) fn reaching(targets: &[usize], edges: &[Vec<Edge<'_>>]) -> Vec<bool> {
    let mut reversed: Vec<Vec<usize>> = vec![Vec::new(); edges.len()];
    for (from, out) in edges.iter().enumerate() {
        for edge in out {
            reversed[edge.to].push(from);
        }
    }
    let mut reaches = vec![false; edges.len()];
    let mut pending = targets.to_vec();
    while let Some(node) = pending.pop() {
        if std::mem::replace(&mut reaches[node], true) {
            continue;
        }
        pending.extend(reversed[node].iter().copied().filter(|n| !reaches[*n]));
    }
    reaches
}

/// The strongly connected component of each schema (Kosaraju's second
/// walk, over the edges reversed, in reverse finishing order).
fn components(count: usize, finished: &[usize], edges: &[Vec<Edge<'_>>]) -> Vec<usize> {
    let mut reversed: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (from, out) in edges.iter().enumerate() {
        for edge in out {
            reversed[edge.to].push(from);
        }
    }
    let mut component = vec![usize::MAX; count];
    for (id, &start) in finished.iter().rev().enumerate() {
        if component[start] != usize::MAX {
            continue;
        }
        component[start] = id;
        let mut stack = vec![start];
        while let Some(node) = stack.pop() {
            for &from in &reversed[node] {
                if component[from] == usize::MAX {
                    component[from] = id;
                    stack.push(from);
                }
            }
        }
    }
    component
}
