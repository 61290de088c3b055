//! What the model reads: [`ToolError`](crate::ToolError) and the messages
//! it builds from a server author's parts, arguments that do not
//! deserialize told in the model's terms, and which faults heal
//! themselves.

pub(crate) mod arguments;
pub(crate) mod classify;
pub(crate) mod error;
pub(crate) mod sentences;
