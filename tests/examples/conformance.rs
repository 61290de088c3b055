//! The conformance server: everything the server scenarios of the official
//! MCP conformance suite (`@modelcontextprotocol/conformance`) ask for,
//! served over rmcp's streamable HTTP transport.
//!
//! Every tool is a `#[tool]` of this crate, so each call runs inside the
//! boundary and gets its request log line; prompts, resources, completion
//! and logging are rmcp's own `ServerHandler` methods.
//!
//! ```text
//! cargo run -p outcome-tests --example conformance -- --port 3001
//! npx @modelcontextprotocol/conformance@0.1.16 server --url http://127.0.0.1:3001/mcp --suite all
//! ```
//!
//! It listens on `http://127.0.0.1:<port>/mcp` until it gets Ctrl-C or
//! SIGTERM (`--port 0` picks a free port, and the first log line names
//! it), and logs to stderr: this crate's request log and everything else
//! at INFO and above, rmcp's own lines from WARN.

// The suite exercises features that later protocol revisions deprecate:
// logging, sampling and `resources/subscribe`.
#![allow(deprecated)]

use std::collections::hash_map::RandomState;
use std::collections::{BTreeMap, BTreeSet};
use std::error::Error;
use std::hash::{BuildHasher, Hasher};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use outcome_runtime::{ToolError, quote, tool, tool_handler, tool_router};
use rmcp::handler::server::tool::{InputResponses, RequestState};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResponse, CallToolResult, ClientCapabilities, CompleteRequestParams, CompleteResult,
    CompletionInfo, ContentBlock, CreateMessageRequest, CreateMessageRequestParams, ElicitRequest,
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema,
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, Implementation, InputRequest,
    InputRequests, InputRequiredResult, JsonObject, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListRootsRequest, LoggingLevel, LoggingMessageNotificationParam,
    PaginatedRequestParams, ProgressNotificationParam, Prompt, PromptArgument, PromptMessage,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    Reference, RequestMetaObject, RequestStateCodec, Resource, ResourceContents, ResourceTemplate,
    Role, SamplingMessage, ServerCapabilities, ServerInfo, SetLevelRequestParams,
    SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext, SubscriptionSink};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler, ServiceError, schemars};
use serde::Deserialize;
use serde_json::{Value, json};
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// A 2x2 teal PNG, base64.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAD0lEQVR42mNgaGgAIQgFABoOBAFCl+Z5AAAAAElFTkSuQmCC";

/// Two milliseconds of silence: 8 kHz, mono, 8-bit PCM WAV, base64.
const WAV: &str =
    "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YRAAAACAgICAgICAgICAgICAgICA";

/// The resource template the suite reads through.
const TEMPLATE: &str = "test://template/{id}/data";

/// The pause between the notifications a tool sends during a call, so that
/// a client sees them arrive one by one.
const PAUSE: Duration = Duration::from_millis(50);

/// What all sessions share: the open `subscriptions/listen` streams and the
/// key that seals `requestState`.
struct Shared {
    /// The open listen streams, by a number of this server's.
    listeners: Mutex<BTreeMap<u64, SubscriptionSink>>,
    /// The number the last listen stream got.
    last_listener: AtomicU64,
    /// Seals the `requestState` of multi-round calls, and opens only what
    /// it sealed.
    codec: RequestStateCodec,
}

/// A list whose change the listen streams hear about.
#[derive(Clone, Copy)]
enum List {
    Tools,
    Prompts,
}

impl Shared {
    /// No listen streams yet, and a fresh sealing key.
    fn new() -> Self {
        Self {
            listeners: Mutex::new(BTreeMap::new()),
            last_listener: AtomicU64::new(0),
            codec: RequestStateCodec::new(process_key()),
        }
    }

    /// Tells every listen stream that asked for it that `list` changed;
    /// returns how many were told.
    async fn changed(&self, list: List) -> usize {
        let listeners: Vec<SubscriptionSink> = lock(&self.listeners).values().cloned().collect();
        let mut told = 0;
        for listener in listeners {
            // A stream that did not ask for this list, or that just
            // closed, refuses it; that is no failure of the caller's.
            let sent = match list {
                List::Tools => listener.notify_tool_list_changed().await,
                List::Prompts => listener.notify_prompt_list_changed().await,
            };
            told += usize::from(sent.is_ok());
        }
        told
    }
}

/// A 32-byte key drawn at start-up from the standard library's randomly
/// seeded hasher: sealed states only have to open in this process.
fn process_key() -> Vec<u8> {
    let random = RandomState::new();
    (0..4u64)
        .flat_map(|round| {
            let mut hasher = random.build_hasher();
            hasher.write_u64(round);
            hasher.finish().to_le_bytes()
        })
        .collect()
}

/// Locks `mutex`, whether or not a holder panicked: every value behind one
/// here is valid at every point.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The state of one session: the service factory makes one per client
/// session (per request, for clients of the stateless 2026-07-28
/// protocol).
struct Conformance {
    shared: Arc<Shared>,
    /// The lowest level of log notification the client asked for with
    /// `logging/setLevel`; every level until it asks.
    log_level: Mutex<Option<LoggingLevel>>,
    /// The resource URIs the client subscribed to.
    subscriptions: Mutex<BTreeSet<String>>,
}

impl Conformance {
    /// A new session: no log level asked for, no subscriptions.
    fn new(shared: Arc<Shared>) -> Self {
        Self {
            shared,
            log_level: Mutex::new(None),
            subscriptions: Mutex::new(BTreeSet::new()),
        }
    }

    /// Sends `message` to the client as a log notification at `level`, if
    /// the client asked for it: at 2026-07-28 and later through the
    /// request's `_meta` log level, before through `logging/setLevel`
    /// (every level until it was called).
    async fn log(
        &self,
        context: &RequestContext<RoleServer>,
        level: LoggingLevel,
        message: &str,
    ) -> Result<(), ServiceError> {
        let wanted = match context.meta.log_level() {
            Some(wanted) => wanted,
            None if !legacy(context) => return Ok(()),
            None => match *lock(&self.log_level) {
                Some(wanted) => wanted,
                None => LoggingLevel::Debug,
            },
        };
        if severity(level) < severity(wanted) {
            return Ok(());
        }
        let notification = LoggingMessageNotificationParam::new(level, json!(message))
            .with_logger("outcome-conformance");
        context.peer.notify_logging_message(notification).await
    }
}

/// Whether the request uses a protocol before 2026-07-28, with sessions,
/// server-to-client requests and `logging/setLevel`.
fn legacy(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_none_or(|version| version.as_str() < ProtocolVersion::V_2026_07_28.as_str())
}

/// A log level's rank: higher is more severe.
fn severity(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// The arguments of `test_sampling`.
#[derive(Deserialize, schemars::JsonSchema)]
struct SamplingArgs {
    /// The prompt to send to the client's model.
    prompt: String,
}

/// The arguments of `test_elicitation`.
#[derive(Deserialize, schemars::JsonSchema)]
struct ElicitationArgs {
    /// The message the client shows its user.
    message: String,
}

/// The arguments of `json_schema_2020_12_tool`, as its hand-written schema
/// describes them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Contact {
    name: Option<String>,
    address: Option<Address>,
    contact_method: Option<String>,
    phone: Option<String>,
    email: Option<String>,
}

/// The arguments of `test_custom_header`.
#[derive(Deserialize)]
struct RegionArgs {
    region: String,
}

/// A contact's address.
#[derive(Deserialize)]
struct Address {
    city: Option<String>,
}

/// The tools the suite calls, by the names it calls them.
#[tool_router]
impl Conformance {
    /// Return one line of plain text.
    #[tool(annotations(read_only_hint = true))]
    fn test_simple_text(&self) -> Result<String, ToolError> {
        Ok("This is a simple text response for testing.".to_owned())
    }

    /// Return a small PNG image.
    #[tool(annotations(read_only_hint = true))]
    fn test_image_content(&self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::success(vec![ContentBlock::image(
            PNG,
            "image/png",
        )]))
    }

    /// Return a short WAV recording of silence.
    #[tool(annotations(read_only_hint = true))]
    fn test_audio_content(&self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::success(vec![ContentBlock::audio(
            WAV,
            "audio/wav",
        )]))
    }

    /// Return a text resource embedded in the result.
    #[tool(annotations(read_only_hint = true))]
    fn test_embedded_resource(&self) -> Result<CallToolResult, ToolError> {
        let resource = ResourceContents::text(
            "This is an embedded resource content.",
            "test://embedded-resource",
        )
        .with_mime_type("text/plain");
        Ok(CallToolResult::success(vec![ContentBlock::resource(
            resource,
        )]))
    }

    /// Return text, an image and an embedded JSON resource in one result.
    #[tool(annotations(read_only_hint = true))]
    fn test_multiple_content_types(&self) -> Result<CallToolResult, ToolError> {
        let data = json!({ "test": "data", "value": 123 }).to_string();
        let resource = ResourceContents::text(data, "test://mixed-content-resource")
            .with_mime_type("application/json");
        Ok(CallToolResult::success(vec![
            ContentBlock::text("Multiple content types test:"),
            ContentBlock::image(PNG, "image/png"),
            ContentBlock::resource(resource),
        ]))
    }

    /// Send three log notifications at level info, 50 ms apart, then return.
    #[tool(annotations(read_only_hint = true))]
    async fn test_tool_with_logging(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ToolError> {
        self.log(&context, LoggingLevel::Info, "Tool execution started")
            .await?;
        tokio::time::sleep(PAUSE).await;
        self.log(&context, LoggingLevel::Info, "Tool processing data")
            .await?;
        tokio::time::sleep(PAUSE).await;
        self.log(&context, LoggingLevel::Info, "Tool execution completed")
            .await?;
        Ok("Logged three steps, at the level the client asked for.".to_owned())
    }

    /// Answer every call with a tool error, so that a client can check how
    /// one reaches it.
    #[tool(annotations(read_only_hint = true))]
    fn test_error_handling(&self) -> Result<String, ToolError> {
        Err(ToolError::invalid(
            "test_error_handling answers every call with this error, by design",
            "Call test_simple_text instead for a call that succeeds",
        ))
    }

    /// Report progress 0, 50 and 100 of 100, 50 ms apart, to a caller that
    /// passed a progress token, then return.
    #[tool(annotations(read_only_hint = true))]
    async fn test_tool_with_progress(
        &self,
        peer: Peer<RoleServer>,
        meta: RequestMetaObject,
    ) -> Result<String, ToolError> {
        let token = meta.get_progress_token();
        for (step, progress) in [0.0, 50.0, 100.0].into_iter().enumerate() {
            if step > 0 {
                tokio::time::sleep(PAUSE).await;
            }
            if let Some(token) = &token {
                let notification =
                    ProgressNotificationParam::new(token.clone(), progress).with_total(100.0);
                peer.notify_progress(notification).await?;
            }
        }
        Ok(match token {
            Some(_) => "Reported progress 0, 50 and 100 of 100.".to_owned(),
            None => "Done; pass a progress token in _meta to receive progress.".to_owned(),
        })
    }

    /// Ask the client's model to answer a prompt, and return its answer.
    #[tool]
    async fn test_sampling(
        &self,
        Parameters(SamplingArgs { prompt }): Parameters<SamplingArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ToolError> {
        direct_requests(
            &context,
            "test_sampling",
            "test_input_required_result_sampling",
        )?;
        require_sampling(&context)?;
        let request =
            CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], 100);
        let reply = match context.peer.create_message(request).await {
            Ok(reply) => reply,
            // The client answered, and said no: its user or its model
            // declined.
            Err(ServiceError::McpError(_)) => {
                return Err(ToolError::invalid(
                    "The client declined to have its model answer the prompt",
                    "Answer the prompt yourself, or ask the user to allow sampling and call \
                     test_sampling again",
                ));
            }
            // The connection failed or timed out: a fault, logged by `?`.
            Err(other) => return Err(other.into()),
        };
        let text = reply
            .message
            .content
            .first()
            .and_then(|content| content.as_text());
        match text {
            Some(text) => Ok(format!("LLM response: {}", text.text)),
            None => Ok("LLM response: (no text)".to_owned()),
        }
    }

    /// Ask the client's user for a username and an email address, and
    /// return what they answered.
    #[tool]
    async fn test_elicitation(
        &self,
        Parameters(ElicitationArgs { message }): Parameters<ElicitationArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ToolError> {
        let schema = json!({
            "type": "object",
            "properties": {
                "username": { "type": "string", "description": "The user's name" },
                "email": { "type": "string", "description": "The user's email address" }
            },
            "required": ["username", "email"]
        });
        let answer = elicit(&context, "test_elicitation", message, schema).await?;
        Ok(format!("User response: {}", describe(&answer)))
    }

    /// Ask the client's user for five values that all have defaults: a
    /// string, an integer, a number, an enum and a boolean.
    #[tool]
    async fn test_elicitation_sep1034_defaults(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ToolError> {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": { "type": "string", "description": "Your name", "default": "John Doe" },
                "age": { "type": "integer", "description": "Your age", "default": 30 },
                "score": { "type": "number", "description": "Your score", "default": 95.5 },
                "status": {
                    "type": "string",
                    "description": "Your status",
                    "enum": ["active", "inactive", "pending"],
                    "default": "active"
                },
                "verified": {
                    "type": "boolean",
                    "description": "Whether you are verified",
                    "default": true
                }
            }
        });
        let message = "Check these values; each has a default.";
        let answer = elicit(
            &context,
            "test_elicitation_sep1034_defaults",
            message.to_owned(),
            schema,
        )
        .await?;
        Ok(format!("Elicitation completed: {}", describe(&answer)))
    }

    /// Ask the client's user to pick from five kinds of enum: untitled and
    /// titled single-select, the legacy titled form, untitled and titled
    /// multi-select.
    #[tool]
    async fn test_elicitation_sep1330_enums(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ToolError> {
        let titled = |entries: [(&str, &str); 3]| {
            entries
                .iter()
                .map(|(value, title)| json!({ "const": value, "title": title }))
                .collect::<Vec<_>>()
        };
        let schema = json!({
            "type": "object",
            "properties": {
                "untitledSingle": {
                    "type": "string",
                    "enum": ["option1", "option2", "option3"]
                },
                "titledSingle": {
                    "type": "string",
                    "oneOf": titled([
                        ("value1", "First Option"),
                        ("value2", "Second Option"),
                        ("value3", "Third Option"),
                    ])
                },
                "legacyEnum": {
                    "type": "string",
                    "enum": ["opt1", "opt2", "opt3"],
                    "enumNames": ["Option One", "Option Two", "Option Three"]
                },
                "untitledMulti": {
                    "type": "array",
                    "items": { "type": "string", "enum": ["option1", "option2", "option3"] }
                },
                "titledMulti": {
                    "type": "array",
                    "items": {
                        "anyOf": titled([
                            ("value1", "First Choice"),
                            ("value2", "Second Choice"),
                            ("value3", "Third Choice"),
                        ])
                    }
                }
            }
        });
        let message = "Pick one or more options in each list.";
        let answer = elicit(
            &context,
            "test_elicitation_sep1330_enums",
            message.to_owned(),
            schema,
        )
        .await?;
        Ok(format!("Elicitation completed: {}", describe(&answer)))
    }

    /// Greet a contact, reached by phone or email; the input schema uses
    /// JSON Schema 2020-12 keywords.
    #[tool(
        annotations(read_only_hint = true),
        input_schema = contact_schema()
    )]
    fn json_schema_2020_12_tool(
        &self,
        Parameters(contact): Parameters<Contact>,
    ) -> Result<String, ToolError> {
        let (reach, field) = match contact.contact_method.as_deref() {
            Some("phone") => (contact.phone, "phone"),
            Some("email") => (contact.email, "email"),
            None => (contact.phone.or(contact.email), "phone or email"),
            Some(other) => {
                return Err(ToolError::invalid(
                    format_args!("contactMethod {} is neither phone nor email", quote(other)),
                    "Call json_schema_2020_12_tool again with contactMethod set to phone or \
                     email",
                ));
            }
        };
        let Some(reach) = reach else {
            return Err(ToolError::invalid(
                format_args!("The contact has no {field} to reach it by"),
                format_args!("Call json_schema_2020_12_tool again with {field} set"),
            ));
        };
        let name = contact.name.as_deref().unwrap_or("friend");
        let city = contact.address.and_then(|address| address.city);
        Ok(match city {
            Some(city) => format!("Hello, {name} of {city}; reaching you at {reach}."),
            None => format!("Hello, {name}; reaching you at {reach}."),
        })
    }

    /// Wait a moment, then return: the call the suite uses to watch a
    /// request's SSE stream.
    #[tool(annotations(read_only_hint = true))]
    async fn test_reconnection(&self) -> Result<String, ToolError> {
        tokio::time::sleep(Duration::from_millis(100)).await;
        Ok("Reconnection test completed.".to_owned())
    }

    /// Return a confirmation, for a client that declared the sampling
    /// capability.
    #[tool(annotations(read_only_hint = true))]
    fn test_missing_capability(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ToolError> {
        require_sampling(&context)?;
        Ok("The client declared sampling.".to_owned())
    }

    /// Send one log notification, at the level the request's _meta asks
    /// for, and none when it asks for none.
    #[tool(annotations(read_only_hint = true))]
    async fn test_logging_tool(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ToolError> {
        self.log(&context, LoggingLevel::Info, "test_logging_tool ran")
            .await?;
        Ok("Logged one line, if the request asked for a level.".to_owned())
    }

    /// Ask the client for a value through an input request in the result,
    /// then return the value it sent back.
    #[tool(annotations(read_only_hint = true))]
    fn test_streaming_elicitation(
        &self,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ToolError> {
        input_rounds(
            &context,
            "test_streaming_elicitation",
            Some("test_elicitation"),
        )?;
        if let Some(value) = accepted(responses.as_ref(), "streaming_elicitation", "value") {
            return Ok(done(format!("Received {}.", quote(value))));
        }
        let requests = InputRequests::from([(
            "streaming_elicitation".to_owned(),
            ask_user("Provide a value", "value", "string")?,
        )]);
        Ok(InputRequiredResult::from_input_requests(requests).into())
    }

    /// Tell the listen streams that asked for it that the tool list changed.
    #[tool]
    async fn test_trigger_tool_change(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ToolError> {
        let told = self.shared.changed(List::Tools).await;
        if legacy(&context) {
            context.peer.notify_tool_list_changed().await?;
        }
        Ok(format!(
            "Told {told} listen streams that the tool list changed."
        ))
    }

    /// Tell the listen streams that asked for it that the prompt list
    /// changed.
    #[tool]
    async fn test_trigger_prompt_change(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ToolError> {
        let told = self.shared.changed(List::Prompts).await;
        if legacy(&context) {
            context.peer.notify_prompt_list_changed().await?;
        }
        Ok(format!(
            "Told {told} listen streams that the prompt list changed."
        ))
    }

    /// Echo a region that also travels as the Mcp-Param-Region header.
    #[tool(annotations(read_only_hint = true), input_schema = region_schema())]
    fn test_custom_header(
        &self,
        Parameters(RegionArgs { region }): Parameters<RegionArgs>,
    ) -> Result<String, ToolError> {
        Ok(format!("Region {}.", quote(&region)))
    }

    /// Greet the user by the name they give in an elicitation round.
    #[tool(annotations(read_only_hint = true))]
    fn test_input_required_result_elicitation(
        &self,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ToolError> {
        input_rounds(
            &context,
            "test_input_required_result_elicitation",
            Some("test_elicitation"),
        )?;
        if let Some(name) = accepted(responses.as_ref(), "user_name", "name") {
            return Ok(done(format!("Hello, {name}!")));
        }
        let requests = InputRequests::from([(
            "user_name".to_owned(),
            ask_user("What is your name?", "name", "string")?,
        )]);
        Ok(InputRequiredResult::from_input_requests(requests).into())
    }

    /// Return what the client's model answers in a sampling round.
    #[tool(annotations(read_only_hint = true))]
    fn test_input_required_result_sampling(
        &self,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ToolError> {
        input_rounds(
            &context,
            "test_input_required_result_sampling",
            Some("test_sampling"),
        )?;
        if let Some(text) = sampled(responses.as_ref(), "capital_question") {
            return Ok(done(format!("Sampling response: {text}")));
        }
        let requests = InputRequests::from([(
            "capital_question".to_owned(),
            ask_model("What is the capital of France?", 100),
        )]);
        Ok(InputRequiredResult::from_input_requests(requests).into())
    }

    /// List the roots the client gives in a roots round.
    #[tool(annotations(read_only_hint = true))]
    fn test_input_required_result_list_roots(
        &self,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ToolError> {
        input_rounds(&context, "test_input_required_result_list_roots", None)?;
        if let Some(roots) = roots(responses.as_ref(), "client_roots") {
            return Ok(done(format!("Client roots: [{}]", roots.join(", "))));
        }
        let requests = InputRequests::from([("client_roots".to_owned(), ask_roots())]);
        Ok(InputRequiredResult::from_input_requests(requests).into())
    }

    /// Ask for a confirmation, keeping the call's progress in a sealed
    /// requestState.
    #[tool(annotations(read_only_hint = true))]
    fn test_input_required_result_request_state(
        &self,
        InputResponses(responses): InputResponses,
        RequestState(state): RequestState,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ToolError> {
        input_rounds(&context, "test_input_required_result_request_state", None)?;
        self.confirm(responses.as_ref(), state)
    }

    /// Ask for a confirmation as test_input_required_result_request_state
    /// does; a requestState this server did not seal is refused.
    #[tool(annotations(read_only_hint = true))]
    fn test_input_required_result_tampered_state(
        &self,
        InputResponses(responses): InputResponses,
        RequestState(state): RequestState,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ToolError> {
        input_rounds(&context, "test_input_required_result_tampered_state", None)?;
        self.confirm(responses.as_ref(), state)
    }

    /// Ask for a name, a sampled greeting and the client's roots in one
    /// round.
    #[tool(annotations(read_only_hint = true))]
    fn test_input_required_result_multiple_inputs(
        &self,
        InputResponses(responses): InputResponses,
        RequestState(state): RequestState,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ToolError> {
        const TOOL: &str = "test_input_required_result_multiple_inputs";
        input_rounds(&context, TOOL, None)?;
        let state = self.open(state)?;
        let name = accepted(responses.as_ref(), "user_name", "name");
        let greeting = sampled(responses.as_ref(), "greeting");
        let roots = roots(responses.as_ref(), "client_roots");
        if let (Some(_), Some(name), Some(greeting), Some(roots)) = (state, name, greeting, roots) {
            return Ok(done(format!(
                "All inputs received: {name}, {greeting}, {} roots.",
                roots.len()
            )));
        }
        let requests = InputRequests::from([
            (
                "user_name".to_owned(),
                ask_user("What is your name?", "name", "string")?,
            ),
            ("greeting".to_owned(), ask_model("Generate a greeting", 50)),
            ("client_roots".to_owned(), ask_roots()),
        ]);
        let state = self.seal(&json!({ "stage": "gather" }))?;
        Ok(InputRequiredResult::new(Some(requests), Some(state)).into())
    }

    /// Ask for a name, then a favourite colour, in two rounds.
    #[tool(annotations(read_only_hint = true))]
    fn test_input_required_result_multi_round(
        &self,
        InputResponses(responses): InputResponses,
        RequestState(state): RequestState,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ToolError> {
        const TOOL: &str = "test_input_required_result_multi_round";
        input_rounds(&context, TOOL, Some("test_elicitation"))?;
        let round = self
            .open(state)?
            .and_then(|state| state.get("round").and_then(Value::as_u64))
            .unwrap_or(0);
        // Round 0 asks for step 1; round 1 for step 2 once step 1 is
        // answered; round 2 completes once step 2 is.
        let step1 =
            round == 0 || (round == 1 && accepted(responses.as_ref(), "step1", "name").is_none());
        if round >= 2 && accepted(responses.as_ref(), "step2", "color").is_some() {
            return Ok(done("Multi-round flow complete.".to_owned()));
        }
        let (key, question, field, next) = if step1 {
            ("step1", "Step 1: What is your name?", "name", 1)
        } else {
            ("step2", "Step 2: What is your favorite color?", "color", 2)
        };
        let requests =
            InputRequests::from([(key.to_owned(), ask_user(question, field, "string")?)]);
        let state = self.seal(&json!({ "round": next }))?;
        Ok(InputRequiredResult::new(Some(requests), Some(state)).into())
    }

    /// Ask only for the inputs the client declared it can give: a name, a
    /// sampled greeting, its roots.
    #[tool(annotations(read_only_hint = true))]
    fn test_input_required_result_capabilities(
        &self,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ToolError> {
        input_rounds(&context, "test_input_required_result_capabilities", None)?;
        if responses.is_some_and(|responses| !responses.is_empty()) {
            return Ok(done(
                "Received the inputs the client could give.".to_owned(),
            ));
        }
        let capabilities = context.client_capabilities().unwrap_or_default();
        let mut requests = InputRequests::new();
        if capabilities.elicitation.is_some() {
            let request = ask_user("What is your name?", "name", "string")?;
            requests.insert("user_name".to_owned(), request);
        }
        if capabilities.sampling.is_some() {
            requests.insert("greeting".to_owned(), ask_model("Generate a greeting", 50));
        }
        if capabilities.roots.is_some() {
            requests.insert("client_roots".to_owned(), ask_roots());
        }
        if requests.is_empty() {
            return Ok(done(
                "The client declared no capability to answer input requests with.".to_owned(),
            ));
        }
        Ok(InputRequiredResult::from_input_requests(requests).into())
    }
}

impl Conformance {
    /// The confirmation round of the two requestState tools: asks with a
    /// sealed state, and completes once the state opens and the answer is
    /// there.
    fn confirm(
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
    fn seal(&self, state: &Value) -> Result<String, ToolError> {
        Ok(self.shared.codec.seal_json(state)?)
    }

    /// Opens the requestState the client sent back: `None` on a first call,
    /// and a JSON-RPC error when this server did not seal it. SEP-2322 asks
    /// for one: the state is the client's to keep intact, and no argument
    /// the model could change repairs it.
    fn open(&self, state: Option<String>) -> Result<Option<Value>, ToolError> {
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
fn direct_requests(
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
fn input_rounds(
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
fn done(text: String) -> CallToolResponse {
    CallToolResult::success(vec![ContentBlock::text(text)]).into()
}

/// An elicitation input request for one required field of JSON type
/// `kind`.
fn ask_user(message: &str, field: &str, kind: &str) -> Result<InputRequest, ToolError> {
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
fn ask_model(prompt: &str, max_tokens: u32) -> InputRequest {
    let params =
        CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], max_tokens);
    InputRequest::CreateMessage(CreateMessageRequest::new(params))
}

/// A `roots/list` input request.
fn ask_roots() -> InputRequest {
    InputRequest::ListRoots(ListRootsRequest::default())
}

/// The response under `key`, when the client sent one that is a JSON
/// object.
fn answer<'a>(
    responses: Option<&'a BTreeMap<String, Value>>,
    key: &str,
) -> Option<&'a serde_json::Map<String, Value>> {
    responses?.get(key)?.as_object()
}

/// The string `field` of an accepted elicitation under `key`.
fn accepted<'a>(
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
fn sampled<'a>(responses: Option<&'a BTreeMap<String, Value>>, key: &str) -> Option<&'a str> {
    let content = answer(responses, key)?.get("content")?;
    // One content block, or a list of them.
    let block = match content {
        Value::Array(blocks) => blocks.first()?,
        block => block,
    };
    block.get("text")?.as_str()
}

/// The root URIs of a `roots/list` response under `key`.
fn roots<'a>(responses: Option<&'a BTreeMap<String, Value>>, key: &str) -> Option<Vec<&'a str>> {
    let roots = answer(responses, key)?.get("roots")?.as_array()?;
    Some(
        roots
            .iter()
            .filter_map(|root| root.get("uri")?.as_str())
            .collect(),
    )
}

/// The client must have declared sampling.
fn require_sampling(context: &RequestContext<RoleServer>) -> Result<(), ToolError> {
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
fn region_schema() -> JsonObject {
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
fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        _ => unreachable!("called with a JSON object literal"),
    }
}

/// The input schema of `json_schema_2020_12_tool`: a 2020-12 dialect with
/// `$defs`, `$anchor`, composition and conditional keywords.
fn contact_schema() -> JsonObject {
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
async fn elicit(
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
fn describe(answer: &ElicitResult) -> String {
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
fn prompt_candidates(prompt: &str, argument: &str) -> &'static [&'static str] {
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
fn read(uri: &str) -> Option<ResourceContents> {
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
fn no_such_resource(uri: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!(
            "No resource at {}; list them with resources/list and resources/templates/list",
            quote(uri)
        ),
        Some(json!({ "uri": uri })),
    )
}

/// A required prompt argument, or the error that names it.
fn prompt_argument<'a>(
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

/// The request log for `tools/call`, and rmcp's handlers for everything
/// else the suite asks for.
#[tool_handler]
impl ServerHandler for Conformance {
    fn get_info(&self) -> ServerInfo {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_prompts()
            .enable_prompts_list_changed()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_completions()
            .enable_logging()
            .build();
        ServerInfo::new(capabilities)
            .with_server_info(Implementation::new(
                "outcome-conformance",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions("The tools, prompts and resources the MCP conformance suite calls.")
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(requested.supported_by(&self.get_info().capabilities))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let number = self.shared.last_listener.fetch_add(1, Ordering::Relaxed) + 1;
        lock(&self.shared.listeners).insert(number, context.sink().clone());
        context.cancelled().await;
        lock(&self.shared.listeners).remove(&number);
        Ok(())
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        *lock(&self.log_level) = Some(request.level);
        Ok(())
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let argument = |name: &str, description: &str| {
            PromptArgument::new(name)
                .with_description(description)
                .with_required(true)
        };
        Ok(ListPromptsResult::with_all_items(vec![
            Prompt::new(
                "test_simple_prompt",
                Some("A prompt without arguments."),
                None,
            ),
            Prompt::new(
                "test_prompt_with_arguments",
                Some("A prompt that quotes its two arguments."),
                Some(vec![
                    argument("arg1", "The first value to quote."),
                    argument("arg2", "The second value to quote."),
                ]),
            ),
            Prompt::new(
                "test_prompt_with_embedded_resource",
                Some("A prompt that embeds a resource."),
                Some(vec![argument(
                    "resourceUri",
                    "The URI of the resource to embed.",
                )]),
            ),
            Prompt::new(
                "test_prompt_with_image",
                Some("A prompt that shows an image."),
                None,
            ),
            Prompt::new(
                "test_input_required_result_prompt",
                Some("A prompt built from context the user gives in an elicitation round."),
                None,
            ),
        ]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let messages = match request.name.as_str() {
            "test_simple_prompt" => vec![PromptMessage::new_text(
                Role::User,
                "This is a simple prompt for testing.",
            )],
            "test_prompt_with_arguments" => {
                let arg1 = prompt_argument(&request, "arg1")?;
                let arg2 = prompt_argument(&request, "arg2")?;
                vec![PromptMessage::new_text(
                    Role::User,
                    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"),
                )]
            }
            "test_prompt_with_embedded_resource" => {
                let uri = prompt_argument(&request, "resourceUri")?;
                let resource =
                    ResourceContents::text("Embedded resource content for testing.", uri)
                        .with_mime_type("text/plain");
                vec![
                    PromptMessage::new(Role::User, ContentBlock::resource(resource)),
                    PromptMessage::new_text(
                        Role::User,
                        "Please process the embedded resource above.",
                    ),
                ]
            }
            "test_input_required_result_prompt" if legacy(&context) => {
                return Err(ErrorData::invalid_params(
                    "The prompt test_input_required_result_prompt asks for input in its \
                     result, which needs protocol 2026-07-28 or later",
                    None,
                ));
            }
            "test_input_required_result_prompt" => {
                let responses = request.input_responses.as_ref();
                let Some(context) = accepted(responses, "user_context", "context") else {
                    let question =
                        ask_user("What context should the prompt use?", "context", "string")
                            .map_err(|_| {
                                ErrorData::internal_error("the elicitation schema is invalid", None)
                            })?;
                    let requests = InputRequests::from([("user_context".to_owned(), question)]);
                    return Ok(InputRequiredResult::from_input_requests(requests).into());
                };
                vec![PromptMessage::new_text(
                    Role::User,
                    format!("Answer with this context in mind: {context}"),
                )]
            }
            "test_prompt_with_image" => vec![
                PromptMessage::new(Role::User, ContentBlock::image(PNG, "image/png")),
                PromptMessage::new_text(Role::User, "Please analyze the image above."),
            ],
            other => {
                return Err(ErrorData::invalid_params(
                    format!(
                        "No prompt named {}; list them with prompts/list",
                        quote(other)
                    ),
                    None,
                ));
            }
        };
        Ok(GetPromptResult::new(messages).into())
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new("test://static-text", "static-text")
                .with_description("A text resource that never changes.")
                .with_mime_type("text/plain"),
            Resource::new("test://static-binary", "static-binary")
                .with_description("A PNG image that never changes.")
                .with_mime_type("image/png"),
            Resource::new("test://watched-resource", "watched-resource")
                .with_description("A text resource to subscribe to.")
                .with_mime_type("text/plain"),
        ]))
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new(TEMPLATE, "template-data")
                .with_description("JSON data for any id.")
                .with_mime_type("application/json"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let contents = read(&request.uri).ok_or_else(|| no_such_resource(&request.uri))?;
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if read(&request.uri).is_none() {
            return Err(no_such_resource(&request.uri));
        }
        let mut subscriptions = lock(&self.subscriptions);
        subscriptions.insert(request.uri);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let mut subscriptions = lock(&self.subscriptions);
        subscriptions.remove(&request.uri);
        Ok(())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let candidates: &[&str] = match &request.r#ref {
            Reference::Prompt(prompt) => prompt_candidates(&prompt.name, &request.argument.name),
            Reference::Resource(template)
                if template.uri == TEMPLATE && request.argument.name == "id" =>
            {
                &["1", "2", "3", "123"]
            }
            _ => &[],
        };
        let typed = request.argument.value.as_str();
        let values = candidates
            .iter()
            .filter(|candidate| candidate.starts_with(typed))
            .map(|candidate| (*candidate).to_owned())
            .collect();
        let completion = CompletionInfo::with_all_values(values)
            .map_err(|e| ErrorData::internal_error(e, None))?;
        Ok(CompleteResult::new(completion))
    }
}

/// The port given as `--port N`; 0 lets the system pick a free one.
fn port() -> Result<u16, String> {
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next(), args.next()) {
        (Some("--port"), Some(port), None) => port
            .parse()
            .map_err(|_| format!("--port takes a TCP port number, not {}", quote(&port))),
        _ => Err("usage: conformance --port <port>".to_owned()),
    }
}

/// Completes at Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = interrupt => {}
                    _ = terminate.recv() => {}
                }
            }
            Err(_) => drop(interrupt.await),
        }
    }
    #[cfg(not(unix))]
    drop(interrupt.await);
}

/// Serves until Ctrl-C or SIGTERM.
#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let port = match port() {
        Ok(port) => port,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    // INFO and above, but rmcp's own lines from WARN: it logs every session
    // it starts and ends at INFO.
    let filter = Targets::new()
        .with_default(LevelFilter::INFO)
        .with_target("rmcp", LevelFilter::WARN);
    let colour = std::io::stderr().is_terminal();
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(colour),
        )
        .with(filter)
        .init();

    // rmcp's defaults accept only loopback `Host` headers, which is what
    // keeps DNS rebinding out; the origins are checked too.
    let config = StreamableHttpServerConfig::default().with_allowed_origins([
        "http://localhost:*",
        "http://127.0.0.1:*",
        "http://[::1]:*",
    ]);
    let stop = config.cancellation_token.clone();
    let shared = Arc::new(Shared::new());
    let service = StreamableHttpService::new(
        move || Ok(Conformance::new(shared.clone())),
        LocalSessionManager::default().into(),
        config,
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    // With `--port 0` the system picks a free port; this line names it.
    tracing::info!("serving MCP at http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown_signal().await;
            // Ends the open SSE streams, so the server can stop.
            stop.cancel();
        })
        .await?;
    Ok(())
}
