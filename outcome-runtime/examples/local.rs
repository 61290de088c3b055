//! A server under the `local` feature, whose tools need not be `Send`: the
//! tally lives in an `Rc<RefCell<_>>`, held across an `.await`. The server
//! and a client run on one thread, in a `LocalSet`, over an in-memory
//! connection; each call's answer is checked.
//!
//! ```text
//! cargo run -p outcome-runtime --example local --features local
//! ```

use std::cell::RefCell;
use std::rc::Rc;

use outcome_runtime::{ToolError, tool, tool_handler, tool_router};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::{ServerHandler, ServiceExt};

struct Tally {
    count: Rc<RefCell<u32>>,
}

#[tool_router]
impl Tally {
    /// Add one to the tally and return its new value.
    #[tool]
    async fn bump(&self) -> Result<String, ToolError> {
        let count = Rc::clone(&self.count);
        tokio::task::yield_now().await;
        *count.borrow_mut() += 1;
        let value = *count.borrow();
        Ok(value.to_string())
    }

    /// Reset the tally to zero.
    #[tool]
    async fn reset(&self) -> Result<String, ToolError> {
        let count = Rc::clone(&self.count);
        tokio::task::yield_now().await;
        if *count.borrow() == 0 {
            return Err(ToolError::invalid(
                "The tally is already at zero",
                "Call bump first, then reset",
            ));
        }
        *count.borrow_mut() = 0;
        Ok("0".to_owned())
    }
}

#[tool_handler]
impl ServerHandler for Tally {}

/// The text of a result with one text block.
fn text(result: &CallToolResult) -> &str {
    match result.content.as_slice() {
        [only] => only.as_text().map_or("", |text| text.text.as_str()),
        _ => "",
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let local = tokio::task::LocalSet::new();
    local
        .run_until(async {
            let (server_io, client_io) = tokio::io::duplex(64 * 1024);
            let server = Tally {
                count: Rc::new(RefCell::new(0)),
            };
            let (server, client) = tokio::join!(server.serve(server_io), ().serve(client_io));
            let (_server, client) = (
                server.expect("the server starts"),
                client.expect("the client connects"),
            );
            let call = |name: &'static str| client.call_tool(CallToolRequestParams::new(name));

            let refused = call("reset").await.expect("reset is answered");
            assert_eq!(refused.is_error, Some(true));
            assert_eq!(
                text(&refused),
                "The tally is already at zero. Call bump first, then reset."
            );
            for expected in ["1", "2"] {
                let bumped = call("bump").await.expect("bump is answered");
                assert_eq!((bumped.is_error, text(&bumped)), (Some(false), expected));
            }
            let reset = call("reset").await.expect("reset is answered");
            assert_eq!((reset.is_error, text(&reset)), (Some(false), "0"));
            println!("local: every call answered as expected");
        })
        .await;
}
