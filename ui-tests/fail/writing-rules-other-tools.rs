// A tool the block does not define (a route added by hand, the jobs status
// tool) is declared with `other_tools`; a name that is neither the block's
// nor declared is still reported, with the closest name.
use outcome_runtime::{ToolError, tool, tool_router};

struct Server;

#[tool_router(other_tools(job_status, "list_jobs"))]
impl Server {
    /// Start rebuilding the index and return the job's id.
    #[tool]
    fn reindex(&self) -> Result<String, ToolError> {
        Err(ToolError::retry_later(
            "A rebuild is already running and the request was fine; follow it with job_status",
        ))
    }

    /// Cancel a rebuild of the index.
    #[tool]
    fn cancel(&self) -> Result<String, ToolError> {
        Err(ToolError::invalid(
            "No rebuild is running",
            "Call list_job to see the jobs",
        ))
    }
}

fn main() {}
