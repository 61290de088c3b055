//! The input schema a tool publishes is the contract: a call outside it is
//! outcome 2 at INFO, in the words of an argument that does not
//! deserialize, and the body never runs, for every way a tool is
//! registered. An author can turn the check off for one tool, and say why.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use std::time::Duration;

use outcome_runtime::{
    Deferred, Jobs, ToolError, handler::spawn_tool_task, handler::unchecked_input,
    handler::wrap_router, tool, tool_router,
};
use outcome_tests::Session;
use rmcp::handler::server::router::tool::{SyncTool, ToolBase, ToolRouter};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, CreateTaskResult,
    GetTaskParams, GetTaskResult, Implementation, ServerCapabilities, ServerConfig, TaskPayload,
    Tool,
};
use rmcp::service::RequestContext;
use rmcp::task_manager::{TaskManager, TaskOptions};
use rmcp::{ErrorData, RoleServer, ServerHandler, schemars};
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Clone, Default)]
struct Server {
    router: Arc<ToolRouter<Server>>,
    bodies: Arc<AtomicUsize>,
    jobs: Jobs,
    tasks: TaskManager,
}

#[derive(Deserialize, schemars::JsonSchema, Default)]
struct Forecast {
    city: String,
    /// How many days ahead.
    #[schemars(range(min = 1, max = 7))]
    days: u8,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Labels {
    #[schemars(length(min = 1, max = 3))]
    items: Vec<Item>,
    tags: BTreeSet<String>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct Item {
    #[schemars(regex(pattern = r"^[a-z]+$"))]
    name: String,
    #[schemars(email)]
    owner: String,
    #[schemars(range(min = 0.0, max = 1.0))]
    weight: f64,
}

#[tool_router(router = methods)]
impl Server {
    /// Forecast the weather in a city for a number of days.
    #[tool]
    fn forecast(&self, Parameters(forecast): Parameters<Forecast>) -> Result<String, ToolError> {
        self.bodies.fetch_add(1, Ordering::SeqCst);
        Ok(format!("{} days in {}", forecast.days, forecast.city))
    }

    /// Label some items.
    #[tool]
    async fn label(&self, Parameters(labels): Parameters<Labels>) -> Result<String, ToolError> {
        self.bodies.fetch_add(1, Ordering::SeqCst);
        tokio::task::yield_now().await;
        let named = labels.items.iter().filter(|item| !item.name.is_empty());
        let owned = named.filter(|item| item.owner.contains('@') && item.weight >= 0.0);
        Ok(format!("{} labelled", owned.count() + labels.tags.len()))
    }

    /// Archive the forecast, as a job when it takes long.
    #[tool]
    async fn archive(
        &self,
        Parameters(forecast): Parameters<Forecast>,
    ) -> Result<Deferred<String>, ToolError> {
        self.bodies.fetch_add(1, Ordering::SeqCst);
        let days = forecast.days;
        self.jobs
            .run(Duration::from_millis(50), async move {
                Ok(format!("{days} days archived"))
            })
            .await
    }

    /// Plan the days ahead, reading any number of them.
    #[tool(unchecked_input = "plan tells a day count past the week in its own words")]
    fn plan(&self, Parameters(forecast): Parameters<Forecast>) -> Result<String, ToolError> {
        self.bodies.fetch_add(1, Ordering::SeqCst);
        if forecast.days == 0 {
            return Err(ToolError::invalid(
                "A plan covers at least one day",
                "Call plan with days set to 1 or more",
            ));
        }
        Ok("planned".to_owned())
    }
}

/// A trait tool: its schema is rmcp's, from the same parameter type.
struct Outlook;

impl ToolBase for Outlook {
    type Parameter = Forecast;
    type Output = String;
    type Error = ToolError;

    fn name() -> Cow<'static, str> {
        "outlook".into()
    }

    fn description() -> Option<Cow<'static, str>> {
        Some("Give the outlook for a city.".into())
    }
}

static TRAIT_BODIES: AtomicUsize = AtomicUsize::new(0);

impl SyncTool<Server> for Outlook {
    fn invoke(_: &Server, forecast: Forecast) -> Result<String, ToolError> {
        TRAIT_BODIES.fetch_add(1, Ordering::SeqCst);
        Ok(format!("{} days", forecast.days))
    }
}

/// A route added by hand with a schema written by hand, and one with its
/// check turned off.
fn by_hand(name: &'static str) -> rmcp::handler::server::tool::ToolRoute<Server> {
    let schema = json!({
        "type": "object",
        "properties": { "code": { "type": "string", "pattern": "^[A-Z]{3}$" } },
        "required": ["code"],
        "additionalProperties": false
    });
    let tool = Tool::new(
        name,
        "Look up a currency by its code.",
        Arc::new(schema.as_object().cloned().unwrap_or_default()),
    );
    rmcp::handler::server::tool::ToolRoute::new_dyn(tool, |_| {
        Box::pin(async {
            let found = rmcp::model::ContentBlock::text("found");
            Ok(rmcp::model::CallToolResult::success(vec![found]).into())
        })
    })
}

impl ServerHandler for Server {
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
            let (server, tools) = (self.clone(), (*self.router).clone());
            let task = spawn_tool_task(&self.tasks, options, server, tools, request, context);
            return Ok(CreateTaskResult::new(task).into());
        }
        outcome_runtime::handler::call_tool(self, &self.router, request, context).await
    }

    async fn list_tools(
        &self,
        _: Option<rmcp::model::PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListToolsResult, ErrorData> {
        Ok(rmcp::model::ListToolsResult::with_all_items(
            self.router.list_all(),
        ))
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        Ok(GetTaskResult::new(self.tasks.get_task(&request.task_id)?))
    }

    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tasks()
            .build();
        ServerConfig::new(capabilities)
    }
}

fn server() -> Server {
    let others = ToolRouter::new()
        .with_sync_tool::<Outlook>()
        .with_route(by_hand("currency"))
        .with_route(unchecked_input(
            by_hand("currency_raw"),
            "the test's own route, whose body answers anything",
        ));
    let jobs = Jobs::new();
    Server {
        router: Arc::new((Server::methods() + wrap_router(others)).with_route(jobs.status_tool())),
        jobs,
        ..Server::default()
    }
}

/// Calls `tool` and gives the text, the events and how many bodies ran.
async fn call(tool: &'static str, arguments: Value) -> (String, Vec<String>, usize) {
    let server = server();
    let bodies = server.bodies.clone();
    let session = Session::connect(server, ()).await;
    let call = session.call(tool, arguments).await;
    let text = call.text().to_owned();
    assert_eq!(
        call.ok().is_error == Some(true),
        !call.events()[0].contains("completed")
    );
    (text, call.events(), bodies.load(Ordering::SeqCst))
}

#[tokio::test]
async fn a_value_past_a_declared_bound_never_reaches_the_body() {
    let (text, events, bodies) = call("forecast", json!({ "city": "Oslo", "days": 0 })).await;
    assert_eq!(
        text,
        "The argument days of forecast was '0', but it must be a whole number from 1 to 7. \
         Call forecast again with days as a whole number from 1 to 7."
    );
    assert_eq!(events, ["INFO tool_call_failed"]);
    assert_eq!(bodies, 0, "the body never runs");
    let (text, _, bodies) = call("forecast", json!({ "city": "Oslo", "days": 7 })).await;
    assert_eq!((text.as_str(), bodies), ("7 days in Oslo", 1));
}

#[tokio::test]
async fn the_words_are_those_of_an_argument_that_does_not_deserialize() {
    // 300 does not fit a u8: serde refuses it, and the explainer tells it.
    let (past_type, _, _) = call("forecast", json!({ "city": "Oslo", "days": 300 })).await;
    let (past_bound, _, _) = call("forecast", json!({ "city": "Oslo", "days": 9 })).await;
    assert_eq!(past_type.replace("'300'", "'9'"), past_bound);
}

#[tokio::test]
async fn nested_values_are_named_by_their_path() {
    let item = json!({ "name": "box", "owner": "ada@example.com", "weight": 0.5 });
    let cases = [
        (
            json!({ "items": [item, { "name": "Box", "owner": "ada@example.com", "weight": 0.5 }], "tags": [] }),
            "The argument items[1].name of label was 'Box', but it must be a string matching \
             the pattern '^[a-z]+$'. Call label again with items[1].name as a string matching \
             the pattern '^[a-z]+$'.",
        ),
        (
            json!({ "items": [{ "name": "box", "owner": "ada", "weight": 0.5 }], "tags": [] }),
            "The argument items[0].owner of label was 'ada', but it must be an email address \
             such as 'name@example.com'. Call label again with items[0].owner as an email \
             address such as 'name@example.com'.",
        ),
        (
            json!({ "items": [{ "name": "box", "owner": "a@b.c", "weight": 1.5 }], "tags": [] }),
            "The argument items[0].weight of label was '1.5', but it must be a number from 0 \
             to 1. Call label again with items[0].weight as a number from 0 to 1.",
        ),
        (
            json!({ "items": [], "tags": [] }),
            "The argument items of label was '[]', but it must be a list of 1 to 3 items, each \
             an object. Call label again with items as a list of 1 to 3 items, each an object.",
        ),
        (
            json!({ "items": [item], "tags": ["a", "a"] }),
            "The argument tags of label was '[\"a\",\"a\"]', but it must be a list, each a \
             string, with no item twice. Call label again with tags as a list, each a string, \
             with no item twice.",
        ),
        (
            json!({ "items": [{ "name": "box", "owner": "a@b.c", "weight": 0.5, "colour": "red" }], "tags": [] }),
            "label takes no argument 'items[0].colour'. Call label again with only name, \
             owner and weight in items[0].",
        ),
    ];
    for (arguments, expected) in cases {
        let (text, events, bodies) = call("label", arguments).await;
        assert_eq!(text, expected);
        assert_eq!(events, ["INFO tool_call_failed"]);
        assert_eq!(bodies, 0);
    }
    let (text, _, bodies) = call("label", json!({ "items": [item], "tags": ["a"] })).await;
    assert_eq!((text.as_str(), bodies), ("2 labelled", 1));
}

#[tokio::test]
async fn trait_tools_and_routes_by_hand_are_checked_too() {
    let before = TRAIT_BODIES.load(Ordering::SeqCst);
    let (text, events, _) = call("outlook", json!({ "city": "Oslo", "days": 8 })).await;
    assert!(
        text.starts_with("The argument days of outlook was '8'"),
        "{text}"
    );
    assert_eq!(events, ["INFO tool_call_failed"]);
    assert_eq!(TRAIT_BODIES.load(Ordering::SeqCst), before);

    let (text, events, _) = call("currency", json!({ "code": "eur" })).await;
    assert_eq!(
        text,
        "The argument code of currency was 'eur', but it must be a string matching the \
         pattern '^[A-Z]{3}$'. Call currency again with code as a string matching the \
         pattern '^[A-Z]{3}$'."
    );
    assert_eq!(events, ["INFO tool_call_failed"]);
    let (text, _, _) = call("currency", json!({ "code": "EUR", "rate": 1 })).await;
    assert_eq!(
        text,
        "currency takes no argument 'rate'. Call currency again with only code."
    );
}

#[tokio::test]
async fn an_author_can_turn_the_check_off_and_the_body_answers() {
    let (text, events, bodies) = call("plan", json!({ "city": "Oslo", "days": 0 })).await;
    assert_eq!(
        text,
        "A plan covers at least one day. Call plan with days set to 1 or more."
    );
    assert_eq!(events, ["INFO tool_call_failed"]);
    assert_eq!(bodies, 1, "the body ran");
    let (_, events, _) = call("currency_raw", json!({ "code": "eur" })).await;
    assert_eq!(events, ["INFO tool_call_completed"]);
}

#[tokio::test]
async fn a_job_is_never_started_for_a_call_outside_the_schema() {
    let (text, events, bodies) = call("archive", json!({ "city": "Oslo", "days": 0 })).await;
    assert!(
        text.starts_with("The argument days of archive was '0'"),
        "{text}"
    );
    assert_eq!(events, ["INFO tool_call_failed"]);
    assert_eq!(bodies, 0);
    let (text, _, bodies) = call("archive", json!({ "city": "Oslo", "days": 2 })).await;
    assert_eq!((text.as_str(), bodies), ("2 days archived", 1));
}

#[tokio::test]
async fn a_call_run_as_a_task_is_checked_before_its_body() {
    let server = server();
    let bodies = server.bodies.clone();
    let capabilities = ClientCapabilities::builder().enable_tasks().build();
    let client = ClientConfig::new(capabilities, Implementation::new("tasks-client", "1.0.0"));
    let session = Session::connect(server, client).await;
    let arguments = json!({ "city": "Oslo", "days": 9 });
    let request = CallToolRequestParams::new("forecast")
        .with_arguments(arguments.as_object().cloned().unwrap_or_default());
    let client = &session.client;
    let response = client.call_tool_once(request).await;
    let Ok(CallToolResponse::Task(created)) = response else {
        panic!("the call became a task: {response:?}");
    };
    let id = created.task.task_id.clone();
    let payload = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            tokio::time::sleep(Duration::from_millis(5)).await;
            let params = GetTaskParams::new(id.clone());
            let info = client
                .peer()
                .get_task(params)
                .await
                .expect("the task is known");
            if info.task.status().is_terminal() {
                break info.task.payload;
            }
        }
    })
    .await
    .expect("the task ends");
    let TaskPayload::Completed { result } = payload else {
        panic!("the task completed: {payload:?}");
    };
    let result: rmcp::model::CallToolResult =
        serde_json::from_value(Value::Object(result)).expect("a tool result");
    assert_eq!(result.is_error, Some(true));
    let text = &result.content[0].as_text().expect("text").text;
    assert!(
        text.starts_with("The argument days of forecast was '9'"),
        "{text}"
    );
    assert_eq!(bodies.load(Ordering::SeqCst), 0);
}

/// A route whose schema is built to hurt: it refers to itself, backtracks,
/// and asks for a multiple no float can tell.
fn hostile_route() -> rmcp::handler::server::tool::ToolRoute<Server> {
    let schema = json!({
        "type": "object",
        "properties": {
            "word": { "type": "string", "pattern": "^(a+)+$" },
            "step": { "type": "number", "multipleOf": 1e-300 },
            "tree": { "$ref": "#/$defs/Tree" }
        },
        "$defs": {
            "Tree": {
                "anyOf": [{ "$ref": "#/$defs/Tree" }, { "type": "array", "items": { "$ref": "#/$defs/Tree" } }],
                "minItems": 1
            }
        }
    });
    let tool = Tool::new(
        "hostile",
        "Take anything.",
        Arc::new(schema.as_object().cloned().unwrap_or_default()),
    );
    rmcp::handler::server::tool::ToolRoute::new_dyn(tool, |_| {
        Box::pin(async {
            let taken = rmcp::model::ContentBlock::text("taken");
            Ok(rmcp::model::CallToolResult::success(vec![taken]).into())
        })
    })
}

#[tokio::test]
async fn a_hostile_schema_costs_a_bounded_time_and_never_panics() {
    let server = server();
    let router = (*server.router)
        .clone()
        .with_route(outcome_runtime::handler::wrap_route(hostile_route()));
    let server = Server {
        router: Arc::new(router),
        ..server
    };
    let session = Session::connect(server, ()).await;
    let mut nested = json!([]);
    for _ in 0..100 {
        nested = json!([nested]);
    }
    let started = std::time::Instant::now();
    let word = "a".repeat(9_000) + "!";
    let call = session
        .call(
            "hostile",
            json!({ "word": word, "step": 1e300, "tree": nested }),
        )
        .await;
    assert!(
        call.text()
            .starts_with("The argument word of hostile was 'aaaa"),
        "{}",
        call.text()
    );
    assert_eq!(call.events(), ["INFO tool_call_failed"]);
    // An option that refers to itself accepts once the walk's depth is
    // spent: bounded, and never blaming what it did not finish reading.
    let call = session
        .call(
            "hostile",
            json!({ "word": "aaa", "step": 0.5, "tree": [[[]]] }),
        )
        .await;
    assert_eq!(call.text(), "taken");
    // Generous: a backtracking engine would take longer than the test.
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn routes_stay_inside_the_boundary_with_their_check() {
    outcome_runtime::testing::assert_wrapped(&server().router);
}
