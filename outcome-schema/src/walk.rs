//! The walk of arguments over a schema: `$ref`s followed, alternatives
//! tried, the first fault found. Bounded in depth ([`DEPTH_LIMIT`]) and in
//! steps ([`STEP_LIMIT`]); a walk that stops early accepts, since it must
//! not blame an argument it did not finish looking at.

use std::borrow::Cow;
use std::cell::Cell;

use serde_json::Value;

use crate::keywords::{Shape, same, shape};
use crate::{Contract, DEPTH_LIMIT, JsonObject, Resolved, STEP_LIMIT};

/// A schema after its `$ref`s are followed.
#[derive(Clone, Copy)]
pub(crate) enum Schema<'a> {
    /// No constraint this module can check: `true`, `{}`, a reference it
    /// cannot follow.
    Any,
    /// The `false` schema: no value fits.
    Never,
    Rules(&'a JsonObject),
}

/// One step of the path from the arguments to a value.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Segment<'a> {
    /// A property the schema names.
    Name(&'a str),
    Index(usize),
    /// A key the model chose, in an object whose keys are free.
    Key(&'a str),
}

/// The first thing wrong with the arguments.
pub(crate) struct Fault<'a> {
    /// Where: the value that is wrong, or for [`Problem::Unknown`] the object
    /// that holds the unknown key.
    pub(crate) path: Vec<Segment<'a>>,
    pub(crate) problem: Problem<'a>,
}

pub(crate) enum Problem<'a> {
    /// A required property is absent; the schema is the property's.
    Missing(Schema<'a>),
    /// Each option of a composition requires one of these properties, and
    /// the object has none of them.
    MissingOne(Vec<&'a str>),
    /// The value does not fit the schema, which says what it must be.
    Wrong(&'a Value, Schema<'a>),
    /// A key the object's schema does not allow, and the properties it does.
    Unknown(&'a str, Option<&'a JsonObject>),
}

/// One walk over a schema: its root, for `$ref`, and the steps spent.
pub(crate) struct Walk<'a> {
    pub(crate) contract: &'a Contract,
    root: &'a JsonObject,
    steps: Cell<usize>,
    /// Descriptions written, kept apart from `steps` so that a search that
    /// spent its budget still leaves words for the message.
    pub(crate) described: Cell<usize>,
}

impl<'a> Walk<'a> {
    pub(crate) fn new(contract: &'a Contract) -> Self {
        Walk {
            contract,
            root: &contract.schema,
            steps: Cell::new(0),
            described: Cell::new(0),
        }
    }

    /// Spends a step; false once the budget is gone.
    fn tick(&self) -> bool {
        let spent = self.steps.get();
        self.steps.set(spent.saturating_add(1));
        spent < STEP_LIMIT
    }

    fn exhausted(&self) -> bool {
        self.steps.get() >= STEP_LIMIT
    }

    pub(crate) fn schema(&self, value: &'a Value) -> Schema<'a> {
        match value {
            Value::Bool(false) => Schema::Never,
            Value::Object(rules) => self.follow(rules),
            _ => Schema::Any,
        }
    }

    /// Follows `$ref` until a schema without one. A reference to another
    /// document, an anchor, a pointer that leads nowhere or a chain that
    /// goes round in a circle constrains nothing this module can check.
    pub(crate) fn follow(&self, mut rules: &'a JsonObject) -> Schema<'a> {
        for _ in 0..DEPTH_LIMIT {
            let Some(reference) = rules.get("$ref") else {
                return Schema::Rules(rules);
            };
            rules = match reference.as_str().and_then(|r| lookup(self.root, r)) {
                Some(Resolved::Root) => self.root,
                Some(Resolved::Value(Value::Object(next))) => next,
                Some(Resolved::Value(Value::Bool(false))) => return Schema::Never,
                _ => return Schema::Any,
            };
        }
        Schema::Any
    }

    /// The first fault of `value` against `schema`, or `None` if it fits or
    /// the walk ran out of depth or steps before finding one.
    fn fault(
        &self,
        schema: Schema<'a>,
        value: &'a Value,
        path: &mut Vec<Segment<'a>>,
        depth: usize,
    ) -> Option<Fault<'a>> {
        if depth > DEPTH_LIMIT || !self.tick() {
            return None;
        }
        let wrong = |path: &Vec<Segment<'a>>| {
            Some(Fault {
                path: path.clone(),
                problem: Problem::Wrong(value, schema),
            })
        };
        let rules = match schema {
            Schema::Any => return None,
            Schema::Never => return wrong(path),
            Schema::Rules(rules) => rules,
        };
        let digest = self.contract.digest(rules);
        if !digest.kind_fits(value) {
            return wrong(path);
        }
        if digest.enumerated {
            if let Some(allowed) = rules.get("enum").and_then(Value::as_array)
                && !allowed.iter().any(|allowed| same(allowed, value))
            {
                return wrong(path);
            }
            if let Some(constant) = rules.get("const")
                && !same(constant, value)
            {
                return wrong(path);
            }
        }
        // The schema's own rules first: they hold whichever option of a
        // composition the value meets, so a key no option allows is named
        // as such, not as a value that fits none of them.
        let own = match value {
            Value::String(text) if !digest.string_fits(text) => wrong(path),
            Value::Number(number) if !digest.number_fits(number) => wrong(path),
            Value::Array(items) => {
                if !digest.list_fits(items) {
                    return wrong(path);
                }
                self.items_fault(rules, items, path, depth)
            }
            Value::Object(object) => {
                if !digest.keys.fits(object.len()) {
                    return wrong(path);
                }
                self.object_fault(rules, object, path, depth)
            }
            _ => None,
        };
        if own.is_some() {
            return own;
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(options) = rules.get(keyword).and_then(Value::as_array)
                && !options.is_empty()
                && let Some(fault) = self.options_fault(schema, options, value, path, depth)
            {
                return Some(fault);
            }
        }
        for part in rules
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let part = self.schema(part);
            if let Some(fault) = self.fault(part, value, path, depth + 1) {
                return Some(fault);
            }
        }
        None
    }

    /// The fault of a value that fits none of `options`: the fault inside
    /// the one option the model evidently meant, or else the value against
    /// all of them. The option meant is the only one of the value's kind
    /// or, among several objects, the only one whose required keys and
    /// constant tags the value has.
    fn options_fault(
        &self,
        schema: Schema<'a>,
        options: &'a [Value],
        value: &'a Value,
        path: &mut Vec<Segment<'a>>,
        depth: usize,
    ) -> Option<Fault<'a>> {
        let mut of_kind = (0, None);
        let mut of_shape = (0, None);
        // The keys the options require, while each option fails only for
        // one of them: an object that must have one of several keys.
        let mut needed: Option<Vec<&'a str>> = Some(Vec::new());
        for option in options {
            let option = self.schema(option);
            let fault = self.fault(option, value, path, depth + 1)?;
            if self.exhausted() {
                return None;
            }
            needed =
                needed.and_then(
                    |mut needed| match (&fault.problem, fault.path.split_last()) {
                        (Problem::Missing(_), Some((Segment::Name(name), parent)))
                            if parent == &path[..] =>
                        {
                            if !needed.contains(name) {
                                needed.push(name);
                            }
                            Some(needed)
                        }
                        _ => None,
                    },
                );
            let kind_fits = match option {
                Schema::Rules(rules) => self.contract.digest(rules).kind_fits(value),
                _ => true,
            };
            match shape(option, value, kind_fits) {
                Shape::Other => {}
                Shape::Kind => of_kind = (of_kind.0 + 1, of_kind.1.or(Some(fault))),
                Shape::Keys => {
                    of_kind.0 += 1;
                    of_shape = (of_shape.0 + 1, of_shape.1.or(Some(fault)));
                }
            }
        }
        if let Some(needed) = needed.filter(|needed| needed.len() > 1) {
            return Some(Fault {
                path: path.clone(),
                problem: Problem::MissingOne(needed),
            });
        }
        match (of_kind, of_shape) {
            ((1, Some(fault)), _) | (_, (1, Some(fault))) => Some(fault),
            _ => Some(Fault {
                path: path.clone(),
                problem: Problem::Wrong(value, schema),
            }),
        }
    }

    fn items_fault(
        &self,
        rules: &'a JsonObject,
        items: &'a [Value],
        path: &mut Vec<Segment<'a>>,
        depth: usize,
    ) -> Option<Fault<'a>> {
        // A tuple lists one schema per position: `prefixItems` with `items`
        // for the rest, or in older drafts `items` as a list with
        // `additionalItems` for the rest.
        let (positions, rest) = match (rules.get("prefixItems"), rules.get("items")) {
            (Some(Value::Array(prefix)), rest) => (prefix.as_slice(), rest),
            (_, Some(Value::Array(positions))) => {
                (positions.as_slice(), rules.get("additionalItems"))
            }
            (_, rest) => (&[][..], rest),
        };
        for (index, item) in items.iter().enumerate() {
            if self.exhausted() {
                return None;
            }
            let schema = match positions.get(index).or(rest) {
                Some(schema) => self.schema(schema),
                None => Schema::Any,
            };
            path.push(Segment::Index(index));
            let fault = self.fault(schema, item, path, depth + 1);
            path.pop();
            if fault.is_some() {
                return fault;
            }
        }
        None
    }

    /// A required property missing, a property that does not fit (looking
    /// inside it), or a key the schema does not allow, in that order.
    fn object_fault(
        &self,
        rules: &'a JsonObject,
        object: &'a JsonObject,
        path: &mut Vec<Segment<'a>>,
        depth: usize,
    ) -> Option<Fault<'a>> {
        let digest = self.contract.digest(rules);
        let properties = rules.get("properties").and_then(Value::as_object);
        let property = |name: &str| properties.and_then(|p| p.get_key_value(name));

        let required = match digest.required {
            true => rules.get("required").and_then(Value::as_array),
            false => None,
        };
        for name in required.into_iter().flatten().filter_map(Value::as_str) {
            let schema = property(name).map_or(Schema::Any, |(_, p)| self.schema(p));
            // An explicit null is told as null, below, where the value
            // does not fit: the model sent it, and must read what it sent.
            if !object.contains_key(name) {
                let mut path = path.clone();
                path.push(Segment::Name(name));
                return Some(Fault {
                    path,
                    problem: Problem::Missing(schema),
                });
            }
        }

        for (key, value) in object {
            if self.exhausted() {
                return None;
            }
            let Some((name, schema)) = property(key) else {
                continue;
            };
            let schema = self.schema(schema);
            if matches!(schema, Schema::Never) {
                return Some(Fault {
                    path: path.clone(),
                    problem: Problem::Unknown(key, properties),
                });
            }
            path.push(Segment::Name(name));
            let fault = self.fault(schema, value, path, depth + 1);
            path.pop();
            if fault.is_some() {
                return fault;
            }
        }

        // Keys matched by `patternProperties` are not told apart here.
        // Without composition, every property is evaluated here, so
        // `unevaluatedProperties` means what `additionalProperties` does.
        if !digest.others {
            return None;
        }
        let others = rules
            .get("additionalProperties")
            .or_else(|| rules.get("unevaluatedProperties"))?;
        let schema = self.schema(others);
        let extra = object.iter().filter(|(key, _)| property(key).is_none());
        for (key, value) in extra {
            if self.exhausted() {
                return None;
            }
            if matches!(schema, Schema::Never) {
                return Some(Fault {
                    path: path.clone(),
                    problem: Problem::Unknown(key, properties),
                });
            }
            path.push(Segment::Key(key));
            let fault = self.fault(schema, value, path, depth + 1);
            path.pop();
            if fault.is_some() {
                return fault;
            }
        }
        None
    }
}

/// The first fault of `arguments` against the contract's schema, told by
/// `tell`; `None` when they fit or the walk stopped before finding one.
pub(crate) fn first_fault<T>(
    contract: &Contract,
    arguments: &JsonObject,
    tell: impl FnOnce(&Walk<'_>, &Fault<'_>) -> T,
) -> Option<T> {
    let walk = Walk::new(contract);
    let root = walk.follow(walk.root);
    match root {
        // The usual root, an object schema, is checked on the arguments in
        // place; any other on a copy as one value, cut where the walk stops
        // looking, so that copying cannot go as deep as the model nested.
        Schema::Rules(rules) if walk.contract.digest(rules).plain_object => {
            walk.tick();
            let fault = walk.object_fault(rules, arguments, &mut Vec::new(), 0)?;
            Some(tell(&walk, &fault))
        }
        _ => {
            let whole = Value::Object(copy_object(arguments, 0));
            let fault = walk.fault(root, &whole, &mut Vec::new(), 0)?;
            Some(tell(&walk, &fault))
        }
    }
}

/// The schema a local reference (`#`, `#/$defs/Name`) points to.
pub(crate) fn lookup<'a>(root: &'a JsonObject, reference: &str) -> Option<Resolved<'a>> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(Resolved::Root);
    }
    let mut steps = pointer.strip_prefix('/')?.split('/').map(unescape);
    let mut node = root.get(steps.next()?.as_ref())?;
    for step in steps {
        node = match node {
            Value::Object(object) => object.get(step.as_ref())?,
            Value::Array(items) => items.get(step.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(Resolved::Value(node))
}

pub(crate) fn copy_object(object: &JsonObject, depth: usize) -> JsonObject {
    let copy = |(key, value): (&String, &Value)| (key.clone(), copy_value(value, depth + 1));
    object.iter().map(copy).collect()
}

fn copy_value(value: &Value, depth: usize) -> Value {
    match value {
        Value::Array(_) | Value::Object(_) if depth > DEPTH_LIMIT => Value::Null,
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| copy_value(v, depth + 1)).collect())
        }
        Value::Object(object) => Value::Object(copy_object(object, depth)),
        scalar => scalar.clone(),
    }
}

/// Decodes one step of a JSON pointer in a URI fragment: `%XX`, then `~1`
/// for `/` and `~0` for `~`.
fn unescape(step: &str) -> Cow<'_, str> {
    if !step.contains(['%', '~']) {
        return Cow::Borrowed(step);
    }
    let mut bytes = Vec::with_capacity(step.len());
    let mut rest = step.as_bytes();
    while let Some((&first, tail)) = rest.split_first() {
        let hex = tail
            .get(..2)
            .and_then(|digits| std::str::from_utf8(digits).ok())
            .and_then(|digits| u8::from_str_radix(digits, 16).ok());
        match (first, hex) {
            (b'%', Some(byte)) => {
                bytes.push(byte);
                rest = &tail[2..];
            }
            _ => {
                bytes.push(first);
                rest = tail;
            }
        }
    }
    let decoded = String::from_utf8_lossy(&bytes);
    Cow::Owned(decoded.replace("~1", "/").replace("~0", "~"))
}
