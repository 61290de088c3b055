//! The plan of each tool: from its input schema, one call that keeps to
//! it and one for each mistake a model makes.

use super::*;

/// The calls the audit makes to one tool, and what of it it cannot probe.
pub(crate) struct Plan {
    /// Arguments the schema accepts, as far as the audit can tell: each
    /// probe changes one thing in them.
    pub(crate) baseline: JsonObject,
    /// The call that keeps to the schema, its strings values that name
    /// nothing a server holds: `None` when the audit builds no baseline.
    pub(crate) valid: Option<JsonObject>,
    pub(crate) probes: Vec<Probe>,
    pub(crate) not_probed: Vec<NotProbed>,
}

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
            "string" => {
                let min = length(schema, "minLength")?.unwrap_or(0);
                let max = length(schema, "maxLength")?;
                if max.is_some_and(|max| max < min) {
                    return cannot("its minLength is above its maxLength, which no value meets");
                }
                if schema.get("pattern").is_some() {
                    if let Some(example) = schema
                        .get("examples")
                        .and_then(Value::as_array)
                        .and_then(|e| e.first())
                    {
                        self.spend(size(example))?;
                        return Ok(example.clone());
                    }
                    return cannot(
                        "it has a pattern, and no default, const, enum or example to send",
                    );
                }
                let format = match schema.get("format").and_then(Value::as_str) {
                    Some("uri") => Some("https://example.com/"),
                    Some("email") => Some("someone@example.com"),
                    Some("date") => Some("2024-01-01"),
                    Some("date-time") => Some("2024-01-01T00:00:00Z"),
                    Some("uuid") => Some("00000000-0000-4000-8000-000000000000"),
                    _ => None,
                };
                let text = match format {
                    Some(text) => text.to_owned(),
                    None => {
                        let wanted = min.max(1).min(max.unwrap_or(u64::MAX));
                        if wanted > LENGTH_LIMIT {
                            return cannot(format!(
                                "its minLength is {min}, and the audit builds no string longer \
                                 than {LENGTH_LIMIT} characters"
                            ));
                        }
                        self.spend(wanted as usize)?;
                        "a".repeat(wanted as usize)
                    }
                };
                Value::from(text)
            }
            "integer" | "number" => {
                let min = schema.get("minimum").and_then(Value::as_f64);
                let max = schema.get("maximum").and_then(Value::as_f64);
                if let (Some(min), Some(max)) = (min, max)
                    && min > max
                {
                    return cannot("its minimum is above its maximum, which no value meets");
                }
                let integer = kind == "integer";
                let value = match (min, max) {
                    (Some(min), _) if min > 1.0 => {
                        if integer {
                            min.ceil()
                        } else {
                            min
                        }
                    }
                    (_, Some(max)) if max < 1.0 => {
                        if integer {
                            max.floor()
                        } else {
                            max
                        }
                    }
                    _ => 1.0,
                };
                if max.is_some_and(|max| value > max) {
                    return cannot("no integer lies between its minimum and its maximum");
                }
                if integer && value.abs() >= I64_BOUND {
                    return cannot("its bounds leave only integers too large to send exactly");
                }
                number(value, integer)
            }
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
                    let item = self.valid(schema.get("items").unwrap_or(&ANYTHING), depth + 1)?;
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
                    let value = self.valid(property, depth + 1)?;
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

/// Integers from this magnitude on are not sent exactly (2^63).
pub(crate) const I64_BOUND: f64 = 9_223_372_036_854_775_808.0;

/// A length keyword of `schema`, when it has one.
pub(crate) fn length(schema: &Value, key: &str) -> Result<Option<u64>, Unbuilt> {
    match schema.get(key) {
        None => Ok(None),
        Some(value) => match value.as_u64() {
            Some(length) => Ok(Some(length)),
            None => cannot(format!("its {key} is not a whole number")),
        },
    }
}

/// The bytes of `value` as JSON, roughly, counted without recursion.
pub(crate) fn size(value: &Value) -> usize {
    let mut total = 0usize;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        total = total.saturating_add(match value {
            Value::String(s) => s.len() + 2,
            Value::Array(items) => {
                stack.extend(items);
                items.len() + 2
            }
            Value::Object(map) => {
                for (key, value) in map {
                    total = total.saturating_add(key.len() + 4);
                    stack.push(value);
                }
                2
            }
            _ => 8,
        });
    }
    total
}

/// A name, for a report line.
pub(crate) fn named(name: &str) -> String {
    one_line(name, 80)
}

/// The calls a model gets wrong, derived from `tool`'s input schema, and
/// what of it the audit cannot probe. The walk spends at most
/// [`WALK_LIMIT`] steps; the tool is not probed when it needs more.
pub(crate) fn plan(tool: &Tool, deadline: Option<Instant>) -> Result<Plan, OutOfTime> {
    let root = Value::Object((*tool.input_schema).clone());
    let mut walk = Walk {
        root: &root,
        path: Vec::new(),
        steps: 0,
        bytes: 0,
        deadline,
    };
    let mut plan = Plan {
        baseline: JsonObject::new(),
        valid: None,
        probes: Vec::new(),
        not_probed: Vec::new(),
    };
    let not_probed = |argument: Option<&str>, why: String| NotProbed {
        tool: Some(tool.name.to_string()),
        argument: argument.map(str::to_owned),
        why,
    };
    if tool.name.chars().count() > NAME_LIMIT {
        plan.not_probed.push(not_probed(
            None,
            format!("its name is longer than {NAME_LIMIT} characters"),
        ));
        return Ok(plan);
    }
    match walk.plan(&mut plan) {
        // The calls the audit built, read as the runtime reads them: one
        // the schema refuses would blame the server for the audit's
        // mistake.
        Ok(()) => {
            let contract = Contract::new(tool.input_schema.clone());
            let outside = |arguments: &JsonObject| {
                (!contract.fits(arguments))
                    .then(|| contract.explain(&tool.name, Some(arguments), ""))
            };
            if let Some(why) = outside(&plan.baseline) {
                plan.probes.clear();
                plan.valid = None;
                plan.not_probed.clear();
                plan.not_probed.push(not_probed(
                    None,
                    format!("no call: the call the audit builds does not keep to its input schema: {why}"),
                ));
            } else if let Some(why) = plan.valid.as_ref().and_then(outside) {
                plan.valid = None;
                plan.not_probed.push(not_probed(
                    None,
                    format!("no call that keeps to its input schema: {why}"),
                ));
            }
        }
        Err((argument, Unbuilt::Cannot(why))) => {
            plan.probes.clear();
            plan.valid = None;
            plan.not_probed.clear();
            plan.not_probed.push(not_probed(
                argument.as_deref(),
                match &argument {
                    Some(argument) => format!(
                        "no call: the audit builds no value for the required argument {}: {why}",
                        named(argument)
                    ),
                    None => format!("no call: {why}"),
                },
            ));
        }
        Err((_, Unbuilt::Budget)) => {
            plan.probes.clear();
            plan.valid = None;
            plan.not_probed.clear();
            plan.not_probed.push(not_probed(
                None,
                format!("its input schema takes more than the {WALK_LIMIT} steps the audit walks"),
            ));
        }
        Err((_, Unbuilt::Time)) => return Err(OutOfTime),
    }
    let tool_name = tool.name.to_string();
    for not in &mut plan.not_probed {
        not.tool = Some(tool_name.clone());
    }
    Ok(plan)
}

impl<'s> Walk<'s> {
    /// Fills `plan`. An error with an argument is one the tool's baseline
    /// cannot be built without; with none, one about the whole schema.
    pub(crate) fn plan(&mut self, plan: &mut Plan) -> Result<(), (Option<String>, Unbuilt)> {
        let root = self.root;
        let whole = |error| (None, error);
        if let Some(kind) = root.get("type")
            && single_type(root) != Some("object")
        {
            return Err(whole(Unbuilt::Cannot(format!(
                "its input schema's type is {}, not object",
                one_line(&kind.to_string(), 40)
            ))));
        }
        let properties = match root.get("properties") {
            None => None,
            Some(Value::Object(properties)) => Some(properties),
            Some(_) => {
                return Err(whole(Unbuilt::Cannot(
                    "its input schema's properties is not an object".into(),
                )));
            }
        };
        let required: Vec<&str> = match root.get("required") {
            None => Vec::new(),
            Some(Value::Array(names)) => {
                self.step(names.len()).map_err(whole)?;
                let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
                if names.len() < root["required"].as_array().map_or(0, Vec::len) {
                    return Err(whole(Unbuilt::Cannot(
                        "its input schema's required lists something other than a name".into(),
                    )));
                }
                names
            }
            Some(_) => {
                return Err(whole(Unbuilt::Cannot(
                    "its input schema's required is not a list".into(),
                )));
            }
        };
        // The baseline: a value for each required argument.
        for name in &required {
            let schema = properties.and_then(|p| p.get(*name)).unwrap_or(&ANYTHING);
            let value = self
                .valid(schema, 1)
                .map_err(|error| (Some((*name).to_owned()), error))?;
            self.spend(name.len() + 4)
                .map_err(|error| (Some((*name).to_owned()), error))?;
            plan.baseline.insert((*name).to_owned(), value);
        }
        // The call that keeps to the schema: a string that any string
        // meets names nothing a server holds, and neither does a large
        // number where an id is asked for.
        let mut valid = plan.baseline.clone();
        for (name, value) in &mut valid {
            let schema = properties.and_then(|p| p.get(name)).unwrap_or(&ANYTHING);
            let schema = self
                .resolve(schema)
                .map_err(|error| (Some(name.clone()), error))?;
            if value.is_string() && takes_any_string(schema, NAMES_NOTHING) {
                *value = Value::from(NAMES_NOTHING);
            } else if value.is_number() && names_a_number(name) && takes_any_id(schema) {
                *value = Value::from(NUMBER_NAMES_NOTHING);
            }
        }
        plan.valid = Some(valid);
        // The probes, argument by argument: the declared ones, then the
        // required ones no property declares.
        self.step(properties.map_or(0, Map::len)).map_err(whole)?;
        let declares = |name: &str| properties.is_some_and(|p| p.contains_key(name));
        let undeclared = required
            .iter()
            .filter(|name| !declares(name))
            .map(|name| (*name, &ANYTHING));
        let arguments: Vec<(&str, &Value)> = properties
            .into_iter()
            .flatten()
            .map(|(name, schema)| (name.as_str(), schema))
            .chain(undeclared)
            .collect();
        for (name, schema) in arguments {
            if name.chars().count() > NAME_LIMIT {
                plan.not_probed.push(NotProbed {
                    tool: None,
                    argument: Some(named(name)),
                    why: format!("its name is longer than {NAME_LIMIT} characters"),
                });
                continue;
            }
            let bytes = self.bytes;
            let is_required = required.contains(&name);
            match self.argument(plan, name, schema, is_required) {
                Ok(()) => {}
                Err(Unbuilt::Cannot(why)) => plan.not_probed.push(NotProbed {
                    tool: None,
                    argument: Some(name.to_owned()),
                    why,
                }),
                Err(stop) => return Err(whole(stop)),
            }
            self.bytes = bytes;
        }
        // serde ignores a key it does not know unless the type says
        // `deny_unknown_fields`, which schemars writes as
        // `additionalProperties: false`; JSON Schema allows one when the
        // keyword is absent. Only a schema that refuses them is probed.
        if root.get("additionalProperties") == Some(&Value::Bool(false)) {
            let key = (0..)
                .map(|n| {
                    format!(
                        "{UNKNOWN_KEY}{}",
                        if n == 0 { String::new() } else { n.to_string() }
                    )
                })
                .find(|k| !declares(k))
                .unwrap_or_default();
            // The key is what the model got wrong, and what the text names.
            plan.probes.push(Probe {
                mistake: Mistake::UnknownKey,
                argument: key,
                sent: Some(Value::from("x")),
                quoted: false,
            });
        }
        Ok(())
    }

    /// The probes of one argument, into `plan`; a mistake the audit cannot
    /// make in it goes to `plan.not_probed`.
    pub(crate) fn argument(
        &mut self,
        plan: &mut Plan,
        name: &str,
        schema: &'s Value,
        is_required: bool,
    ) -> Result<(), Unbuilt> {
        let schema = self.resolve(schema)?;
        let probe = |mistake: Mistake, sent: Option<Value>| Probe {
            mistake,
            argument: name.to_owned(),
            quoted: sent.as_ref().is_some_and(|v| !v.is_null()),
            sent,
        };
        let skip = |plan: &mut Plan, why: String| {
            plan.not_probed.push(NotProbed {
                tool: None,
                argument: Some(name.to_owned()),
                why,
            });
        };
        if is_required {
            plan.probes.push(probe(Mistake::Missing, None));
            if !self.allows_null(schema, 0)? {
                plan.probes.push(probe(Mistake::Null, Some(Value::Null)));
            }
        }
        let kind = single_type(schema);
        if let Some(wrong) = kind.and_then(wrong_type) {
            plan.probes.push(probe(Mistake::WrongType, Some(wrong)));
        }
        if let Some(choices) = schema.get("enum").and_then(Value::as_array)
            && !choices.is_empty()
        {
            self.step(choices.len())?;
            let strings: std::collections::HashSet<&str> =
                choices.iter().filter_map(Value::as_str).collect();
            if choices.iter().all(Value::is_string) {
                // One of the first `choices.len() + 1` names is free.
                let outside = (0..=choices.len())
                    .map(|n| {
                        format!(
                            "not_a_choice{}",
                            if n == 0 { String::new() } else { n.to_string() }
                        )
                    })
                    .find(|s| !strings.contains(s.as_str()))
                    .unwrap_or_default();
                plan.probes
                    .push(probe(Mistake::NotInEnum, Some(Value::String(outside))));
            }
        }
        let integer = kind == Some("integer");
        if let Some(min) = schema.get("minimum").and_then(Value::as_f64) {
            match beyond(min, integer, false) {
                Some(below) => plan.probes.push(probe(Mistake::BelowMinimum, Some(below))),
                None => skip(
                    plan,
                    format!(
                        "its minimum, {min}, leaves no number below it that the audit can send"
                    ),
                ),
            }
        }
        if let Some(max) = schema.get("maximum").and_then(Value::as_f64) {
            match beyond(max, integer, true) {
                Some(above) => plan.probes.push(probe(Mistake::AboveMaximum, Some(above))),
                None => skip(
                    plan,
                    format!(
                        "its maximum, {max}, leaves no number above it that the audit can send"
                    ),
                ),
            }
        }
        if let Some(min) = length(schema, "minLength")?
            && min > 0
        {
            if min - 1 > LENGTH_LIMIT {
                skip(
                    plan,
                    format!(
                        "its minLength is {min}, and the audit builds no string longer than \
                         {LENGTH_LIMIT} characters"
                    ),
                );
            } else {
                let short = "a".repeat((min - 1) as usize);
                plan.probes
                    .push(probe(Mistake::TooShort, Some(Value::String(short))));
            }
        }
        if let Some(max) = length(schema, "maxLength")? {
            if max >= LENGTH_LIMIT {
                skip(
                    plan,
                    format!(
                        "its maxLength is {max}, and the audit builds no string longer than \
                         {LENGTH_LIMIT} characters"
                    ),
                );
            } else {
                let long = "a".repeat((max + 1) as usize);
                plan.probes
                    .push(probe(Mistake::TooLong, Some(Value::String(long))));
            }
        }
        Ok(())
    }
}

/// The nearest number past `bound` (above it when `up`), as the audit
/// sends it; `None` when JSON carries none, or when an integer past it
/// cannot be sent exactly.
pub(crate) fn beyond(bound: f64, integer: bool, up: bool) -> Option<Value> {
    let value = if integer {
        let step = if up {
            bound.floor() + 1.0
        } else {
            bound.ceil() - 1.0
        };
        if step.abs() >= I64_BOUND || (up && step <= bound) || (!up && step >= bound) {
            return None;
        }
        step
    } else {
        let step = if up { bound + 1.0 } else { bound - 1.0 };
        // Past 2^53 one is lost in the rounding: the next number will do.
        let step = if step == bound {
            if up {
                bound.next_up()
            } else {
                bound.next_down()
            }
        } else {
            step
        };
        if !step.is_finite() {
            return None;
        }
        step
    };
    Some(number(value, integer))
}

pub(crate) fn number(value: f64, integer: bool) -> Value {
    if integer && value.fract() == 0.0 && value.abs() < I64_BOUND {
        Value::from(value as i64)
    } else {
        serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number)
    }
}

/// The schema's one JSON type, `null` aside, when it has exactly one.
pub(crate) fn single_type(schema: &Value) -> Option<&str> {
    match schema.get("type")? {
        Value::String(kind) => Some(kind),
        Value::Array(kinds) => {
            let kinds: Vec<&str> = kinds
                .iter()
                .filter_map(Value::as_str)
                .filter(|k| *k != "null")
                .collect();
            match kinds[..] {
                [one] => Some(one),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The string the call that keeps to the schema sends: a path, an id, a
/// name no server holds.
pub(crate) const NAMES_NOTHING: &str = "no-such-audit-value";

/// The number the call that keeps to the schema sends for an id.
pub(crate) const NUMBER_NAMES_NOTHING: u64 = 987_654_321;

/// Whether an argument's name asks for the number of something: `id`,
/// `issue_number`, `user_id`, `pageIndex`.
pub(crate) fn names_a_number(name: &str) -> bool {
    // The last word, in snake, kebab or camel case.
    let start = name
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_ascii_uppercase() || *c == '_' || *c == '-')
        .map_or(
            0,
            |(at, c)| if c.is_ascii_uppercase() { at } else { at + 1 },
        );
    let last = name[start..].to_ascii_lowercase();
    ["id", "number", "index", "num", "no"].contains(&last.as_str())
}

/// Whether `schema` is an integer that [`NUMBER_NAMES_NOTHING`] meets.
pub(crate) fn takes_any_id(schema: &Value) -> bool {
    let number = NUMBER_NAMES_NOTHING as f64;
    single_type(schema) == Some("integer")
        && schema.get("enum").is_none()
        && schema.get("const").is_none()
        && schema.get("multipleOf").is_none()
        && schema
            .get("maximum")
            .and_then(Value::as_f64)
            .is_none_or(|max| max >= number)
        && schema
            .get("exclusiveMaximum")
            .and_then(Value::as_f64)
            .is_none_or(|max| max > number)
}

/// Whether `schema` is a string any text of `text`'s length meets: no
/// `pattern`, `format`, `enum` or `const`.
pub(crate) fn takes_any_string(schema: &Value, text: &str) -> bool {
    let length = text.chars().count() as u64;
    let bound = |key: &str| schema.get(key).and_then(Value::as_u64);
    single_type(schema) == Some("string")
        && ["pattern", "format", "enum", "const"]
            .iter()
            .all(|key| schema.get(*key).is_none())
        && bound("minLength").is_none_or(|min| min <= length)
        && bound("maxLength").is_none_or(|max| max >= length)
}

/// A value of another JSON type than `kind`, that no lenient reading turns
/// into one of `kind`.
pub(crate) fn wrong_type(kind: &str) -> Option<Value> {
    Some(match kind {
        "string" => Value::from(42),
        "integer" | "number" => Value::from("ten"),
        "boolean" => Value::from("maybe"),
        "array" => Value::from("not a list"),
        "object" => Value::from("not an object"),
        _ => return None,
    })
}
