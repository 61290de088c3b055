//! The request log for `tools/call`, and rmcp's handlers for everything
//! else the suite asks for.

use super::*;

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
