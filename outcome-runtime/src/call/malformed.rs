//! A `tools/call` that rmcp could not read as one, answered and logged as
//! every call is.

use std::time::Instant;

use rmcp::model::ErrorCode;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use tracing::Level;

use crate::base::bounds::Bounded;
use crate::base::outcome::Outcome;
use crate::logs::records;
use crate::logs::request_log::{self, Line};
use crate::logs::telemetry::Telemetry;

/// The answer to a `tools/call` whose params rmcp could not read (no
/// `name`, a non-string `name`, non-object `arguments`, no params): JSON-RPC
/// invalid params (-32602) saying what they must be, logged as one
/// `tool_call_failed` at INFO, outcome `invalid`. `None` for other requests.
///
/// rmcp hands such a request to `ServerHandler::on_custom_request`, whose
/// default answers "method not found" and logs nothing.
/// [`tool_handler`](macro@crate::tool_handler) writes one that calls this;
/// an impl with its own calls it first:
///
/// ```
/// use outcome_runtime::handler::malformed_call;
/// use rmcp::model::{CustomRequest, CustomResult, ErrorCode};
/// use rmcp::service::RequestContext;
/// use rmcp::{ErrorData, RoleServer};
///
/// async fn on_custom_request(
///     request: CustomRequest,
///     context: RequestContext<RoleServer>,
/// ) -> Result<CustomResult, ErrorData> {
///     if let Some(error) = malformed_call(&request, &context) {
///         return Err(error);
///     }
///     // The server's own methods here.
///     Err(ErrorData::new(ErrorCode::METHOD_NOT_FOUND, request.method, None))
/// }
/// ```
pub fn malformed_call(
    request: &rmcp::model::CustomRequest,
    context: &RequestContext<RoleServer>,
) -> Option<ErrorData> {
    if request.method != "tools/call" {
        return None;
    }
    let started = Instant::now();
    let params = request.params.as_ref();
    let name = params
        .and_then(|params| params.get("name"))
        .and_then(serde_json::Value::as_str);
    let tool = name.unwrap_or_default();
    let logged = Bounded::new(tool);
    let (telemetry, _ids) = Telemetry::call(tool, &logged, false, context);
    let _inside = telemetry.enter();
    // A JSON-RPC error, which the client may hand to the model: in the
    // words of a tool call, not of the protocol's methods.
    let message = match (params, name) {
        (Some(serde_json::Value::Object(_)), Some(name)) => format!(
            "The arguments of a call of {} must be an object that maps each argument's name \
             to its value. Call the tool again with its arguments as such an object.",
            crate::base::message::quote(name)
        ),
        (Some(serde_json::Value::Object(_)), None) => "A tool call must name its tool, as a \
             string, in name. Call the tool again with name set to its name as the tool list \
             gives it."
            .to_owned(),
        _ => "A tool call must carry an object with name, the tool's name, and arguments, an \
              object of its arguments. Call the tool again with both."
            .to_owned(),
    };
    let line = Line::Failed {
        level: Level::INFO,
        outcome: Outcome::Invalid,
        error_type: None,
        error_code: Some(ErrorCode::INVALID_PARAMS.0),
    };
    request_log::write(&telemetry, &logged, line, records::duration_ms(started));
    Some(ErrorData::invalid_params(message, None))
}

/// The `on_custom_request` that `#[tool_handler]` writes: [`malformed_call`],
/// else rmcp's default.
#[doc(hidden)]
pub fn custom_request(
    request: rmcp::model::CustomRequest,
    context: RequestContext<RoleServer>,
) -> std::future::Ready<Result<rmcp::model::CustomResult, ErrorData>> {
    let error = malformed_call(&request, &context)
        .unwrap_or_else(|| ErrorData::new(ErrorCode::METHOD_NOT_FOUND, request.method, None));
    std::future::ready(Err(error))
}
