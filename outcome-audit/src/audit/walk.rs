//! The walk of one tool's input schema: `$ref`s followed, alternatives
//! read, and a value built that the schema accepts, within a budget of
//! steps and bytes and a depth, whatever the schema.

use super::*;

/// The audit's deadline passed while it read a schema.
#[derive(Debug)]
pub(crate) struct OutOfTime;

/// Why the audit builds no value for a schema.
#[derive(Debug)]
pub(crate) enum Unbuilt {
    /// This schema has none the audit can build: another alternative may.
    Cannot(String),
    /// The tool's walk spent its [`WALK_LIMIT`].
    Budget,
    /// The audit's deadline passed.
    Time,
}

pub(crate) fn cannot<T>(why: impl Into<String>) -> Result<T, Unbuilt> {
    Err(Unbuilt::Cannot(why.into()))
}

/// A schema [`Walk::holds_itself`]'s search is inside, and the schemas it
/// leads to that the search has still to enter, each with the `$ref`
/// that leads there.
pub(crate) struct Frame<'s> {
    schema: &'s Value,
    next: Vec<(&'s Value, Option<&'s str>)>,
}

/// `true` as a schema: anything.
pub(crate) static ANYTHING: Value = Value::Bool(true);

/// The walk of one tool's input schema, within its budget.
pub(crate) struct Walk<'s> {
    pub(crate) root: &'s Value,
    /// The schemas the walk is inside, outermost first.
    pub(crate) path: Vec<&'s Value>,
    pub(crate) steps: usize,
    pub(crate) bytes: usize,
    pub(crate) deadline: Option<Instant>,
}

impl<'s> Walk<'s> {
    /// Spends `n` steps of the budget.
    pub(crate) fn step(&mut self, n: usize) -> Result<(), Unbuilt> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > WALK_LIMIT {
            return Err(Unbuilt::Budget);
        }
        if self
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
        {
            return Err(Unbuilt::Time);
        }
        Ok(())
    }

    /// Counts `bytes` more of the arguments built.
    pub(crate) fn spend(&mut self, bytes: usize) -> Result<(), Unbuilt> {
        self.bytes = self.bytes.saturating_add(bytes);
        if self.bytes > VALUE_LIMIT {
            return cannot(format!(
                "the arguments the audit builds for it come to more than {VALUE_LIMIT} bytes"
            ));
        }
        Ok(())
    }

    /// The schema `schema` refers to, `$ref`s followed within the root, at
    /// most [`DEPTH_LIMIT`] in a row.
    pub(crate) fn resolve(&mut self, mut schema: &'s Value) -> Result<&'s Value, Unbuilt> {
        for _ in 0..=DEPTH_LIMIT {
            self.step(1)?;
            let Some(reference) = schema.get("$ref") else {
                return Ok(schema);
            };
            // Read as the runtime reads it: a pointer within the schema,
            // percent- and `~`-escaped.
            let target = reference
                .as_str()
                .zip(self.root.as_object())
                .and_then(|(reference, root)| outcome_schema::resolve(root, reference))
                .map(|resolved| match resolved {
                    outcome_schema::Resolved::Root => self.root,
                    outcome_schema::Resolved::Value(value) => value,
                });
            let Some(target) = target else {
                return cannot(format!(
                    "its $ref {} is not a place in the input schema",
                    one_line(&reference.to_string(), 80)
                ));
            };
            schema = target;
        }
        cannot(format!(
            "its $refs lead to one another more than {DEPTH_LIMIT} times in a row"
        ))
    }

    /// Whether the schema accepts `null`. A schema met again inside itself
    /// adds nothing: the way round the loop allows null only if another
    /// way does.
    pub(crate) fn allows_null(&mut self, schema: &'s Value, depth: usize) -> Result<bool, Unbuilt> {
        if depth > DEPTH_LIMIT {
            return cannot(format!("its schema nests deeper than {DEPTH_LIMIT} levels"));
        }
        let schema = self.resolve(schema)?;
        if self.on_path(schema) {
            return Ok(false);
        }
        self.path.push(schema);
        let allows = self.allows_null_here(schema, depth);
        self.path.pop();
        allows
    }

    /// Whether `schema`, on the path of schemas walked, is one of those
    /// it is inside.
    pub(crate) fn on_path(&self, schema: &Value) -> bool {
        self.path.iter().any(|on| std::ptr::eq(*on, schema))
    }

    pub(crate) fn allows_null_here(
        &mut self,
        schema: &'s Value,
        depth: usize,
    ) -> Result<bool, Unbuilt> {
        let in_type = match schema.get("type") {
            Some(Value::String(kind)) => kind == "null",
            Some(Value::Array(kinds)) => {
                self.step(kinds.len())?;
                kinds.iter().any(|k| k == "null")
            }
            Some(_) => false,
            // No type: anything, null included, unless an alternative says.
            None => {
                schema == &Value::Bool(true)
                    || schema.is_object()
                        && !["anyOf", "oneOf", "enum", "const", "allOf"]
                            .iter()
                            .any(|k| schema.get(*k).is_some())
            }
        };
        if in_type || schema.get("nullable") == Some(&Value::Bool(true)) {
            return Ok(true);
        }
        if let Some(choices) = schema.get("enum").and_then(Value::as_array) {
            self.step(choices.len())?;
            if choices.contains(&Value::Null) {
                return Ok(true);
            }
        }
        // One alternative that allows it is enough, whatever the others.
        let mut unread = None;
        for key in ["anyOf", "oneOf"] {
            for alternative in schema
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                match self.allows_null(alternative, depth + 1) {
                    Ok(true) => return Ok(true),
                    Ok(false) => {}
                    Err(Unbuilt::Cannot(why)) => {
                        unread.get_or_insert(why);
                    }
                    Err(stop) => return Err(stop),
                }
            }
        }
        match unread {
            Some(why) => cannot(why),
            None => Ok(false),
        }
    }

    /// A value for a place of its own (an argument, a property, an item)
    /// whose schema is `schema`: none when the schema holds itself (see
    /// [`Walk::holds_itself`]), else [`Walk::valid`]'s.
    pub(crate) fn placed(&mut self, schema: &'s Value, depth: usize) -> Result<Value, Unbuilt> {
        if let Some(why) = self.holds_itself(schema)? {
            return cannot(why);
        }
        self.valid(schema, depth)
    }

    /// Why a value placed where `schema` is may never be read: the schema,
    /// or one it leads to without an object or a list between, holds
    /// itself, through `$ref`s and alternatives alone. A type that does
    /// (`enum Expr { Number(f64), Nested(Box<Expr>) }`, untagged) is read
    /// by serde trying each alternative in turn on the same value, and on
    /// a value the others refuse it goes round without end, until the
    /// server's stack overflows: a process that aborts, or a test binary
    /// with every other test lost. So the audit sends such a place no
    /// value at all, and says why. `None` when the schema does not hold
    /// itself that way (a tree whose children are in a list does not).
    ///
    /// A depth-first search, with a stack of its own rather than the
    /// thread's, each schema visited once: linear in the schemas, and
    /// counted against the walk's steps.
    pub(crate) fn holds_itself(&mut self, schema: &'s Value) -> Result<Option<String>, Unbuilt> {
        // Schemas on the search's path are `true`, those done `false`.
        let mut on_path: std::collections::HashMap<*const Value, bool> = Default::default();
        let mut stack = vec![self.enter(schema, &mut on_path)?];
        while let Some(top) = stack.last_mut() {
            let Some((next, reference)) = top.next.pop() else {
                on_path.insert(top.schema, false);
                stack.pop();
                continue;
            };
            match on_path.get(&(next as *const Value)) {
                Some(true) => {
                    let through = reference.map_or_else(String::new, |reference| {
                        format!(" through the $ref {}", one_line(reference, 80))
                    });
                    return Ok(Some(format!(
                        "its schema holds itself{through} with no object or list between: a \
                         reader that tries each alternative in turn, as serde's untagged enums \
                         do, may go round without end on a value, until the server's stack \
                         overflows; the audit sends it no value"
                    )));
                }
                Some(false) => {}
                None => {
                    let frame = self.enter(next, &mut on_path)?;
                    stack.push(frame);
                }
            }
        }
        Ok(None)
    }

    /// `schema` entered by [`Walk::holds_itself`]'s search: on its path,
    /// with the schemas it leads to still to search.
    fn enter(
        &mut self,
        schema: &'s Value,
        on_path: &mut std::collections::HashMap<*const Value, bool>,
    ) -> Result<Frame<'s>, Unbuilt> {
        let next = self.without_nesting(schema);
        self.step(1 + next.len())?;
        on_path.insert(schema, true);
        Ok(Frame { schema, next })
    }

    /// The schemas a value placed at `schema` is read against in the same
    /// place: its `$ref`'s target (with the reference) and its
    /// alternatives and parts. A `$ref` that leads nowhere leads to
    /// nothing here; the walk proper reports it.
    fn without_nesting(&self, schema: &'s Value) -> Vec<(&'s Value, Option<&'s str>)> {
        let mut next = Vec::new();
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str)
            && let Some(root) = self.root.as_object()
            && let Some(target) = outcome_schema::resolve(root, reference)
        {
            let target = match target {
                outcome_schema::Resolved::Root => self.root,
                outcome_schema::Resolved::Value(value) => value,
            };
            next.push((target, Some(reference)));
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            for part in schema
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                next.push((part, None));
            }
        }
        next
    }

    /// A value the schema accepts, as far as the audit can tell. A schema
    /// met again inside itself gives none that way: another alternative
    /// may.
    pub(crate) fn valid(&mut self, schema: &'s Value, depth: usize) -> Result<Value, Unbuilt> {
        if depth > DEPTH_LIMIT {
            return cannot(format!("its schema nests deeper than {DEPTH_LIMIT} levels"));
        }
        let schema = self.resolve(schema)?;
        if self.on_path(schema) {
            return cannot("its schema contains itself with no way out");
        }
        self.path.push(schema);
        let value = self.valid_here(schema, depth);
        self.path.pop();
        value
    }

    pub(crate) fn valid_here(&mut self, schema: &'s Value, depth: usize) -> Result<Value, Unbuilt> {
        match schema {
            Value::Object(_) | Value::Bool(true) => {}
            Value::Bool(false) => return cannot("its schema is false, which no value meets"),
            _ => return cannot("its schema is not an object"),
        }
        for key in ["const", "default"] {
            if let Some(value) = schema.get(key) {
                self.spend(size(value))?;
                return Ok(value.clone());
            }
        }
        if let Some(choices) = schema.get("enum") {
            let Some(choices) = choices.as_array() else {
                return cannot("its enum is not a list");
            };
            self.step(choices.len())?;
            return match choices.iter().find(|v| !v.is_null()) {
                Some(first) => {
                    self.spend(size(first))?;
                    Ok(first.clone())
                }
                None if choices.is_empty() => cannot("its enum is empty, which no value meets"),
                None => Ok(Value::Null),
            };
        }
        for key in ["anyOf", "oneOf"] {
            let Some(alternatives) = schema.get(key) else {
                continue;
            };
            let Some(alternatives) = alternatives.as_array() else {
                return cannot(format!("its {key} is not a list"));
            };
            let mut why = None;
            let mut null = false;
            for alternative in alternatives {
                let bytes = self.bytes;
                let built = match self.resolve(alternative) {
                    Ok(target) if target.get("type") == Some(&Value::from("null")) => {
                        null = true;
                        continue;
                    }
                    Ok(_) => self.valid(alternative, depth + 1),
                    Err(error) => Err(error),
                };
                match built {
                    Ok(value) => return Ok(value),
                    Err(Unbuilt::Cannot(reason)) => {
                        self.bytes = bytes;
                        why.get_or_insert(reason);
                    }
                    Err(stop) => return Err(stop),
                }
            }
            return match why {
                // Null is sent only when nothing else can be.
                Some(_) if null => Ok(Value::Null),
                Some(why) => cannot(why),
                None if alternatives.is_empty() => {
                    cannot(format!("its {key} is empty, which no value meets"))
                }
                None => Ok(Value::Null),
            };
        }
        if let Some(all) = schema.get("allOf").and_then(Value::as_array)
            && let [one] = &all[..]
        {
            return self.valid(one, depth + 1);
        }
        // Of several types, the first listed: a server that takes
        // `["boolean", "string"]` may take only some strings ("true").
        let first = schema
            .get("type")
            .and_then(Value::as_array)
            .and_then(|kinds| {
                kinds
                    .iter()
                    .filter_map(Value::as_str)
                    .find(|kind| *kind != "null")
            });
        let kind = single_type(schema)
            .or(first)
            .unwrap_or(if schema.get("properties").is_some() {
                "object"
            } else {
                "string"
            });
        let value = match kind {
            "string" => return self.string(schema),
            "integer" | "number" => return self.number(schema, kind == "integer"),
            "boolean" => Value::Bool(false),
            "null" => Value::Null,
            "array" => {
                let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
                if min > ITEMS_LIMIT {
                    return cannot(format!(
                        "its minItems is {min}, and the audit builds no list longer than \
                         {ITEMS_LIMIT} items"
                    ));
                }
                let mut items = Vec::new();
                if min > 0 {
                    let bytes = self.bytes;
                    let item = self.placed(schema.get("items").unwrap_or(&ANYTHING), depth + 1)?;
                    let each = self.bytes - bytes + 1;
                    self.spend(each.saturating_mul(min as usize - 1))?;
                    items.resize(min as usize, item);
                }
                Value::Array(items)
            }
            "object" => {
                let properties = match schema.get("properties") {
                    None => None,
                    Some(Value::Object(properties)) => Some(properties),
                    Some(_) => return cannot("its properties is not an object"),
                };
                let required = match schema.get("required") {
                    None => &[][..],
                    Some(Value::Array(required)) => &required[..],
                    Some(_) => return cannot("its required is not a list"),
                };
                let mut object = Map::new();
                for name in required {
                    self.step(1)?;
                    let Some(name) = name.as_str() else {
                        return cannot("its required lists something other than a name");
                    };
                    let property = properties.and_then(|p| p.get(name)).unwrap_or(&ANYTHING);
                    let value = self.placed(property, depth + 1)?;
                    self.spend(name.len() + 4)?;
                    object.insert(name.to_owned(), value);
                }
                Value::Object(object)
            }
            other => {
                return cannot(format!(
                    "its type {} is not a JSON type",
                    one_line(other, 40)
                ));
            }
        };
        self.spend(8)?;
        Ok(value)
    }
}
