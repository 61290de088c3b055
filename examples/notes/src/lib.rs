//! The notes server that the README runs: an in-memory note store served
//! over MCP, written the way the README tells users to write theirs, and
//! the plain-text log formatter that goes with it.
//!
//! The `notes` example serves it on stdio or over streamable HTTP
//! (`cargo run --example notes`); the tour and the end-to-end tests call it
//! through a real rmcp client.

#![forbid(unsafe_code)]

pub mod log;
mod server;

pub use server::*;

/// The text of the server's source file, in which a test finds the line
/// that a panic's location must name.
pub const SERVER_SOURCE: &str = include_str!("server.rs");
