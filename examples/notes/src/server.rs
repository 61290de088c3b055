//! The notes server: an in-memory note store served over MCP, written the
//! way the README tells users to write theirs.
//!
//! Its upstream for `sync_notes` is simulated: the remote's name picks what
//! the upstream does, and the errors it raises are the types a real client
//! would see.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use outcome_runtime::{
    Deferred, Jobs, ToolError, Transient, quote, tool, tool_handler, tool_router,
};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
#[allow(deprecated)] // Sampling is the scenario's subject.
use rmcp::model::{ClientCapabilities, CreateMessageRequestParams, SamplingMessage};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceError, schemars};
use serde::{Deserialize, Serialize};

/// The notes server's state.
pub struct Notes {
    store: Arc<Mutex<BTreeMap<String, Note>>>,
    tools: ToolRouter<Notes>,
    jobs: Jobs,
    next_version: AtomicU64,
    export: bool,
    check_path: Box<PathHook>,
}

/// A domain hook `write_note` runs on every path before it writes: a
/// `ToolError` from it reaches the model with its own outcome, anything else
/// (another error through `?`, a panic) is a fault, as for the tool's body.
pub type PathHook = dyn Fn(&str) -> Result<(), ToolError> + Send + Sync;

/// The default path hook: a relative path inside the store.
pub fn inside_the_store(path: &str) -> Result<(), ToolError> {
    let escapes = path.starts_with('/')
        || path.contains('\\')
        || path.split('/').any(|part| part == ".." || part.is_empty());
    if escapes {
        return Err(ToolError::invalid(
            format_args!("The path {} is outside the note store", quote(path)),
            "Call write_note again with a relative path inside it, such as plan.md or \
             inbox/todo.md",
        ));
    }
    Ok(())
}

#[derive(Clone)]
struct Note {
    text: String,
    version: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct PathArgs {
    /// The note's path, as search_notes lists it, for example `plan.md`.
    pub path: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct SearchArgs {
    /// Text to look for in note paths and note text.
    pub query: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct WriteArgs {
    /// The note's path, for example `plan.md`.
    pub path: String,
    /// The note's full new text.
    pub text: String,
    /// The version read_note returned; required to overwrite an existing note.
    #[serde(default)]
    pub if_match: Option<String>,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct SyncArgs {
    /// The remote to pull from, for example `origin`.
    pub remote: String,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct NoteText {
    pub text: String,
    pub version: String,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Paths {
    pub paths: Vec<String>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Version {
    pub version: String,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Count {
    pub count: usize,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Indexed {
    pub indexed: usize,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Pulled {
    pub pulled: usize,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Backlinks {
    pub links: usize,
}

/// How long `rebuild_backlinks` answers inline before it hands the model a
/// job to poll.
pub const BACKLINKS_DEADLINE: Duration = Duration::from_millis(100);

/// How long the simulated backlink rebuild takes.
pub const BACKLINKS_WORK: Duration = Duration::from_millis(300);

#[derive(Serialize, schemars::JsonSchema)]
pub struct Summary {
    pub summary: String,
}

impl Notes {
    /// The store of the scenario: `plan.md` and `ideas.md` at version `v1`.
    /// `export` turns on the opt-in export feature.
    pub fn new(export: bool) -> Self {
        outcome_runtime::recognize_transient::<HttpStatusError>();
        let start = [("plan.md", "# Plan"), ("ideas.md", "# Ideas")];
        let store = start
            .into_iter()
            .map(|(path, text)| {
                let note = Note {
                    text: text.to_owned(),
                    version: "v1".to_owned(),
                };
                (path.to_owned(), note)
            })
            .collect();
        let jobs = Jobs::new();
        Notes {
            store: Arc::new(Mutex::new(store)),
            tools: Self::tool_router().with_route(jobs.status_tool()),
            jobs,
            next_version: AtomicU64::new(2),
            export,
            check_path: Box::new(inside_the_store),
        }
    }

    /// The same server with its jobs in `jobs` (in Redis, say, shared by
    /// every replica), in place of the default in-memory ones.
    #[allow(dead_code)] // The tests keep the default.
    pub fn with_jobs(mut self, jobs: Jobs) -> Self {
        self.tools = Self::tool_router().with_route(jobs.status_tool());
        self.jobs = jobs;
        self
    }

    /// The same server with another path hook for `write_note`.
    #[allow(dead_code)] // The binary keeps the default; the tests swap it.
    pub fn with_path_hook(
        mut self,
        hook: impl Fn(&str) -> Result<(), ToolError> + Send + Sync + 'static,
    ) -> Self {
        self.check_path = Box::new(hook);
        self
    }

    fn note(&self, path: &str) -> Result<Note, ToolError> {
        let store = self.store.lock().unwrap_or_else(|e| e.into_inner());
        store.get(path).cloned().ok_or_else(|| {
            ToolError::invalid(
                format_args!("No note at {}", quote(path)),
                "Find the path with search_notes",
            )
        })
    }
}

#[tool_router]
impl Notes {
    /// Return a note's text and version; look paths up with search_notes first.
    #[tool(annotations(read_only_hint = true))]
    pub fn read_note(
        &self,
        Parameters(PathArgs { path }): Parameters<PathArgs>,
    ) -> Result<Json<NoteText>, ToolError> {
        let note = self.note(&path)?;
        Ok(Json(NoteText {
            text: note.text,
            version: note.version,
        }))
    }

    /// List the paths of the notes whose path or text contains the query. No
    /// match is an empty list.
    #[tool(annotations(read_only_hint = true))]
    pub fn search_notes(
        &self,
        Parameters(SearchArgs { query }): Parameters<SearchArgs>,
    ) -> Result<Json<Paths>, ToolError> {
        let store = self.store.lock().unwrap_or_else(|e| e.into_inner());
        let paths = store
            .iter()
            .filter(|(path, note)| path.contains(&query) || note.text.contains(&query))
            .map(|(path, _)| path.clone())
            .collect();
        Ok(Json(Paths { paths }))
    }

    /// Create a note, or replace one; replacing needs the version read_note
    /// returned, as if_match. Returns the note's new version.
    ///
    /// # Errors
    ///
    /// Outcome 2 without `if_match` for an existing note, outcome 3 when
    /// `if_match` is not the current version. This section stays in rustdoc.
    #[tool(annotations(destructive_hint = true, idempotent_hint = false))]
    pub fn write_note(
        &self,
        Parameters(WriteArgs {
            path,
            text,
            if_match,
        }): Parameters<WriteArgs>,
    ) -> Result<Json<Version>, ToolError> {
        (self.check_path)(&path)?;
        let mut store = self.store.lock().unwrap_or_else(|e| e.into_inner());
        match (store.get(&path), &if_match) {
            (Some(_), None) => {
                return Err(ToolError::invalid(
                    format_args!(
                        "Note {} exists, and replacing it needs its version",
                        quote(&path)
                    ),
                    "Call read_note for the current version, then call write_note again with it as if_match",
                ));
            }
            (Some(current), Some(expected)) if current.version != *expected => {
                return Err(ToolError::stale(
                    format_args!(
                        "Note {} changed since version {}",
                        quote(&path),
                        quote(expected)
                    ),
                    "Call read_note for the current text and version, reapply the edit, \
                     and pass the new version as if_match",
                ));
            }
            (None, Some(expected)) => {
                return Err(ToolError::invalid(
                    format_args!(
                        "No note at {}, so version {} matches nothing",
                        quote(&path),
                        quote(expected)
                    ),
                    "Call write_note again without if_match to create it",
                ));
            }
            _ => {}
        }
        let number = self.next_version.fetch_add(1, Ordering::Relaxed);
        let version = format!("v{number}");
        let note = Note {
            text,
            version: version.clone(),
        };
        store.insert(path, note);
        Ok(Json(Version { version }))
    }

    /// Count every note and hand the export to the operator's archive.
    #[tool]
    pub fn export_notes(&self) -> Result<Json<Count>, ToolError> {
        if !self.export {
            return Err(ToolError::invalid(
                "Exporting notes is turned off in this deployment",
                "List the paths with search_notes and read each note with read_note instead",
            ));
        }
        let count = self.store.lock().unwrap_or_else(|e| e.into_inner()).len();
        Ok(Json(Count { count }))
    }

    /// Rebuild the search index over every note; returns how many it indexed.
    #[tool]
    pub fn reindex(&self) -> Result<Json<Indexed>, ToolError> {
        // The simulated index is always in the middle of a rebuild: a fault
        // the tool can name more precisely than the generic message, and
        // one that heals itself.
        Err(ToolError::retry_later(
            "The search index is rebuilding, and the request itself was fine. \
             Call reindex again in a minute.",
        ))
    }

    /// Pull the notes that changed on a remote; returns how many it pulled.
    #[tool]
    pub async fn sync_notes(
        &self,
        Parameters(SyncArgs { remote }): Parameters<SyncArgs>,
    ) -> Result<Json<Pulled>, ToolError> {
        let pulled = upstream::pull(&remote).await?;
        match pulled {
            Some(pulled) => Ok(Json(Pulled { pulled })),
            None => Err(ToolError::invalid(
                format_args!("No remote named {}", quote(&remote)),
                "Call sync_notes again with remote set to origin",
            )),
        }
    }

    /// Rebuild the links between notes and count them. It takes a while: past
    /// a short wait the answer is a job to poll with job_status.
    #[tool]
    pub async fn rebuild_backlinks(&self) -> Result<Deferred<Json<Backlinks>>, ToolError> {
        // The work outlives the call when it is slow, so it owns the store.
        let store = self.store.clone();
        let work = async move {
            tokio::time::sleep(BACKLINKS_WORK).await;
            let store = store.lock().unwrap_or_else(|e| e.into_inner());
            let links = store
                .values()
                .map(|note| {
                    store
                        .keys()
                        .filter(|path| note.text.contains(path.as_str()))
                        .count()
                })
                .sum();
            Ok(Json(Backlinks { links }))
        };
        self.jobs.run(BACKLINKS_DEADLINE, work).await
    }

    /// Summarize a note in one paragraph, written by the client's model.
    #[allow(deprecated)] // Sampling is the scenario's subject.
    #[tool(annotations(read_only_hint = true))]
    pub async fn summarize_note(
        &self,
        Parameters(PathArgs { path }): Parameters<PathArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<Json<Summary>, ToolError> {
        let samples = context
            .client_capabilities()
            .is_some_and(|capabilities| capabilities.sampling.is_some());
        if !samples {
            let sampling = ClientCapabilities::builder().enable_sampling().build();
            return Err(ErrorData::missing_required_client_capability(sampling).into());
        }
        let note = self.note(&path)?;
        let prompt = format!("Summarize this note in one paragraph:\n\n{}", note.text);
        let request =
            CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], 300);
        let reply = match context.peer.create_message(request).await {
            Ok(reply) => reply,
            // The client answered, and said no: its user declined, or its
            // model refused. The model can still work without a summary.
            Err(ServiceError::McpError(_)) => {
                return Err(ToolError::invalid(
                    "The client declined to write the summary",
                    "Read the note with read_note and summarize it yourself, or ask the user \
                     to allow sampling",
                ));
            }
            // The connection failed or timed out: a fault, logged by `?`.
            Err(other) => return Err(other.into()),
        };
        let text = reply
            .message
            .content
            .first()
            .and_then(|content| content.as_text());
        let Some(text) = text else {
            return Err(ToolError::retry_later(
                "The client's model answered without text, and the request itself was fine. \
                 Call summarize_note again.",
            ));
        };
        let summary = text.text.clone();
        Ok(Json(Summary { summary }))
    }
}

#[tool_handler(
    router = self.tools,
    name = "notes",
    instructions = "Notes kept by path. Search, read, write."
)]
impl ServerHandler for Notes {}

/// An upstream answered with an HTTP error status.
#[derive(Debug)]
pub struct HttpStatusError {
    pub status: u16,
    pub url: String,
}

impl fmt::Display for HttpStatusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} answered HTTP {}", self.url, self.status)
    }
}

impl std::error::Error for HttpStatusError {}

/// 429 (rate limited) and 503 (unavailable) go away by themselves.
impl Transient for HttpStatusError {
    fn is_transient(&self) -> bool {
        matches!(self.status, 429 | 503)
    }
}

/// Pulling from a remote failed.
#[derive(Debug)]
pub struct SyncError {
    remote: String,
    source: Box<dyn std::error::Error + Send + Sync>,
}

impl fmt::Display for SyncError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pulling from remote {} failed", self.remote)
    }
}

impl std::error::Error for SyncError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}

/// The simulated upstream. The remote's name picks its behaviour.
mod upstream {
    use std::io;

    use super::{HttpStatusError, SyncError};

    /// Pulls from `remote`: `Ok(None)` when there is no such remote.
    pub async fn pull(remote: &str) -> Result<Option<usize>, SyncError> {
        // A real pull awaits the network; yielding once makes every failure
        // below happen after an `.await`, as it would.
        tokio::task::yield_now().await;
        let fail = |source: Box<dyn std::error::Error + Send + Sync>| SyncError {
            remote: remote.to_owned(),
            source,
        };
        match remote {
            "origin" => Ok(Some(0)),
            "timeout" => Err(fail(Box::new(io::Error::new(
                io::ErrorKind::TimedOut,
                "upstream did not answer within 30s",
            )))),
            "rate-limited" => Err(fail(Box::new(HttpStatusError {
                status: 429,
                url: "https://notes.example/api/pull".to_owned(),
            }))),
            "broken" => Err(fail(Box::new(io::Error::new(
                io::ErrorKind::PermissionDenied,
                "open /srv/notes/.secrets/token: permission denied (token=sk-live-7f3a9c)",
            )))),
            "panic" => panic!("sync state for remote {remote:?} is corrupt"),
            _ => Ok(None),
        }
    }
}
