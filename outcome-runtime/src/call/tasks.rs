//! Tool calls run as tasks (rmcp's tasks extension, `TaskManager`): the
//! same boundary, outcome and log lines as an inline call.

use std::borrow::Borrow;

use rmcp::ErrorData;
use rmcp::RoleServer;
use rmcp::handler::server::tool::ToolRouter;
use rmcp::model::{CallToolRequestParams, CallToolResponse, Task};
use rmcp::service::{MaybeSend, RequestContext};
use rmcp::task_manager::{TaskExit, TaskManager, TaskOptions};

use crate::call::request;

/// Runs a `tools/call` as a task of `manager`, for a client that asked for
/// one: answer the call with `CreateTaskResult::new(task)`.
///
/// The call runs as [`call_tool`](crate::handler::call_tool) runs it inline:
/// the same boundary, log lines and `isError` result. A JSON-RPC error (an
/// unknown tool, a missing client capability) fails the task;
/// `tasks/cancel` drops the body and logs `tool_call_cancelled`. The task
/// outlives the request, so it owns the server and the router (a clone, a
/// `&'static` or an `Arc`).
///
/// ```
/// use outcome_runtime::{ToolError, handler::spawn_tool_task, tool, tool_router};
/// use rmcp::handler::server::router::tool::ToolRouter;
/// use rmcp::model::{
///     CallToolRequestParams, CallToolResponse, CreateTaskResult, ServerCapabilities,
///     ServerConfig,
/// };
/// use rmcp::service::RequestContext;
/// use rmcp::task_manager::{TaskManager, TaskOptions};
/// use rmcp::{ErrorData, RoleServer, ServerHandler};
///
/// #[derive(Clone)]
/// struct Server {
///     tools: ToolRouter<Server>,
///     tasks: TaskManager,
/// }
///
/// #[tool_router]
/// impl Server {
///     /// Count every note.
///     #[tool]
///     async fn count(&self) -> Result<String, ToolError> {
///         Ok("2".to_owned())
///     }
/// }
///
/// impl ServerHandler for Server {
///     async fn call_tool(
///         &self,
///         request: CallToolRequestParams,
///         context: RequestContext<RoleServer>,
///     ) -> Result<CallToolResponse, ErrorData> {
///         if context.client_capabilities().is_some_and(|c| c.supports_tasks()) {
///             let (server, tools) = (self.clone(), self.tools.clone());
///             let task = spawn_tool_task(
///                 &self.tasks, TaskOptions::new(), server, tools, request, context,
///             );
///             return Ok(CreateTaskResult::new(task).into());
///         }
///         outcome_runtime::handler::call_tool(self, &self.tools, request, context).await
///     }
///
///     // `get_task`, `update_task` and `cancel_task` hand on to `self.tasks`.
///
///     fn get_info(&self) -> ServerConfig {
///         ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_tasks().build())
///     }
/// }
/// ```
pub fn spawn_tool_task<S, R>(
    manager: &TaskManager,
    options: TaskOptions,
    service: S,
    router: R,
    request: CallToolRequestParams,
    context: RequestContext<RoleServer>,
) -> Task
where
    S: MaybeSend + 'static,
    R: Borrow<ToolRouter<S>> + Send + 'static,
{
    manager.spawn(options, move |task| {
        Box::pin(async move {
            let router = router.borrow();
            let ended =
                request::call_until(&service, router, request, context, task.cancelled()).await;
            match ended {
                Some(Ok(CallToolResponse::Complete(result))) => Ok(result),
                Some(Ok(_)) => Err(TaskExit::Error(ErrorData::internal_error(
                    "a tool run as a task answered with another task or an input request",
                    None,
                ))),
                Some(Err(error)) => Err(TaskExit::Error(error)),
                None => Err(TaskExit::Cancelled),
            }
        })
    })
}
