//! A wrapped tool called as a task (rmcp's tasks extension) ends by the same
//! rules: the task carries the text the inline call would have given, the
//! log gets the same lines once, and a panic in the task's work is caught.

use std::time::Duration;

use outcome_runtime::{
    ToolError, handler::spawn_tool_task, message::FAULT_MESSAGE, tool, tool_router,
};
use outcome_tests::Session;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams, ClientCapabilities,
    ClientConfig, CreateTaskResult, GetTaskParams, GetTaskResult, Implementation,
    ServerCapabilities, ServerConfig, TaskPayload, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::task_manager::{TaskManager, TaskOptions};
use rmcp::{ErrorData, RoleServer, ServerHandler};

#[derive(Clone)]
struct Jobs {
    tools: ToolRouter<Jobs>,
    tasks: TaskManager,
}

#[tool_router]
impl Jobs {
    /// Count slowly.
    #[tool]
    async fn count(&self) -> Result<String, ToolError> {
        tokio::time::sleep(Duration::from_millis(5)).await;
        Ok("2".to_owned())
    }

    /// Refuse: the request must change.
    #[tool]
    async fn refuse(&self) -> Result<String, ToolError> {
        tokio::time::sleep(Duration::from_millis(5)).await;
        Err(ToolError::invalid(
            "No job named 'x'",
            "List the jobs with count",
        ))
    }

    /// Panic in the middle of the work.
    #[tool]
    async fn explode(&self) -> Result<String, ToolError> {
        tokio::time::sleep(Duration::from_millis(5)).await;
        panic!("the job exploded")
    }

    /// Work until cancelled.
    #[tool]
    async fn forever(&self) -> Result<String, ToolError> {
        tokio::time::sleep(Duration::from_secs(3600)).await;
        Ok("never".to_owned())
    }
}

impl ServerHandler for Jobs {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if context
            .client_capabilities()
            .is_some_and(|c| c.supports_tasks())
        {
            let options = TaskOptions::new().with_poll_interval_ms(5);
            let (server, tools) = (self.clone(), self.tools.clone());
            let task = spawn_tool_task(&self.tasks, options, server, tools, request, context);
            return Ok(CreateTaskResult::new(task).into());
        }
        outcome_runtime::handler::call_tool(self, &self.tools, request, context).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        Ok(GetTaskResult::new(self.tasks.get_task(&request.task_id)?))
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks
            .update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks.cancel_task(&request.task_id)
    }

    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tasks()
            .build();
        ServerConfig::new(capabilities)
    }
}

fn jobs() -> Jobs {
    Jobs {
        tools: Jobs::tool_router(),
        tasks: TaskManager::new(),
    }
}

fn tasks_client() -> ClientConfig {
    let capabilities = ClientCapabilities::builder().enable_tasks().build();
    ClientConfig::new(capabilities, Implementation::new("tasks-client", "1.0.0"))
}

/// Calls `tool` as a task and polls it to its end: the final payload and the
/// records of the runtime.
async fn run(tool: &'static str, cancel: bool) -> (TaskPayload, Vec<String>) {
    let session = Session::connect(jobs(), tasks_client()).await;
    let client = &session.client;
    let response = client
        .call_tool_once(CallToolRequestParams::new(tool))
        .await
        .unwrap();
    let CallToolResponse::Task(created) = response else {
        panic!("expected a task, got {response:?}");
    };
    let id = created.task.task_id.clone();
    if cancel {
        tokio::time::sleep(Duration::from_millis(20)).await;
        client
            .peer()
            .cancel_task(CancelTaskParams::new(id.clone()))
            .await
            .unwrap();
    }
    let payload = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            tokio::time::sleep(Duration::from_millis(5)).await;
            let info = client
                .peer()
                .get_task(GetTaskParams::new(id.clone()))
                .await
                .unwrap();
            if info.task.status().is_terminal() {
                break info.task.payload;
            }
        }
    })
    .await
    .expect("the task ends");
    (payload, session.events())
}

fn result_of(payload: TaskPayload) -> CallToolResult {
    let TaskPayload::Completed { result } = payload else {
        panic!("expected a completed task, got {payload:?}");
    };
    serde_json::from_value(serde_json::Value::Object(result)).unwrap()
}

fn text(result: &CallToolResult) -> &str {
    &result.content[0].as_text().unwrap().text
}

#[tokio::test]
async fn a_task_that_succeeds_carries_the_result() {
    let (payload, events) = run("count", false).await;
    let result = result_of(payload);
    assert_eq!(result.is_error, Some(false));
    assert_eq!(text(&result), "2");
    assert_eq!(events, ["INFO tool_call_completed"]);
}

#[tokio::test]
async fn a_task_whose_request_must_change_carries_the_same_text() {
    let (payload, events) = run("refuse", false).await;
    let result = result_of(payload);
    assert_eq!(result.is_error, Some(true));
    assert_eq!(text(&result), "No job named 'x'. List the jobs with count.");
    assert_eq!(events, ["INFO tool_call_failed"]);
}

#[tokio::test]
async fn a_panic_in_a_task_is_caught_and_logged_once() {
    let (payload, events) = run("explode", false).await;
    let result = result_of(payload);
    assert_eq!(result.is_error, Some(true));
    assert_eq!(text(&result), FAULT_MESSAGE);
    assert_eq!(events, ["ERROR tool_failed", "ERROR tool_call_failed"]);
}

#[tokio::test]
async fn a_cancelled_task_drops_its_work_and_logs_no_failure() {
    let (payload, events) = run("forever", true).await;
    assert!(matches!(payload, TaskPayload::Cancelled), "{payload:?}");
    assert_eq!(events, ["INFO tool_call_cancelled"]);
}
