//! Jobs and sessions: a long-running tool's job is read by its owner only,
//! from memory or Redis, over stdio and streamable HTTP, on any replica, and
//! within the stores' bounds.
//!
//! One binary for them all: each file is a module, and the tests share
//! no process-global state (those that do have binaries of their own).

mod http;
mod job_owners;
mod jobs;
mod jobs_redis;
mod load;
mod redis_bounds;
mod redis_harness;
mod replicas;
