//! `#[tool(annotations(..))]` gives the annotations rmcp's `#[tool]` gives:
//! each hint alone, true and false, in each form rmcp reads, the title, all
//! at once, and none.
//!
//! Each group of tools is written once and expanded twice by `under_both!`,
//! under rmcp's macros and under outcome_runtime's, and the tools of the two
//! routers are compared as the JSON `tools/list` sends
//! (`outcome_tests::side_by_side`).

use outcome_tests::side_by_side::{assert_same_tools, not_called};
use outcome_tests::under_both;

under_both! {
    /// `annotations(..)`: each hint alone, true and false, in each form
    /// rmcp reads (`hint`, `hint = true`, `hint = "true"`), the title, all
    /// at once, and none.
    mod annotations {
        rmcp {}
        outcome {}
        tools {
            /// Return one note, with a title among its annotations.
            #[tool(annotations(title = "Read a note"))]
            fn annotated_title(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, read only.
            #[tool(annotations(read_only_hint = true))]
            fn read_only(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, not read only.
            #[tool(annotations(read_only_hint = false))]
            fn not_read_only(&self) -> Result<String, Error> {
                not_called()
            }

            /// Delete one note.
            #[tool(annotations(destructive_hint = true))]
            fn destructive(&self) -> Result<String, Error> {
                not_called()
            }

            /// Add one note.
            #[tool(annotations(destructive_hint = false))]
            fn not_destructive(&self) -> Result<String, Error> {
                not_called()
            }

            /// Set one note's text.
            #[tool(annotations(idempotent_hint = true))]
            fn idempotent(&self) -> Result<String, Error> {
                not_called()
            }

            /// Append to one note's text.
            #[tool(annotations(idempotent_hint = false))]
            fn not_idempotent(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the web pages that match a query.
            #[tool(annotations(open_world_hint = true))]
            fn open_world(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match a query.
            #[tool(annotations(open_world_hint = false))]
            fn closed_world(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, read only by a bare hint.
            #[tool(annotations(read_only_hint))]
            fn bare_hint(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, read only by a quoted hint.
            #[tool(annotations(read_only_hint = "true", open_world_hint = "false"))]
            fn quoted_hints(&self) -> Result<String, Error> {
                not_called()
            }

            /// Replace one note.
            #[tool(annotations(
                title = "Replace a note",
                read_only_hint = false,
                destructive_hint = true,
                idempotent_hint = true,
                open_world_hint = false
            ))]
            fn all_annotations(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, with empty annotations.
            #[tool(annotations())]
            fn empty_annotations(&self) -> Result<String, Error> {
                not_called()
            }
        }
    }
}

#[test]
fn annotations_are_the_same() {
    assert_same_tools(
        annotations::with_rmcp::tools(),
        annotations::with_outcome::tools(),
        &[
            "annotated_title",
            "read_only",
            "not_read_only",
            "destructive",
            "not_destructive",
            "idempotent",
            "not_idempotent",
            "open_world",
            "closed_world",
            "bare_hint",
            "quoted_hints",
            "all_annotations",
            "empty_annotations",
        ],
    );
}
