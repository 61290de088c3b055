use outcome_runtime::{ToolError, tool, tool_handler, tool_router};
use rmcp::handler::server::tool::Extension;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer, ServerHandler, schemars};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    name: String,
}

#[derive(Clone)]
struct Tenant(String);

struct Server;

#[tool_router]
impl Server {
    /// Greet someone, naming the client.
    #[tool]
    async fn greet(
        &self,
        Parameters(Args { name }): Parameters<Args>,
        peer: Peer<RoleServer>,
        context: RequestContext<RoleServer>,
        Extension(Tenant(tenant)): Extension<Tenant>,
    ) -> Result<String, ToolError> {
        let client = peer.peer_info().map(|info| info.client_info.name.clone());
        let id = context.id.clone();
        Ok(format!(
            "hello {name} from {client:?} in {tenant}, request {id:?}"
        ))
    }

    /// Greet someone, at once.
    #[tool]
    fn greet_now(
        &self,
        Parameters(args): Parameters<Args>,
        _context: RequestContext<RoleServer>,
    ) -> Result<String, ToolError> {
        Ok(format!("hello {}", args.name))
    }
}

#[tool_handler]
impl ServerHandler for Server {}

pub fn main() {}
