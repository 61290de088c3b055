//! The tools the suite calls, each a `#[tool]` of this crate.

use super::*;

/// The tools the suite calls, by the names it calls them.
#[tool_router(vis = "pub(super)")]
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
