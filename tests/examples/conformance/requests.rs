//! What the tools ask of the client: input rounds, sampling,
//! elicitation, roots; and the resources and prompts they read.

use super::*;

impl Conformance {
    /// The confirmation round of the two requestState tools: asks with a
    /// sealed state, and completes once the state opens and the answer is
    /// there.
    pub(super) fn confirm(
        &self,
        responses: Option<&BTreeMap<String, Value>>,
        state: Option<String>,
    ) -> Result<CallToolResponse, ToolError> {
        let state = self.open(state)?;
        let answered = answer(responses, "confirm").is_some();
        if state.is_some() && answered {
            return Ok(done("Confirmed: state-ok".to_owned()));
        }
        let requests = InputRequests::from([(
            "confirm".to_owned(),
            ask_user("Please confirm", "ok", "boolean")?,
        )]);
        let state = self.seal(&json!({ "stage": "confirm" }))?;
        Ok(InputRequiredResult::new(Some(requests), Some(state)).into())
    }

    /// Seals `state` for the client to send back.
    pub(super) fn seal(&self, state: &Value) -> Result<String, ToolError> {
        Ok(self.shared.codec.seal_json(state)?)
    }

    /// Opens the requestState the client sent back: `None` on a first call,
    /// and a JSON-RPC error when this server did not seal it. SEP-2322 asks
    /// for one: the state is the client's to keep intact, and no argument
    /// the model could change repairs it.
    pub(super) fn open(&self, state: Option<String>) -> Result<Option<Value>, ToolError> {
        let Some(state) = state else {
            return Ok(None);
        };
        match self.shared.codec.open_json(&state) {
            Ok(opened) => Ok(Some(opened)),
            Err(_) => Err(ToolError::protocol(ErrorData::invalid_params(
                "requestState was not issued by this server, or was changed",
                None,
            ))),
        }
    }
}

/// Requests to the client during a call need a protocol before
/// 2026-07-28: the call of `tool` in a later one is outcome 2, pointing to
/// `instead`, which asks through its result.
pub(super) fn direct_requests(
    context: &RequestContext<RoleServer>,
    tool: &str,
    instead: &str,
) -> Result<(), ToolError> {
    if legacy(context) {
        return Ok(());
    }
    Err(ToolError::invalid(
        format_args!(
            "{tool} asks the client for input during the call, which protocol 2026-07-28 \
             and later do not allow"
        ),
        format_args!("Call {instead} instead: it asks for input in its result"),
    ))
}

/// Input requests in a result need protocol 2026-07-28 or later: the call
/// of `tool` in an older session is outcome 2, pointing to `instead` when
/// another tool asks the client directly.
pub(super) fn input_rounds(
    context: &RequestContext<RoleServer>,
    tool: &str,
    instead: Option<&str>,
) -> Result<(), ToolError> {
    if !legacy(context) {
        return Ok(());
    }
    let version = context
        .protocol_version()
        .map_or_else(|| "an older one".to_owned(), |v| v.as_str().to_owned());
    Err(ToolError::invalid(
        format_args!(
            "{tool} asks for input in its result, which needs protocol 2026-07-28 or later, \
             and this session uses {version}"
        ),
        match instead {
            Some(other) => format!("Call {other} instead: it asks the client directly"),
            None => format!("Tell the user that this client cannot run {tool}"),
        },
    ))
}

/// A complete result with one line of text.
pub(super) fn done(text: String) -> CallToolResponse {
    CallToolResult::success(vec![ContentBlock::text(text)]).into()
}

/// An elicitation input request for one required field of JSON type
/// `kind`.
pub(super) fn ask_user(message: &str, field: &str, kind: &str) -> Result<InputRequest, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": { field: { "type": kind } },
        "required": [field]
    });
    // The schema is built here: one rmcp refuses is this server's bug.
    let requested_schema: ElicitationSchema = serde_json::from_value(schema)?;
    let params = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: message.to_owned(),
        requested_schema,
    };
    Ok(InputRequest::Elicitation(ElicitRequest::new(params)))
}

/// A sampling input request for one user prompt.
pub(super) fn ask_model(prompt: &str, max_tokens: u32) -> InputRequest {
    let params =
        CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], max_tokens);
    InputRequest::CreateMessage(CreateMessageRequest::new(params))
}

/// A `roots/list` input request.
pub(super) fn ask_roots() -> InputRequest {
    InputRequest::ListRoots(ListRootsRequest::default())
}

/// The response under `key`, when the client sent one that is a JSON
/// object.
pub(super) fn answer<'a>(
    responses: Option<&'a BTreeMap<String, Value>>,
    key: &str,
) -> Option<&'a serde_json::Map<String, Value>> {
    responses?.get(key)?.as_object()
}

/// The string `field` of an accepted elicitation under `key`.
pub(super) fn accepted<'a>(
    responses: Option<&'a BTreeMap<String, Value>>,
    key: &str,
    field: &str,
) -> Option<&'a str> {
    let answer = answer(responses, key)?;
    if answer.get("action").and_then(Value::as_str) != Some("accept") {
        return None;
    }
    answer.get("content")?.get(field)?.as_str()
}

/// The text of a sampling response under `key`.
pub(super) fn sampled<'a>(
    responses: Option<&'a BTreeMap<String, Value>>,
    key: &str,
) -> Option<&'a str> {
    let content = answer(responses, key)?.get("content")?;
    // One content block, or a list of them.
    let block = match content {
        Value::Array(blocks) => blocks.first()?,
        block => block,
    };
    block.get("text")?.as_str()
}

/// The root URIs of a `roots/list` response under `key`.
pub(super) fn roots<'a>(
    responses: Option<&'a BTreeMap<String, Value>>,
    key: &str,
) -> Option<Vec<&'a str>> {
    let roots = answer(responses, key)?.get("roots")?.as_array()?;
    Some(
        roots
            .iter()
            .filter_map(|root| root.get("uri")?.as_str())
            .collect(),
    )
}

/// The client must have declared sampling.
pub(super) fn require_sampling(context: &RequestContext<RoleServer>) -> Result<(), ToolError> {
    let samples = context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.sampling.is_some());
    if !samples {
        let sampling = ClientCapabilities::builder().enable_sampling().build();
        return Err(ErrorData::missing_required_client_capability(sampling).into());
    }
    Ok(())
}

/// The input schema of `test_custom_header`: its one argument also travels
/// as a header.
pub(super) fn region_schema() -> JsonObject {
    object(json!({
        "type": "object",
        "properties": {
            "region": {
                "type": "string",
                "description": "A region name, such as eu-west.",
                "x-mcp-header": "Region"
            }
        },
        "required": ["region"]
    }))
}

/// A JSON object literal as rmcp's `JsonObject`.
pub(super) fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        _ => unreachable!("called with a JSON object literal"),
    }
}

/// The input schema of `json_schema_2020_12_tool`: a 2020-12 dialect with
/// `$defs`, `$anchor`, composition and conditional keywords.
pub(super) fn contact_schema() -> JsonObject {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": {
                    "street": { "type": "string" },
                    "city": { "type": "string" }
                }
            }
        },
        "properties": {
            "name": { "type": "string" },
            "address": { "$ref": "#/$defs/address" },
            "contactMethod": { "type": "string", "enum": ["phone", "email"] },
            "phone": { "type": "string" },
            "email": { "type": "string" }
        },
        "allOf": [{ "anyOf": [{ "required": ["phone"] }, { "required": ["email"] }] }],
        "if": {
            "properties": { "contactMethod": { "const": "phone" } },
            "required": ["contactMethod"]
        },
        "then": { "required": ["phone"] },
        "else": { "required": ["email"] },
        "additionalProperties": false
    });
    object(schema)
}

/// Asks the client's user to fill in `schema`, for the tool `tool`.
///
/// A client without the elicitation capability gets the JSON-RPC error
/// that says so; a client that refuses the request, or one on a protocol
/// that forbids asking during a call, is outcome 2.
pub(super) async fn elicit(
    context: &RequestContext<RoleServer>,
    tool: &str,
    message: String,
    schema: Value,
) -> Result<ElicitResult, ToolError> {
    direct_requests(context, tool, "test_input_required_result_elicitation")?;
    let elicits = context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.elicitation.is_some());
    if !elicits {
        let elicitation = ClientCapabilities::builder().enable_elicitation().build();
        return Err(ErrorData::missing_required_client_capability(elicitation).into());
    }
    // The schemas above are literals: one rmcp refuses is this server's bug.
    let requested_schema: ElicitationSchema = serde_json::from_value(schema)?;
    let request = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema,
    };
    match context.peer.create_elicitation(request).await {
        Ok(answer) => Ok(answer),
        Err(ServiceError::McpError(_)) => Err(ToolError::invalid(
            "The client refused to ask its user",
            format_args!("Ask the user directly, or call {tool} again once the client allows it"),
        )),
        Err(other) => Err(other.into()),
    }
}

/// The user's answer, as `action=<action>, content=<JSON>`.
pub(super) fn describe(answer: &ElicitResult) -> String {
    let action = match answer.action {
        ElicitationAction::Accept => "accept",
        ElicitationAction::Decline => "decline",
        ElicitationAction::Cancel => "cancel",
        _ => "unknown",
    };
    let content = answer.content.clone().unwrap_or(Value::Null);
    format!("action={action}, content={content}")
}

/// The candidates `completion/complete` offers for a prompt argument.
pub(super) fn prompt_candidates(prompt: &str, argument: &str) -> &'static [&'static str] {
    match (prompt, argument) {
        ("test_prompt_with_arguments", "arg1") => &["test", "testing", "paris", "park", "party"],
        ("test_prompt_with_arguments", "arg2") => &["world", "word", "work"],
        ("test_prompt_with_embedded_resource", "resourceUri") => {
            &["test://static-text", "test://static-binary"]
        }
        _ => &[],
    }
}

/// Reads one resource, or `None` when `uri` names none.
pub(super) fn read(uri: &str) -> Option<ResourceContents> {
    let text =
        |text: &str, mime: &str| Some(ResourceContents::text(text, uri).with_mime_type(mime));
    match uri {
        "test://static-text" => text(
            "This is the content of the static text resource.",
            "text/plain",
        ),
        "test://static-binary" => {
            Some(ResourceContents::blob(PNG, uri).with_mime_type("image/png"))
        }
        "test://watched-resource" => text("A resource to subscribe to.", "text/plain"),
        _ => {
            let id = uri
                .strip_prefix("test://template/")?
                .strip_suffix("/data")
                .filter(|id| !id.is_empty() && !id.contains('/'))?;
            let data =
                json!({ "id": id, "templateTest": true, "data": format!("Data for ID: {id}") });
            text(&data.to_string(), "application/json")
        }
    }
}

/// The JSON-RPC error for a URI that names no resource: invalid params,
/// with the URI in `data`.
pub(super) fn no_such_resource(uri: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!(
            "No resource at {}; list them with resources/list and resources/templates/list",
            quote(uri)
        ),
        Some(json!({ "uri": uri })),
    )
}

/// A required prompt argument, or the error that names it.
pub(super) fn prompt_argument<'a>(
    request: &'a GetPromptRequestParams,
    name: &str,
) -> Result<&'a str, ErrorData> {
    request
        .arguments
        .as_ref()
        .and_then(|arguments| arguments.get(name))
        .and_then(Value::as_str)
        .ok_or_else(|| {
            ErrorData::invalid_params(
                format!(
                    "The prompt {} needs the string argument {name}; pass it in arguments",
                    request.name
                ),
                None,
            )
        })
}
