//! The audit judges a server's answers to the calls a model gets wrong, and
//! keeps its own bounds against a hostile server.
//!
//! One binary for them all: each file is a module, and the tests share
//! no process-global state (those that do have binaries of their own).

mod audit;
mod audit_clean;
mod audit_headings;
mod audit_hostile;
mod audit_overflow;
