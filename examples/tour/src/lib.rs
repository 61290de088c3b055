//! The tour of the notes server: `cargo run --example tour` runs it.
//! This package holds nothing else, so that the README's first command
//! builds only what the tour needs.

#![forbid(unsafe_code)]
