//! `outcome_runtime::tool_handler` adds what rmcp's `#[tool_handler]` adds,
//! built by itself: the server's info (capabilities, name, version,
//! instructions), the answer to `tools/list` (the tools, `_meta`, the cache
//! hints of protocol 2026-07-28) and `get_tool` are the same as rmcp's, for
//! every argument rmcp's `#[tool_handler]` takes.
//!
//! Each server below is written once and expanded twice by `under_both!`,
//! under rmcp's `#[tool_handler]` and under outcome_runtime's; a real
//! client then reads both over an in-memory connection, with a handshake of
//! the newest protocol, of an older one, and with requests of 2026-07-28,
//! and compares what it read as JSON. One difference is on purpose, and
//! pinned by the last test: with neither `name` nor `version`, rmcp's macro
//! reports rmcp's own name and version.

use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, MetaObject, PaginatedRequestParams,
    ProtocolVersion, RequestMetaObject,
};
use rmcp::service::RunningService;
use rmcp::{ClientHandler, RoleClient, ServerHandler};
use serde_json::{Value, json};

/// The `_meta` of `tools/list` results, for the servers that set it.
fn list_meta() -> MetaObject {
    match json!({ "com.example/shelf": "notes" }) {
        Value::Object(object) => MetaObject(object),
        _ => unreachable!("a JSON object"),
    }
}

/// Expands one server twice, into `with_rmcp` and `with_outcome`: the same
/// tool, the same `#[tool_handler(..)]` arguments, the same other
/// attributes and items of the `ServerHandler` impl, and the same items
/// beside it (`beside { .. }`). Every server keeps its router in a field,
/// `tools`, which `handler(field, ..)` passes as `router = self.tools`
/// (written here, so that `self` is the method's); `new` builds the server.
macro_rules! under_both {
    (
        $(#[$doc:meta])*
        mod $group:ident {
            handler($($args:tt)*)
            beside { $($beside:item)* }
            $(#[$attr:meta])*
            impl { $($item:item)* }
        }
    ) => {
        $(#[$doc])*
        mod $group {
            under_both!(@side with_rmcp, rmcp, rmcp::ErrorData,
                [$($args)*], [$($beside)*], [$(#[$attr])*], [$($item)*]);
            under_both!(@side with_outcome, outcome_runtime, outcome_runtime::ToolError,
                [$($args)*], [$($beside)*], [$(#[$attr])*], [$($item)*]);
        }
    };
    (
        @side $side:ident, $krate:ident, $error:ty,
        [$($args:tt)*], [$($beside:item)*], [$(#[$attr:meta])*], [$($item:item)*]
    ) => {
        pub(super) mod $side {
            #[allow(unused_imports)]
            use super::super::*;
            use $krate::{tool, tool_handler, tool_router};

            type Error = $error;

            pub(crate) struct Server {
                #[allow(dead_code)]
                tools: rmcp::handler::server::router::tool::ToolRouter<Server>,
            }

            #[tool_router]
            impl Server {
                /// Return how many notes there are.
                #[tool]
                fn count(&self) -> Result<String, Error> {
                    Ok("3".to_owned())
                }
            }

            $($beside)*

            under_both!(@impl [$($args)*] [$(#[$attr])*] [$($item)*]);

            pub(crate) fn new() -> Server {
                Server { tools: Server::tool_router() }
            }
        }
    };
    (@impl [field $(, $($args:tt)*)?] [$(#[$attr:meta])*] [$($item:item)*]) => {
        #[tool_handler(router = self.tools $(, $($args)*)?)]
        $(#[$attr])*
        impl rmcp::ServerHandler for Server {
            $($item)*
        }
    };
    (@impl [$($args:tt)*] [$(#[$attr:meta])*] [$($item:item)*]) => {
        #[tool_handler($($args)*)]
        $(#[$attr])*
        impl rmcp::ServerHandler for Server {
            $($item)*
        }
    };
}

under_both! {
    mod every_argument {
        handler(
            name = "notes",
            version = "2.4.1",
            instructions = "Call list_notes before you edit a note.",
            meta = list_meta(),
        )
        beside {}
        impl {}
    }
}

under_both! {
    mod no_arguments {
        handler()
        beside {}
        impl {}
    }
}

under_both! {
    mod name_only {
        handler(name = "notes")
        beside {}
        impl {}
    }
}

under_both! {
    mod version_only {
        handler(version = "0.9.0")
        beside {}
        impl {}
    }
}

under_both! {
    mod router_in_a_field {
        handler(field, name = "notes", instructions = "Read before you write.")
        beside {}
        impl {}
    }
}

under_both! {
    mod own_methods {
        handler(name = "ignored", meta = list_meta())
        beside {}
        impl {
            fn get_info(&self) -> rmcp::model::ServerConfig {
                rmcp::model::ServerConfig::new(
                    rmcp::model::ServerCapabilities::builder().enable_tools().enable_completions().build(),
                )
                .with_server_info(rmcp::model::Implementation::new("own", "1.0.0"))
            }

            async fn list_tools(
                &self,
                _request: Option<rmcp::model::PaginatedRequestParams>,
                _context: rmcp::service::RequestContext<rmcp::RoleServer>,
            ) -> Result<rmcp::model::ListToolsResult, rmcp::ErrorData> {
                Ok(rmcp::model::ListToolsResult::with_all_items(Vec::new()))
            }
        }
    }
}

under_both! {
    /// rmcp's `#[prompt_handler]` on the same impl: both declare prompts.
    mod with_prompts {
        handler(name = "notes")
        beside {
            use rmcp::model::{GetPromptResult, PromptMessage, Role};
            use rmcp::{prompt, prompt_router};

            #[prompt_router]
            impl Server {
                /// Ask for a summary of the notes.
                #[prompt]
                fn summary(&self) -> GetPromptResult {
                    GetPromptResult::new(vec![PromptMessage::new_text(
                        Role::User,
                        "Summarise the notes.",
                    )])
                }
            }
        }
        #[rmcp::prompt_handler]
        impl {}
    }
}

/// What a client reads of `server`: its info from the handshake and its
/// `tools/list`, as JSON. With `stateless`, the `tools/list` request carries
/// the client's context in its `_meta`, as every request of protocol
/// 2026-07-28 does, and speaks that protocol.
async fn read<S: ServerHandler, C: ClientHandler>(
    server: S,
    client: C,
    stateless: bool,
) -> (Value, Value) {
    let client: RunningService<RoleClient, C> = outcome_runtime::testing::connect(server, client)
        .await
        .expect("the client connects");
    let info = serde_json::to_value(client.peer_info().expect("the server's info"))
        .expect("the info is JSON");
    let params = stateless.then(|| {
        let mut params = PaginatedRequestParams::default();
        params.meta = Some(RequestMetaObject::with_client_context(
            ProtocolVersion::V_2026_07_28,
            Implementation::new("handler-metadata", "1.0.0"),
            ClientCapabilities::default(),
        ));
        params
    });
    let tools = client.list_tools(params).await.expect("tools/list answers");
    let tools = serde_json::to_value(tools).expect("the list is JSON");
    let _ = client.cancel().await;
    (info, tools)
}

/// A client that speaks protocol 2025-06-18.
fn older_client() -> ClientConfig {
    let mut info = ClientConfig::default();
    info.protocol_version = ProtocolVersion::V_2025_06_18;
    info
}

/// Reads the servers `rmcp()` and `outcome()` build with a client of the
/// newest protocol that has a handshake, with one of an older protocol,
/// and with requests of protocol 2026-07-28, and asserts that each reads
/// the same of both. Returns what the last read of outcome_runtime's.
async fn assert_same<R, O>(rmcp: fn() -> R, outcome: fn() -> O) -> (Value, Value)
where
    R: ServerHandler,
    O: ServerHandler,
{
    let reads = [
        (
            "with a handshake",
            (
                read(rmcp(), (), false).await,
                read(outcome(), (), false).await,
            ),
        ),
        (
            "2025-06-18",
            (
                read(rmcp(), older_client(), false).await,
                read(outcome(), older_client(), false).await,
            ),
        ),
        (
            "2026-07-28",
            (
                read(rmcp(), (), true).await,
                read(outcome(), (), true).await,
            ),
        ),
    ];
    for (protocol, (rmcp, outcome)) in &reads {
        assert_eq!(
            rmcp.0, outcome.0,
            "the server info differs, protocol {protocol}"
        );
        assert_eq!(rmcp.1, outcome.1, "tools/list differs, protocol {protocol}");
    }
    // `get_tool`, which rmcp's HTTP transport asks, without a connection.
    let found = |tool: Option<rmcp::model::Tool>| tool.map(|tool| serde_json::to_value(tool).ok());
    assert_eq!(
        found(rmcp().get_tool("count")),
        found(outcome().get_tool("count"))
    );
    assert!(found(outcome().get_tool("count")).is_some());
    assert_eq!(outcome().get_tool("missing"), None);
    assert_eq!(rmcp().get_tool("missing"), None);
    let [(_, (_, handshake)), _, (_, (_, stateless))] = reads;
    assert!(
        handshake.1.get("ttlMs").is_none(),
        "no cache hints before 2026-07-28"
    );
    stateless
}

#[tokio::test]
async fn every_argument_gives_the_same_info_and_listing() {
    let (info, tools) = assert_same(
        every_argument::with_rmcp::new,
        every_argument::with_outcome::new,
    )
    .await;
    // What was compared holds the arguments.
    assert_eq!(info["serverInfo"]["name"], "notes");
    assert_eq!(info["serverInfo"]["version"], "2.4.1");
    assert_eq!(
        info["instructions"],
        "Call list_notes before you edit a note."
    );
    assert_eq!(info["capabilities"], json!({ "tools": {} }));
    assert_eq!(tools["_meta"]["com.example/shelf"], "notes");
    assert_eq!(tools["tools"][0]["name"], "count");
    assert_eq!(
        tools["ttlMs"], 0,
        "protocol 2026-07-28 gets the cache hints"
    );
    assert_eq!(tools["cacheScope"], "public");
}

#[tokio::test]
async fn a_name_or_a_version_alone_gives_the_same_info() {
    let (info, _) = assert_same(name_only::with_rmcp::new, name_only::with_outcome::new).await;
    assert_eq!(info["serverInfo"]["name"], "notes");
    assert_eq!(info["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
    let (info, _) = assert_same(
        version_only::with_rmcp::new,
        version_only::with_outcome::new,
    )
    .await;
    assert_eq!(info["serverInfo"]["name"], env!("CARGO_CRATE_NAME"));
    assert_eq!(info["serverInfo"]["version"], "0.9.0");
}

#[tokio::test]
async fn a_router_in_a_field_gives_the_same_info_and_listing() {
    let (info, tools) = assert_same(
        router_in_a_field::with_rmcp::new,
        router_in_a_field::with_outcome::new,
    )
    .await;
    assert_eq!(info["instructions"], "Read before you write.");
    assert_eq!(tools["tools"][0]["name"], "count");
}

#[tokio::test]
async fn methods_of_the_impl_itself_are_kept_under_both() {
    let (info, tools) =
        assert_same(own_methods::with_rmcp::new, own_methods::with_outcome::new).await;
    assert_eq!(info["serverInfo"]["name"], "own");
    assert_eq!(tools["tools"], json!([]));
}

#[tokio::test]
async fn prompts_beside_the_tools_give_the_same_capabilities() {
    let (info, _) = assert_same(
        with_prompts::with_rmcp::new,
        with_prompts::with_outcome::new,
    )
    .await;
    assert_eq!(info["capabilities"], json!({ "tools": {}, "prompts": {} }));
}

/// With neither `name` nor `version`, rmcp's macro reports rmcp's own name
/// and version (its `Implementation::from_build_env` reads rmcp's build);
/// outcome_runtime reports those of the crate that holds the impl, as
/// rmcp's does for the one missing when the other is given.
#[tokio::test]
async fn without_arguments_the_server_is_named_after_its_own_crate() {
    let (rmcp, _) = read(no_arguments::with_rmcp::new(), (), false).await;
    let (outcome, _) = read(no_arguments::with_outcome::new(), (), false).await;
    assert_eq!(rmcp["serverInfo"]["name"], "rmcp");
    assert_ne!(rmcp["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(outcome["serverInfo"]["name"], env!("CARGO_CRATE_NAME"));
    assert_eq!(outcome["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
    let without_identity = |mut info: Value| {
        let server = info["serverInfo"]
            .as_object_mut()
            .expect("the server's identity");
        assert!(server.remove("name").is_some() && server.remove("version").is_some());
        info
    };
    assert_eq!(without_identity(rmcp), without_identity(outcome));
}
