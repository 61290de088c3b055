//! What every part of a call shares: how a call ends, as the answer and
//! the records say it; the texts and limits of what the model reads; the
//! bounds of the client's text; catching a panic; rmcp's own errors; and
//! the call in flight, for code rmcp calls without it.

pub(crate) mod bounds;
pub mod message;
pub(crate) mod outcome;
pub(crate) mod panics;
pub(crate) mod report;
pub(crate) mod rmcp_errors;
pub(crate) mod scope;
