use outcome_runtime::{ToolError, tool};

/// Return the time of day.
#[tool]
fn now() -> Result<String, ToolError> {
    Ok("12:00".to_owned())
}

fn main() {}
