//! What lasts past a call: long-running tools' jobs and where they are
//! kept (memory, Redis), and the sessions of rmcp's streamable HTTP server
//! in Redis.

pub mod job_store;
pub mod jobs;
#[cfg(feature = "redis")]
pub mod session_store;
