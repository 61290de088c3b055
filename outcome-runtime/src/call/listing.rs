//! What `#[tool_handler]` adds besides `call_tool`, built as rmcp's builds
//! it, but once here instead of in every expansion.

use rmcp::model::{
    CacheScope, Implementation, ListToolsResult, MetaObject, ProtocolVersion, ResultType,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

/// The answer to `tools/list`: every tool on one page, with protocol
/// 2026-07-28's cache hints (never fresh, shareable) when the client speaks it.
pub fn list_tools(
    tools: Vec<Tool>,
    meta: Option<MetaObject>,
    context: &RequestContext<RoleServer>,
) -> Result<ListToolsResult, ErrorData> {
    let cache_hints = context
        .protocol_version()
        .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28);
    Ok(ListToolsResult {
        result_type: Some(ResultType::COMPLETE),
        tools,
        meta,
        next_cursor: None,
        ttl_ms: cache_hints.then_some(0),
        cache_scope: cache_hints.then_some(CacheScope::Public),
    })
}

/// The server's info: name, version, instructions if any, and tools (and
/// prompts, with rmcp's `#[prompt_handler]`) as capabilities.
pub fn server_info(
    name: &str,
    version: &str,
    instructions: Option<&str>,
    prompts: bool,
) -> ServerConfig {
    let tools = ServerCapabilities::builder().enable_tools();
    let capabilities = if prompts {
        tools.enable_prompts().build()
    } else {
        tools.build()
    };
    let info = ServerConfig::new(capabilities).with_server_info(Implementation::new(name, version));
    match instructions {
        Some(instructions) => info.with_instructions(instructions),
        None => info,
    }
}
