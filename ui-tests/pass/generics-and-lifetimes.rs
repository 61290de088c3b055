use std::fmt::Display;
use std::marker::PhantomData;

use outcome_runtime::{ToolError, tool, tool_handler, tool_router};
use rmcp::ServerHandler;

struct Server<T> {
    label: T,
}

#[tool_router]
impl<T> Server<T>
where
    T: Display + Send + Sync + 'static,
{
    /// Return the server's label.
    #[tool]
    fn label<'a>(&'a self) -> Result<String, ToolError> {
        let borrowed: &'a T = &self.label;
        Ok(borrowed.to_string())
    }

    /// Return the server's label, later.
    #[tool]
    async fn label_later<'a>(&'a self) -> Result<String, ToolError> {
        let borrowed: &'a T = &self.label;
        let _marker: PhantomData<Self> = PhantomData;
        Ok(borrowed.to_string())
    }
}

#[tool_handler]
impl<T> ServerHandler for Server<T> where T: Display + Send + Sync + 'static {}

pub fn main() {
    let router = Server::<u8>::tool_router();
    assert!(router.has_route("label") && router.has_route("label_later"));
}
