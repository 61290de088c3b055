//! The macros give what rmcp's give, and take the same signatures, arguments
//! and handlers; a migrated server keeps its behaviour.
//!
//! One binary for them all: each file is a module, and the tests share
//! no process-global state (those that do have binaries of their own).

mod handler_metadata;
mod migration;
mod migration_error_type;
mod migration_handlers;
mod tool_annotations;
mod tool_arguments;
mod tool_descriptions;
mod tool_return_types;
mod tool_signatures;
