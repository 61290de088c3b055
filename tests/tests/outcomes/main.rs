//! Every call ends in one of the four outcomes, whatever the tool, its input
//! or the client: the boundary, the conversions with rmcp's errors, the
//! text the model reads, the input check, cancels, tasks, telemetry, and the
//! notes example's table end to end.
//!
//! One binary for them all: each file is a module, and the tests share
//! no process-global state (those that do have binaries of their own).

mod argument_errors;
mod boundary;
mod cancellation;
mod classify;
mod client_input;
mod error_data;
mod hooks;
mod hostile_errors;
mod input_schema;
mod model_text;
mod output_schema;
mod panicking_subscribers;
mod routes;
mod sampling;
mod scenario;
mod tasks;
mod telemetry;
