//! The life of a call: the request's future, which finds the route and
//! runs the body in the call's scope; routes inside the boundary; the one
//! table that ends every call and hands its ending to the log and to the
//! answer; a fault's record; and the calls rmcp could not read, cancels,
//! `tools/list` and tasks.

pub(crate) mod cancel;
pub(crate) mod ending;
pub(crate) mod fault;
pub(crate) mod listing;
pub(crate) mod malformed;
pub(crate) mod request;
pub(crate) mod routes;
// rmcp's task manager runs a task as a `Send` future, which a tool under
// `local` need not give.
#[cfg(not(feature = "local"))]
pub(crate) mod tasks;
