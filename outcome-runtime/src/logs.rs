//! What the operator reads: the records of a fault, the request log's
//! line per call, and the call's span and metric. Every record's target
//! is `outcome_runtime`.

pub(crate) mod records;
pub(crate) mod request_log;
pub(crate) mod telemetry;
