//! A tool's schema read once, without recursion, before the validator is
//! handed it: whether it narrows anything, and whether its shape keeps
//! the validator's work and stack bounded.
//!
//! The validator compiles and checks by recursion, and checks every path
//! through a schema in full: a schema nested ten thousand levels deep
//! overflows the stack, and one whose options each refer to the next
//! twice takes twice as long at each level. So the schema is read here as
//! a graph (a schema, the subschemas it applies, the schema its `$ref`
//! leads to) and handed on only within [`NESTING_LIMIT`](crate::NESTING_LIMIT)
//! levels, [`READ_LIMIT`](crate::READ_LIMIT) schemas and
//! [`PATHS_LIMIT`](crate::PATHS_LIMIT) paths.

use std::collections::HashMap;

use serde_json::Value;

use crate::cycles::{Step, branching, reaching};
use crate::reference::{Part, lookup, subschemas};
use crate::{JsonObject, NESTING_LIMIT, PATHS_LIMIT, READ_LIMIT, Resolved, narrows};

/// What reading a schema found.
pub(crate) struct Reading {
    /// Whether it narrows anything serde does not enforce.
    pub(crate) narrows: bool,
    /// Why the validator is not handed the schema, when it is not.
    pub(crate) refused: Option<&'static str>,
    /// Whether a schema refers back to one that applies it, so that how
    /// deep the validator goes depends on the value, not the schema.
    pub(crate) recursive: bool,
    /// The most schemas, one inside the next, that apply to one value.
    pub(crate) height: usize,
    /// Whether listing every error of a value costs in proportion to the
    /// value: false when a recursive schema applies itself twice to one
    /// part of it (two options that each refer back), which doubles the
    /// list at each level.
    pub(crate) errors_bounded: bool,
    /// When they are not: the top-level properties whose own errors are
    /// bounded all the same (their schemas reach no such cycle).
    pub(crate) bounded_properties: Vec<String>,
}

/// One edge of the graph: the schema it leads to, and the step into the
/// value it takes.
pub(crate) struct Edge<'a> {
    pub(crate) to: usize,
    pub(crate) step: Step<'a>,
    /// It leads back to a schema that is still being read (a cycle).
    pub(crate) back: bool,
}

/// The schemas of a graph, and the edges from each.
type Graph<'a> = (Vec<&'a JsonObject>, Vec<Vec<Edge<'a>>>);

/// Reads `root`; `asserted` tells the formats the validator checks.
pub(crate) fn read(root: &JsonObject, asserted: impl Fn(&str) -> bool) -> Reading {
    let mut reading = Reading {
        narrows: false,
        refused: None,
        recursive: false,
        height: 0,
        errors_bounded: true,
        bounded_properties: Vec::new(),
    };
    if nesting_exceeds(root, NESTING_LIMIT) {
        reading.refused = Some("nests deeper than the validator's limit");
        return reading;
    }
    let Some((nodes, mut edges)) = graph(root, &mut reading.narrows, &asserted) else {
        reading.refused = Some("holds more schemas than the validator's limit");
        return reading;
    };
    let (order, height) = depth_first(&mut edges, &mut reading.recursive);
    reading.height = height;
    if height > NESTING_LIMIT {
        reading.refused = Some("refers deeper than the validator's limit");
    } else if paths(&order, &edges) > PATHS_LIMIT {
        reading.refused = Some("applies its schemas along more paths than the validator's limit");
    }
    if reading.recursive {
        let branching = branching(nodes.len(), &order, &edges);
        reading.errors_bounded = branching.is_empty();
        if !reading.errors_bounded {
            let reaches = reaching(&branching, &edges);
            reading.bounded_properties = top_level(root, &nodes)
                .filter(|(_, node)| !reaches[*node])
                .map(|(name, _)| name.to_owned())
                .collect();
        }
    }
    reading
}

/// The top-level properties of `root` (its references followed), each
/// with its schema's place among `nodes`.
fn top_level<'a>(
    root: &'a JsonObject,
    nodes: &'a [&'a JsonObject],
) -> impl Iterator<Item = (&'a str, usize)> {
    let followed = match crate::reference::follow(root, root) {
        crate::reference::Schema::Rules(rules) => rules,
        _ => root,
    };
    let at: HashMap<usize, usize> = nodes
        .iter()
        .enumerate()
        .map(|(node, rules)| (address(rules), node))
        .collect();
    let properties = followed.get("properties").and_then(Value::as_object);
    properties
        .into_iter()
        .flatten()
        .filter_map(move |(name, schema)| {
            let node = *at.get(&address(schema.as_object()?))?;
            Some((name.as_str(), node))
        })
}

/// Whether any value of `root` (its `enum` and `const` included) nests
/// deeper than `limit`.
fn nesting_exceeds(root: &JsonObject, limit: usize) -> bool {
    let mut pending: Vec<(&Value, usize)> = root.values().map(|v| (v, 1)).collect();
    while let Some((value, depth)) = pending.pop() {
        if depth > limit {
            return true;
        }
        match value {
            Value::Array(items) => pending.extend(items.iter().map(|v| (v, depth + 1))),
            Value::Object(map) => pending.extend(map.values().map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    false
}

/// The schemas that apply to a value from `root` on (the root first), and
/// the edges from each; `None` past [`READ_LIMIT`] schemas. Whether any
/// narrows is added to `narrows`.
fn graph<'a>(
    root: &'a JsonObject,
    narrows: &mut bool,
    asserted: &impl Fn(&str) -> bool,
) -> Option<Graph<'a>> {
    let mut nodes: Vec<&JsonObject> = vec![root];
    let mut index: HashMap<usize, usize> = HashMap::from([(address(root), 0)]);
    let mut edges: Vec<Vec<Edge<'a>>> = Vec::new();
    let mut next = 0;
    while let Some(&rules) = nodes.get(next) {
        next += 1;
        *narrows |= narrows::narrowing(rules, asserted);
        let reference = ["$ref", "$dynamicRef"]
            .iter()
            .filter_map(|key| rules.get(*key).and_then(Value::as_str))
            .filter_map(|reference| match lookup(root, reference)? {
                Resolved::Root => Some(("$ref", Part::Whole, Ref::Root)),
                Resolved::Value(value) => Some(("$ref", Part::Whole, Ref::Value(value))),
            });
        let applied =
            subschemas(rules).map(|(keyword, part, value)| (keyword, part, Ref::Value(value)));
        let mut out = Vec::new();
        for (keyword, part, target) in applied.chain(reference) {
            let target = match target {
                Ref::Root => root,
                Ref::Value(Value::Object(target)) => target,
                Ref::Value(Value::Bool(false)) => {
                    *narrows = true;
                    continue;
                }
                Ref::Value(_) => continue,
            };
            let to = *index.entry(address(target)).or_insert_with(|| {
                nodes.push(target);
                nodes.len() - 1
            });
            if nodes.len() > READ_LIMIT {
                return None;
            }
            out.push(Edge {
                to,
                step: Step::of(keyword, part),
                back: false,
            });
        }
        edges.push(out);
    }
    Some((nodes, edges))
}

/// Where a reference leads, for [`graph`]: the root has no `Value` of its
/// own.
enum Ref<'a> {
    Root,
    Value(&'a Value),
}

fn address(rules: &JsonObject) -> usize {
    std::ptr::from_ref(rules) as usize
}

/// One depth-first walk from the root: the schemas in the order the walk
/// finished them, and the most schemas one inside the next. Each edge
/// back to a schema still open is marked, and makes `recursive` true.
fn depth_first(edges: &mut [Vec<Edge<'_>>], recursive: &mut bool) -> (Vec<usize>, usize) {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; edges.len()];
    let mut height = vec![1usize; edges.len()];
    let mut finished = Vec::with_capacity(edges.len());
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    state[0] = OPEN;
    while let Some(&mut (node, ref mut at)) = stack.last_mut() {
        if let Some(edge) = edges[node].get_mut(*at) {
            *at += 1;
            match state[edge.to] {
                NEW => {
                    state[edge.to] = OPEN;
                    stack.push((edge.to, 0));
                }
                OPEN => {
                    edge.back = true;
                    *recursive = true;
                }
                _ => {}
            }
            continue;
        }
        stack.pop();
        state[node] = DONE;
        let below = edges[node]
            .iter()
            .filter(|edge| !edge.back)
            .map(|edge| height[edge.to])
            .max()
            .unwrap_or(0);
        height[node] = below.saturating_add(1);
        finished.push(node);
    }
    (finished, height[0])
}

/// How many paths lead from the root to each schema, added up: how many
/// times the validator may apply a schema to one part of a value. Edges
/// back are left out: a cycle applies again only one level deeper into
/// the value, which the validator remembers.
fn paths(finished: &[usize], edges: &[Vec<Edge<'_>>]) -> usize {
    let mut count = vec![0usize; edges.len()];
    count[0] = 1;
    let mut total = 0usize;
    for &node in finished.iter().rev() {
        total = total.saturating_add(count[node]);
        for edge in edges[node].iter().filter(|edge| !edge.back) {
            count[edge.to] = count[edge.to].saturating_add(count[node]);
        }
    }
    total
}
