//! Every string and code of rmcp's that this crate matches or writes, in
//! one place: the tests pin each to what rmcp answers, so an rmcp upgrade
//! that changes one fails here first.

use rmcp::ErrorData;
use rmcp::model::ErrorCode;

/// What rmcp writes before serde's reason when arguments do not deserialize.
pub(crate) const ARGUMENT_ERROR_PREFIX: &str = "failed to deserialize parameters:";

/// rmcp's message for a tool its router lacks or has disabled.
pub(crate) const TOOL_NOT_FOUND: &str = "tool not found";

/// How rmcp's message starts when an `Extension` extractor finds nothing.
pub(crate) const MISSING_EXTENSION: &str = "missing extension ";

/// rmcp's error for a call of a tool the router does not have.
pub(crate) fn tool_not_found() -> ErrorData {
    ErrorData::invalid_params(TOOL_NOT_FOUND, None)
}

/// rmcp's error for arguments that do not deserialize, before its router
/// turns it into an `isError` result.
pub(crate) fn is_argument_error(error: &ErrorData) -> bool {
    error.code == ErrorCode::INVALID_PARAMS && error.message.starts_with(ARGUMENT_ERROR_PREFIX)
}

/// serde's reason in rmcp's message for arguments that do not
/// deserialize (the error's, or the text of the `isError` result its
/// router makes of it).
pub(crate) fn argument_reason(message: &str) -> Option<&str> {
    message.strip_prefix(ARGUMENT_ERROR_PREFIX).map(str::trim)
}

/// `text` without a leading [`ARGUMENT_ERROR_PREFIX`], in any case, colon
/// or not.
pub(crate) fn without_argument_prefix(text: &str) -> &str {
    let prefix = ARGUMENT_ERROR_PREFIX.trim_end_matches(':');
    match text.get(..prefix.len()) {
        Some(head) if head.eq_ignore_ascii_case(prefix) => {
            let rest = &text[prefix.len()..];
            rest.strip_prefix(':').unwrap_or(rest)
        }
        _ => text,
    }
}

/// rmcp's JSON-RPC errors that stay JSON-RPC errors: an unknown tool and a
/// missing client capability.
pub(crate) fn passes_through(error: &ErrorData) -> bool {
    error.code == ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
        || (error.code == ErrorCode::INVALID_PARAMS && error.message == TOOL_NOT_FOUND)
}

/// rmcp's error for an `Extension` the server did not install: the
/// server's to fix, whatever its code says.
pub(crate) fn is_missing_extension(error: &ErrorData) -> bool {
    error.message.starts_with(MISSING_EXTENSION)
}

#[cfg(test)]
mod tests {
    use rmcp::handler::server::common::Extension;
    use rmcp::handler::server::wrapper::Parameters;
    use rmcp::model::CallToolRequestParams;
    use rmcp::{ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};

    use super::*;

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[schemars(crate = "rmcp::schemars")]
    struct Count {
        n: u32,
    }

    #[derive(Clone)]
    struct NotInstalled;

    /// rmcp alone: what it answers, with none of this crate in the way.
    struct Plain;

    #[tool_router]
    impl Plain {
        #[tool(description = "Count.")]
        fn count(&self, Parameters(count): Parameters<Count>) -> String {
            count.n.to_string()
        }

        #[tool(description = "Use what the server did not install.")]
        fn needs(&self, Extension(_): Extension<NotInstalled>) -> String {
            String::new()
        }
    }

    #[tool_handler]
    impl ServerHandler for Plain {}

    #[tokio::test]
    async fn each_string_is_what_rmcp_answers() {
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        let server = Plain;
        tokio::spawn(async move {
            if let Ok(running) = server.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let client = ().serve(client_io).await.expect("the client connects");
        let call = |name: &'static str, arguments: serde_json::Value| {
            let mut request = CallToolRequestParams::new(name);
            if let serde_json::Value::Object(arguments) = arguments {
                request = request.with_arguments(arguments);
            }
            client.call_tool(request)
        };

        let unknown = call("nowhere", serde_json::json!({})).await;
        let Err(rmcp::ServiceError::McpError(unknown)) = unknown else {
            panic!("an unknown tool is a JSON-RPC error: {unknown:?}");
        };
        assert!(passes_through(&unknown), "{unknown:?}");
        assert_eq!(unknown, tool_not_found());

        let refused = call("count", serde_json::json!({ "n": "ten" }))
            .await
            .expect("arguments serde refuses are a result");
        assert_eq!(refused.is_error, Some(true));
        let [text] = refused.content.as_slice() else {
            panic!("one text block: {refused:?}");
        };
        let text = &text.as_text().expect("text").text;
        let reason = argument_reason(text).expect("rmcp's prefix");
        assert!(reason.starts_with("invalid type"), "{reason}");

        let missing = call("needs", serde_json::json!({})).await;
        let Err(rmcp::ServiceError::McpError(missing)) = missing else {
            panic!("a missing extension is a JSON-RPC error: {missing:?}");
        };
        assert!(is_missing_extension(&missing), "{missing:?}");
        assert_eq!(missing.code, ErrorCode::INVALID_PARAMS);
    }

    #[test]
    fn the_prefix_is_taken_off_in_any_case() {
        let text = "Failed to deserialize parameters: missing field `path`";
        assert_eq!(without_argument_prefix(text), " missing field `path`");
        assert_eq!(without_argument_prefix("no prefix"), "no prefix");
        // A prefix cut inside a character is no prefix.
        assert_eq!(without_argument_prefix("é"), "é");
    }
}
