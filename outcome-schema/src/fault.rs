//! From the validator's errors to the one fault the model is told: which
//! error comes first, where it is in the arguments, and what the schema
//! there asks.
//!
//! The validator lists every error; the model reads one. At each value,
//! its own keywords come first (its kind, bounds, length), then a
//! property it lacks, then what is wrong inside it (in the order of its
//! keys or items), then keys it does not take, and last the options of
//! `anyOf`, `oneOf` and `not`: a key no option allows is named as such,
//! not as a value that fits none of them. Within options, the one the
//! model evidently meant is looked inside.

use std::borrow::Cow;

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind as Kind;
use serde_json::Value;

use crate::JsonObject;
use crate::keywords::{Shape, kind_fits, shape};
use crate::reference::{Schema, follow, pointer, pointer_steps, schema, unescape};

/// One step of the path from the arguments to a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Segment<'a> {
    /// A key of an object.
    Name(&'a str),
    Index(usize),
}

/// The first thing wrong with the arguments.
pub(crate) struct Fault<'a> {
    /// Where: the value that is wrong, or for a key or a property the
    /// object that holds it (a missing one's name ends the path).
    pub(crate) path: Vec<Segment<'a>>,
    pub(crate) problem: Problem<'a>,
}

pub(crate) enum Problem<'a> {
    /// A required property is absent; the schema is the property's.
    Missing(Schema<'a>),
    /// A property is absent that must be sent with the one named.
    MissingWith(&'a str),
    /// Each option requires one of these properties, and none was sent.
    MissingOne(Vec<&'a str>),
    /// The value does not fit the schema, which says what it must be:
    /// with `own`, by the schema's own keywords (not its options).
    Wrong {
        value: &'a Value,
        schema: Schema<'a>,
        own: bool,
    },
    /// The value is what the schema says it must not be.
    Not(&'a Value, Schema<'a>),
    /// The value fits more than one option of a `oneOf`.
    Several(&'a Value, Schema<'a>),
    /// A key the object does not take, and the keys it does.
    Unknown(&'a str, Vec<&'a str>),
    /// A key whose name is not what the object's keys must be.
    Key(&'a str, Schema<'a>),
}

/// Where each error sits, for ordering them (see the module's docs).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Step<'a> {
    Own,
    Required,
    Child(Segment<'a>),
    Keys,
    Options,
}

/// Reads the validator's errors of one call.
pub(crate) struct Finder<'a> {
    /// The schema the errors point into.
    pub(crate) root: &'a JsonObject,
    /// The arguments, as one value.
    pub(crate) arguments: &'a Value,
}

impl<'a> Finder<'a> {
    /// The fault to tell of `errors`; `None` for none.
    pub(crate) fn first(&self, errors: &[ValidationError<'_>]) -> Option<Fault<'a>> {
        self.fault(self.first_error(errors)?)
    }

    /// The error that comes first (see the module's docs).
    pub(crate) fn first_error<'e, 'v>(
        &self,
        errors: &'e [ValidationError<'v>],
    ) -> Option<&'e ValidationError<'v>> {
        let ranked = errors
            .iter()
            .filter_map(|error| Some((self.rank(error)?, error)));
        ranked
            .min_by(|(a, _), (b, _)| a.cmp(b))
            .map(|(_, error)| error)
    }

    /// The path to the value an error is about, and the value.
    fn locate(&self, error: &ValidationError<'_>) -> Option<(Vec<Segment<'a>>, &'a Value)> {
        let mut value = self.arguments;
        let mut path = Vec::new();
        for step in pointer(error.instance_path().as_str()) {
            (value, path) = match value {
                Value::Object(map) => {
                    let (key, next) = map.get_key_value(step.as_ref())?;
                    path.push(Segment::Name(key.as_str()));
                    (next, path)
                }
                Value::Array(items) => {
                    let index = step.parse::<usize>().ok()?;
                    path.push(Segment::Index(index));
                    (items.get(index)?, path)
                }
                _ => return None,
            };
        }
        Some((path, value))
    }

    fn rank(&self, error: &ValidationError<'_>) -> Option<Vec<Step<'a>>> {
        let (mut path, _) = self.locate(error)?;
        let last = match error.kind() {
            Kind::Required { .. } => Step::Required,
            Kind::AnyOf { .. }
            | Kind::OneOfNotValid { .. }
            | Kind::OneOfMultipleValid { .. }
            | Kind::Not { .. } => Step::Options,
            Kind::AdditionalProperties { .. }
            | Kind::UnevaluatedProperties { .. }
            | Kind::PropertyNames { .. }
            | Kind::AdditionalItems { .. }
            | Kind::UnevaluatedItems { .. } => Step::Keys,
            Kind::FalseSchema => match false_key(error) {
                Some(FalseKey::Property { .. }) => {
                    path.pop();
                    Step::Keys
                }
                Some(_) => Step::Keys,
                None => Step::Own,
            },
            _ => Step::Own,
        };
        let mut rank: Vec<Step<'a>> = path.into_iter().map(Step::Child).collect();
        rank.push(last);
        Some(rank)
    }

    /// The schema that holds the keyword an error is about.
    fn holder(&self, error: &ValidationError<'_>) -> Schema<'a> {
        let location = error.schema_path().as_str();
        // `propertyNames` reports the error of its own schema.
        let location = match (error.kind(), location.rfind("/propertyNames")) {
            (Kind::PropertyNames { .. }, Some(at)) => &location[..at + "/propertyNames".len()],
            _ => location,
        };
        let parent = location.rfind('/').map_or("", |at| &location[..at]);
        self.at(parent)
    }

    /// The schema at a JSON pointer into the root.
    fn at(&self, location: &str) -> Schema<'a> {
        if location.is_empty() {
            return Schema::Rules(self.root);
        }
        match pointer_steps(self.root, pointer(location)) {
            Some(Value::Object(rules)) => Schema::Rules(rules),
            Some(Value::Bool(false)) => Schema::Never,
            _ => Schema::Any,
        }
    }

    fn fault(&self, error: &ValidationError<'_>) -> Option<Fault<'a>> {
        let (path, value) = self.locate(error)?;
        let holder = self.holder(error);
        let rules = match holder {
            Schema::Rules(rules) => Some(rules),
            _ => None,
        };
        let wrong = |path: Vec<Segment<'a>>, schema: Schema<'a>, own: bool| {
            let problem = Problem::Wrong { value, schema, own };
            Some(Fault { path, problem })
        };
        let object = value.as_object();
        match error.kind() {
            Kind::Required { property } => {
                let name = property.as_str()?;
                let mut path = path;
                let dependent = error.schema_path().as_str().ends_with("/dependentRequired")
                    || error.schema_path().as_str().ends_with("/dependencies");
                let problem = match (dependent, rules) {
                    (true, Some(rules)) => match trigger(rules, object?, name) {
                        Some(trigger) => Problem::MissingWith(trigger),
                        None => Problem::Missing(Schema::Any),
                    },
                    _ => Problem::Missing(self.property(rules, name)),
                };
                path.push(Segment::Name(self.name_in(rules, name)?));
                Some(Fault { path, problem })
            }
            Kind::AdditionalProperties { unexpected }
            | Kind::UnevaluatedProperties { unexpected } => {
                let (key, item) = object?
                    .iter()
                    .find(|(key, _)| unexpected.iter().any(|u| u == *key))?;
                let keyword = match error.kind() {
                    Kind::AdditionalProperties { .. } => "additionalProperties",
                    _ => "unevaluatedProperties",
                };
                match rules.and_then(|rules| rules.get(keyword)) {
                    Some(Value::Bool(false)) | None => {
                        let known =
                            known_names(self.root, rules, keyword != "additionalProperties");
                        let problem = Problem::Unknown(key, known);
                        Some(Fault { path, problem })
                    }
                    Some(other) => {
                        let mut path = path;
                        path.push(Segment::Name(key));
                        let problem = Problem::Wrong {
                            value: item,
                            schema: schema(self.root, other),
                            own: false,
                        };
                        Some(Fault { path, problem })
                    }
                }
            }
            Kind::FalseSchema => {
                let mut path = path;
                let (key, holder, evaluated) = match false_key(error) {
                    None => return wrong(path, Schema::Never, true),
                    Some(FalseKey::Property { holder }) => match path.pop() {
                        Some(Segment::Name(key)) => (key, holder, false),
                        _ => return None,
                    },
                    Some(FalseKey::Dependent { key, holder }) => (
                        object?.get_key_value(key.as_ref())?.0.as_str(),
                        holder,
                        false,
                    ),
                    // An object that must be empty: its first key is one
                    // it does not take.
                    Some(FalseKey::Closed { holder, evaluated }) => {
                        (object?.keys().next()?.as_str(), holder, evaluated)
                    }
                };
                let mut known = match self.at(holder) {
                    Schema::Rules(rules) => known_names(self.root, Some(rules), evaluated),
                    _ => Vec::new(),
                };
                // A property whose schema is `false` is listed, and not taken.
                known.retain(|name| *name != key);
                Some(Fault {
                    path,
                    problem: Problem::Unknown(key, known),
                })
            }
            Kind::PropertyNames { error: inner } => {
                let key = inner.instance().as_str().map(str::to_owned)?;
                let (key, _) = object?.get_key_value(key.as_str())?;
                let names = rules
                    .and_then(|rules| rules.get("propertyNames"))
                    .map_or(Schema::Any, |names| schema(self.root, names));
                Some(Fault {
                    path,
                    problem: Problem::Key(key, names),
                })
            }
            Kind::Not { .. } => {
                let not = rules
                    .and_then(|rules| rules.get("not"))
                    .map_or(Schema::Any, |not| schema(self.root, not));
                Some(Fault {
                    path,
                    problem: Problem::Not(value, not),
                })
            }
            Kind::OneOfMultipleValid { .. } => Some(Fault {
                path,
                problem: Problem::Several(value, holder),
            }),
            Kind::AnyOf { context } | Kind::OneOfNotValid { context } => {
                let keyword = match error.kind() {
                    Kind::AnyOf { .. } => "anyOf",
                    _ => "oneOf",
                };
                let options = rules
                    .and_then(|rules| rules.get(keyword))
                    .and_then(Value::as_array)
                    .map_or(&[][..], Vec::as_slice);
                Some(self.options_fault(path, value, holder, options, context))
            }
            _ => wrong(path, holder, true),
        }
    }

    /// The schema of property `name` in `rules`, its references followed.
    fn property(&self, rules: Option<&'a JsonObject>, name: &str) -> Schema<'a> {
        rules
            .and_then(|rules| rules.get("properties"))
            .and_then(|properties| properties.get(name))
            .map_or(Schema::Any, |property| schema(self.root, property))
    }

    /// `name` as the schema spells it, borrowed from the schema.
    fn name_in(&self, rules: Option<&'a JsonObject>, name: &str) -> Option<&'a str> {
        let rules = rules?;
        let listed = ["required", "dependentRequired", "dependencies"]
            .iter()
            .filter_map(|key| rules.get(*key))
            .flat_map(|value| match value {
                Value::Array(names) => names.iter().collect::<Vec<_>>(),
                Value::Object(map) => map.values().filter_map(Value::as_array).flatten().collect(),
                _ => Vec::new(),
            });
        listed
            .filter_map(Value::as_str)
            .find(|listed| *listed == name)
    }

    /// The fault of a value that fits none of `options`: the fault inside
    /// the one option the model evidently meant, or else the value
    /// against all of them. The option meant is the only one of the
    /// value's kind or, among several objects, the only one whose
    /// required keys and constant tags the value has.
    fn options_fault(
        &self,
        path: Vec<Segment<'a>>,
        value: &'a Value,
        holder: Schema<'a>,
        options: &'a [Value],
        context: &[Vec<ValidationError<'static>>],
    ) -> Fault<'a> {
        let mut of_kind = (0, None);
        let mut of_shape = (0, None);
        // The keys the options require, while each fails only for one of
        // them: an object that must have one of several keys.
        let mut needed: Option<Vec<&'a str>> = Some(Vec::new());
        for (option, errors) in options.iter().zip(context) {
            let option = schema(self.root, option);
            let Some(fault) = self.first(errors) else {
                needed = None;
                continue;
            };
            needed =
                needed.and_then(
                    |mut needed| match (&fault.problem, fault.path.split_last()) {
                        (Problem::Missing(_), Some((Segment::Name(name), parent)))
                            if parent == path =>
                        {
                            if !needed.contains(name) {
                                needed.push(name);
                            }
                            Some(needed)
                        }
                        _ => None,
                    },
                );
            let fits = match option {
                Schema::Rules(rules) => kind_fits(rules, value),
                _ => true,
            };
            match shape(option, value, fits) {
                Shape::Other => {}
                Shape::Kind => of_kind = (of_kind.0 + 1, of_kind.1.or(Some(fault))),
                Shape::Keys => {
                    of_kind.0 += 1;
                    of_shape = (of_shape.0 + 1, of_shape.1.or(Some(fault)));
                }
            }
        }
        if let Some(needed) = needed.filter(|needed| needed.len() > 1) {
            return Fault {
                path,
                problem: Problem::MissingOne(needed),
            };
        }
        match (of_kind, of_shape) {
            ((1, Some(fault)), _) | (_, (1, Some(fault))) => fault,
            _ => Fault {
                path,
                problem: Problem::Wrong {
                    value,
                    schema: holder,
                    own: false,
                },
            },
        }
    }
}

/// A `false` schema that stands for keys an object does not take, and
/// where the schema that holds it is.
enum FalseKey<'e> {
    /// A property's schema: the property must be left out.
    Property { holder: &'e str },
    /// One of `dependentSchemas`: its key must be left out.
    Dependent { key: Cow<'e, str>, holder: &'e str },
    /// `additionalProperties` or `unevaluatedProperties` of an object that
    /// lists no property: it must be empty.
    Closed { holder: &'e str, evaluated: bool },
}

fn false_key<'e>(error: &'e ValidationError<'_>) -> Option<FalseKey<'e>> {
    let location = error.schema_path().as_str();
    let (rest, last) = location.rsplit_once('/')?;
    match last {
        "additionalProperties" => {
            return Some(FalseKey::Closed {
                holder: rest,
                evaluated: false,
            });
        }
        "unevaluatedProperties" => {
            return Some(FalseKey::Closed {
                holder: rest,
                evaluated: true,
            });
        }
        _ => {}
    }
    let (holder, keyword) = rest.rsplit_once('/')?;
    match keyword {
        "properties" => Some(FalseKey::Property { holder }),
        "dependentSchemas" => Some(FalseKey::Dependent {
            key: unescape(last),
            holder,
        }),
        _ => None,
    }
}

/// The key in `object` whose dependents in `rules` include `name`.
fn trigger<'a>(rules: &'a JsonObject, object: &JsonObject, name: &str) -> Option<&'a str> {
    ["dependentRequired", "dependencies"]
        .iter()
        .filter_map(|key| rules.get(*key).and_then(Value::as_object))
        .flatten()
        .filter(|(key, _)| object.contains_key(key.as_str()))
        .find(|(_, names)| {
            names
                .as_array()
                .is_some_and(|names| names.iter().any(|n| n.as_str() == Some(name)))
        })
        .map(|(key, _)| key.as_str())
}

/// The names an object takes: its `properties`, and with `evaluated` the
/// properties of the schemas it applies in place (`allOf`, `$ref`, ...),
/// which `unevaluatedProperties` counts too.
fn known_names<'a>(
    root: &'a JsonObject,
    rules: Option<&'a JsonObject>,
    evaluated: bool,
) -> Vec<&'a str> {
    const IN_PLACE: &[&str] = &["allOf", "anyOf", "oneOf", "if", "then", "else"];
    let mut names: Vec<&'a str> = Vec::new();
    let mut pending: Vec<&'a JsonObject> = rules.into_iter().collect();
    let mut read = 0;
    while let Some(rules) = pending.pop() {
        read += 1;
        if read > 64 {
            break;
        }
        if let Some(properties) = rules.get("properties").and_then(Value::as_object) {
            names.extend(properties.keys().map(String::as_str));
        }
        if !evaluated {
            break;
        }
        if rules.contains_key("$ref")
            && let Schema::Rules(target) = follow(root, rules)
        {
            pending.push(target);
        }
        for keyword in IN_PLACE {
            let found = rules
                .get(*keyword)
                .into_iter()
                .flat_map(|value| match value {
                    Value::Array(items) => items.iter().collect::<Vec<_>>(),
                    other => vec![other],
                });
            pending.extend(found.filter_map(Value::as_object));
        }
        if let Some(dependent) = rules.get("dependentSchemas").and_then(Value::as_object) {
            pending.extend(dependent.values().filter_map(Value::as_object));
        }
    }
    names.sort_unstable();
    names.dedup();
    names
}

/// A copy of `value` with every array and object deeper than `limit`
/// levels left out (`null`): what the validator can read of a value too
/// deep to check whole.
pub(crate) fn cut(value: &Value, limit: usize) -> Value {
    match value {
        Value::Array(_) | Value::Object(_) if limit == 0 => Value::Null,
        Value::Array(items) => Value::Array(items.iter().map(|v| cut(v, limit - 1)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), cut(v, limit - 1)))
                .collect(),
        ),
        scalar => scalar.clone(),
    }
}

/// Whether an error of a value cut by [`cut`], above the cut, would be
/// the same in the whole value: a keyword that reads only the value where
/// it is, never what lies deeper (as `enum`, `uniqueItems` and the options
/// of `anyOf` do).
pub(crate) fn unaffected_by_cut(kind: &Kind) -> bool {
    matches!(
        kind,
        Kind::Type { .. }
            | Kind::Minimum { .. }
            | Kind::Maximum { .. }
            | Kind::ExclusiveMinimum { .. }
            | Kind::ExclusiveMaximum { .. }
            | Kind::MultipleOf { .. }
            | Kind::MinLength { .. }
            | Kind::MaxLength { .. }
            | Kind::Pattern { .. }
            | Kind::Format { .. }
            | Kind::MinItems { .. }
            | Kind::MaxItems { .. }
            | Kind::MinProperties { .. }
            | Kind::MaxProperties { .. }
            | Kind::Required { .. }
            | Kind::AdditionalProperties { .. }
            | Kind::FalseSchema
    )
}
