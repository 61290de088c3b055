//! What becomes a [`ToolError`]: any error, through `?` (its outcome read
//! from its chain), and rmcp's `ErrorData`, by its code or the report it
//! carries.

use std::error::Error;
use std::fmt::{self, Display};

use rmcp::ErrorData;
use rmcp::model::ErrorCode;

use super::{Kind, ToolError};
use crate::answer::classify;
use crate::answer::sentences;
use crate::base::report;
use crate::base::scope;

impl<E> From<E> for ToolError
where
    E: Error + Send + Sync + 'static,
{
    fn from(error: E) -> Self {
        Self::from_error(Box::new(error), Some(std::any::type_name::<E>()))
    }
}

/// What an rmcp `ErrorData` means for the call, by its code.
enum Meaning {
    PassThrough,
    Invalid,
    Fault,
}

/// What `data` means for the call; the table on [`ToolError`] says why.
fn code_meaning(data: &ErrorData) -> Meaning {
    match data.code {
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY => Meaning::PassThrough,
        ErrorCode::INVALID_PARAMS if !crate::base::rmcp_errors::is_missing_extension(data) => {
            Meaning::Invalid
        }
        ErrorCode::INVALID_REQUEST | ErrorCode::RESOURCE_NOT_FOUND => Meaning::Invalid,
        _ => Meaning::Fault,
    }
}

/// The `error.type` of a boxed error whose type is not known.
pub(super) const BOXED_TYPE: &str = "Box<dyn Error>";

/// The text of a boxed error's source chain, captured when the error could
/// not be kept: it may not have been `Send`.
#[derive(Debug)]
pub(super) struct Captured(pub(super) String);

impl Display for Captured {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Error for Captured {}

/// Runs `$body` with `$T` bound to each error type that is `Send + Sync`,
/// common behind a `Box<dyn Error>`, and worth naming in `error.type`.
macro_rules! for_known_types {
    ($T:ident => $body:block) => {
        for_known_types!(@each $T => $body;
            std::io::Error,
            std::num::ParseIntError,
            std::num::ParseFloatError,
            std::num::TryFromIntError,
            std::str::ParseBoolError,
            std::char::ParseCharError,
            std::net::AddrParseError,
            std::str::Utf8Error,
            std::string::FromUtf8Error,
            std::string::FromUtf16Error,
            fmt::Error,
            serde_json::Error,
            ErrorData,
        )
    };
    (@each $T:ident => $body:block; $($known:ty,)*) => {{
        $({
            type $T = $known;
            $body
        })*
    }};
}

/// The type name of `error` when it is one of the known types.
pub(super) fn known_type(error: &(dyn Error + 'static)) -> Option<&'static str> {
    for_known_types!(T => {
        if error.is::<T>() {
            return Some(std::any::type_name::<T>());
        }
    });
    None
}

/// `error` as a `ToolError` that keeps it whole, when it is one of the
/// known types; `error` back otherwise.
pub(super) fn keep_known(
    mut error: Box<dyn Error + 'static>,
) -> Result<ToolError, Box<dyn Error + 'static>> {
    for_known_types!(T => {
        error = match error.downcast::<T>() {
            Ok(kept) => return Ok(ToolError::from_error(kept, Some(std::any::type_name::<T>()))),
            Err(other) => other,
        };
    });
    Err(error)
}

impl ToolError {
    /// The error's outcome: an rmcp `ErrorData` by its code, anything else
    /// a fault that heals itself when its chain says so.
    pub(super) fn from_error(
        source: Box<dyn Error + Send + Sync>,
        error_type: Option<&'static str>,
    ) -> Self {
        if let Some(data) = source.downcast_ref::<ErrorData>() {
            // A `ToolError` that travelled as an `ErrorData`: its message
            // was written to the rules, so only its bound is checked again.
            if let Some((report, data)) = report::read_error(data) {
                return Self::reported(report, data, Some("outcome_runtime::ToolError"));
            }
            match code_meaning(data) {
                Meaning::PassThrough => {
                    let data = data.clone();
                    return Self::from_source(Kind::PassThrough(data), source, error_type);
                }
                Meaning::Invalid => {
                    // The tool called, so that a step naming it is kept as
                    // the step, and what the model sent, so that it reads
                    // its own values back; an error made outside a call
                    // knows neither.
                    let read = |tool: Option<&str>, sent: sentences::Sent<'_>| {
                        if data.code == ErrorCode::RESOURCE_NOT_FOUND {
                            // The URI is MCP's own field of this error: the
                            // model's value, which its text may leave out.
                            let uri = data.data.as_ref().and_then(|data| data.get("uri"));
                            let uri = uri.and_then(serde_json::Value::as_str);
                            sentences::resource_not_found(&data.message, uri, tool, sent)
                        } else {
                            let reason = sentences::data_reason(data.data.as_ref());
                            sentences::invalid_params(&data.message, reason, tool, sent)
                        }
                    };
                    let built = scope::CALL
                        .try_with(|call| {
                            read(
                                Some(&call.tool),
                                sentences::Sent::new(call.arguments.as_ref()),
                            )
                        })
                        .unwrap_or_else(|_| read(None, sentences::Sent::default()));
                    let mut error = Self::model_facing(Kind::Invalid, built);
                    error.inner.error_type = error_type;
                    return error;
                }
                Meaning::Fault => {}
            }
        }
        let heals = classify::heals_itself(&*source);
        Self::from_source(Kind::Fault { heals }, source, error_type)
    }
}
