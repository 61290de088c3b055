use outcome_runtime::tool;

/// A clock.
#[tool]
struct Clock;

fn main() {}
