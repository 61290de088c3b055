//! The plan of each tool: from its input schema, one call that keeps to
//! it and one for each mistake a model makes. The walk that reads the
//! schema is `walk.rs`; the values it builds, `values.rs`.

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
    /// The arguments the schema declares or requires: a tool that takes
    /// none cannot be called wrong.
    pub(crate) arguments: usize,
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
        arguments: 0,
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
                .placed(schema, 1)
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
        plan.arguments = arguments.len();
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
        // A tool that takes no argument cannot be called wrong: a key it
        // does not declare changes nothing it does, and whether it says
        // so or runs as asked, the model has nothing to misread.
        if root.get("additionalProperties") == Some(&Value::Bool(false)) && plan.arguments > 0 {
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
        // Every mistake sends the argument a value, but one: left out.
        if let Some(why) = self.holds_itself(schema)? {
            return cannot(why);
        }
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
        // An exclusive bound is broken by the bound itself (pydantic's
        // `gt`, zod's `positive`).
        for (key, mistake, up) in [
            ("exclusiveMinimum", Mistake::AtExclusiveMinimum, false),
            ("exclusiveMaximum", Mistake::AtExclusiveMaximum, true),
        ] {
            let Some(bound) = schema.get(key).and_then(Value::as_f64) else {
                continue;
            };
            let at = if !integer || bound.fract() == 0.0 && bound.abs() < I64_BOUND {
                Some(number(bound, integer))
            } else {
                beyond(bound, integer, up)
            };
            if let Some(at) = at {
                plan.probes.push(probe(mistake, Some(at)));
            }
        }
        // A string of its lengths that only its pattern refuses; else one
        // that only its format does.
        if kind == Some("string") {
            for (keyword, mistake) in [
                ("pattern", Mistake::NotPattern),
                ("format", Mistake::NotFormat),
            ] {
                if let Some(outside) = self.breaking(schema, keyword)? {
                    plan.probes.push(probe(mistake, Some(outside)));
                    break;
                }
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
