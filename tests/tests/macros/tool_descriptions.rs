//! `#[tool]` sends the description rmcp's `#[tool]` sends, from
//! `description = ..` (a literal or any expression) and from doc comments
//! and doc attributes, except where its rules differ on purpose (a doc
//! comment cut at its first heading, its paragraphs reflowed) or rmcp loses
//! a doc comment that another attribute follows.
//!
//! Each group of tools is written once and expanded twice by `under_both!`,
//! under rmcp's macros and under outcome_runtime's, and the tools of the two
//! routers are compared as the JSON `tools/list` sends
//! (`outcome_tests::side_by_side`).

use outcome_tests::side_by_side::{
    Answer, DESCRIPTION, Query, assert_same_tools, by_name, describe, not_called,
    without_description,
};
use outcome_tests::under_both;
use rmcp::Json;
use rmcp::handler::server::wrapper::Parameters;

under_both! {
    /// Descriptions: `description = ..` as a literal and as expressions,
    /// and doc comments and doc attributes that both sides send as they are.
    mod descriptions {
        rmcp {}
        outcome {}
        tools {
            #[tool(description = "Return the notes that match a query.")]
            fn literal(&self) -> Result<String, Error> {
                not_called()
            }

            #[tool(description = r#"Return the notes "as they are"."#)]
            fn raw_literal(&self) -> Result<String, Error> {
                not_called()
            }

            #[tool(description = "Return the notes.\nNewest first, \u{2014} at most 10.")]
            fn literal_with_escapes(&self) -> Result<String, Error> {
                not_called()
            }

            #[tool(description = DESCRIPTION)]
            fn constant(&self) -> Result<String, Error> {
                not_called()
            }

            #[tool(description = concat!("Return the notes", " that match a query."))]
            fn concatenated(&self) -> Result<String, Error> {
                not_called()
            }

            #[tool(description = describe())]
            fn function_call(&self) -> Result<String, Error> {
                not_called()
            }

            #[tool(description = format!("Return at most {} notes.", 10))]
            fn formatted(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes; this doc comment is not what is sent.
            ///
            /// # Examples
            ///
            /// Not sent either.
            #[tool(description = "Return the notes that the explicit text names.")]
            fn explicit_over_doc(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note.
            #[tool]
            fn one_line_doc(&self) -> Result<String, Error> {
                not_called()
            }

            #[doc = "    Return one note, with spaces around.   "]
            #[tool]
            fn padded_doc(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes in one state:
            /// - draft: the notes not yet published
            /// - final: the published notes
            #[tool]
            fn multi_line_doc(&self) -> Result<String, Error> {
                not_called()
            }

            #[doc = "Return one note, from a doc attribute."]
            #[tool]
            fn doc_attribute(&self) -> Result<String, Error> {
                not_called()
            }

            /** Return one note, from a block comment. */
            #[tool]
            fn block_doc(&self) -> Result<String, Error> {
                not_called()
            }

            #[doc = include_str!("../fixtures/included_description.txt")]
            #[tool]
            fn included_doc(&self) -> Result<String, Error> {
                not_called()
            }

            #[doc = concat!("Return one note", ", from a doc macro.")]
            #[tool]
            fn doc_macro(&self) -> Result<String, Error> {
                not_called()
            }

            #[allow(clippy::unused_self)]
            /// Return one note, below another attribute.
            #[tool]
            fn doc_after_attribute(&self) -> Result<String, Error> {
                not_called()
            }
        }
    }
}

#[test]
fn descriptions_are_the_same() {
    assert_same_tools(
        descriptions::with_rmcp::tools(),
        descriptions::with_outcome::tools(),
        &[
            "literal",
            "raw_literal",
            "literal_with_escapes",
            "constant",
            "concatenated",
            "function_call",
            "formatted",
            "explicit_over_doc",
            "one_line_doc",
            "padded_doc",
            "multi_line_doc",
            "doc_attribute",
            "block_doc",
            "included_doc",
            "doc_macro",
            "doc_after_attribute",
        ],
    );
}

under_both! {
    /// Doc comments outcome_runtime sends differently on purpose: the model
    /// reads the text before the first heading, and the lines of a
    /// paragraph joined as Markdown renders them; rmcp sends every line,
    /// trimmed, blank lines dropped, joined with line breaks.
    mod by_design {
        rmcp {}
        outcome {}
        tools {
            /// Return the notes that match a query.
            ///
            /// # Examples
            ///
            /// `search {"text": "plan"}` lists the plan.
            #[tool]
            fn cut_at_heading(
                &self,
                Parameters(query): Parameters<Query>,
            ) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes that match a query,
            /// newest first.
            ///
            /// An empty list when none match.
            #[tool]
            fn paragraphs(&self) -> Result<Json<Answer>, Error> {
                not_called()
            }

            /**
             * Return one note,
             * from a block comment.
             */
            #[tool(annotations(read_only_hint = true))]
            fn block_comment(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return the notes whose text matches:
            /// ```text
            /// plan*
            /// ```
            #[tool(title = "Search")]
            fn fenced(&self) -> Result<String, Error> {
                not_called()
            }
        }
    }
}

#[test]
fn a_doc_comment_is_cut_at_its_first_heading_and_reflowed_by_design() {
    let rmcp = by_name(by_design::with_rmcp::tools());
    let outcome = by_name(by_design::with_outcome::tools());
    // Each tool: its description under rmcp's #[tool], then under
    // outcome_runtime's.
    let descriptions = [
        (
            "cut_at_heading",
            "Return the notes that match a query.\n# Examples\n\
             `search {\"text\": \"plan\"}` lists the plan.",
            "Return the notes that match a query.",
        ),
        (
            "paragraphs",
            "Return the notes that match a query,\nnewest first.\nAn empty list when none match.",
            "Return the notes that match a query, newest first.\n\nAn empty list when none match.",
        ),
        (
            "block_comment",
            // rmcp keeps the comment's indentation and its `*` margin.
            "* Return one note,\n             * from a block comment.",
            "Return one note, from a block comment.",
        ),
        (
            "fenced",
            "Return the notes whose text matches:\n```text\nplan*\n```",
            "Return the notes whose text matches:\n\n```text\nplan*\n```",
        ),
    ];
    assert_eq!(
        rmcp.keys().collect::<Vec<_>>(),
        outcome.keys().collect::<Vec<_>>()
    );
    assert_eq!(rmcp.len(), descriptions.len());
    for (name, theirs, ours) in descriptions {
        assert_eq!(
            rmcp[name]["description"], theirs,
            "{name}: the description under rmcp's #[tool]"
        );
        assert_eq!(
            outcome[name]["description"], ours,
            "{name}: the description under outcome_runtime's #[tool]"
        );
        // Only the description differs.
        assert_eq!(
            without_description(&rmcp[name]),
            without_description(&outcome[name]),
            "{name}: besides the description"
        );
    }
    // The heading and all after it are what outcome_runtime leaves out.
    let whole = rmcp["cut_at_heading"]["description"].as_str().unwrap();
    let (before_heading, _) = whole.split_once("\n# ").expect("rmcp sends the heading");
    assert_eq!(outcome["cut_at_heading"]["description"], before_heading);
}

under_both! {
    /// A doc comment that another attribute follows, which rmcp reads as
    /// no doc at all: it reads the attributes in order, and each one that
    /// is not `#[doc = ..]` throws away the text read so far.
    mod doc_then_attribute {
        rmcp {}
        outcome {}
        tools {
            /// Return one note.
            #[tool]
            #[allow(clippy::unused_self)]
            fn attribute_after_doc(&self) -> Result<String, Error> {
                not_called()
            }

            /// Return one note, under another name for rustdoc.
            #[doc(alias = "note")]
            #[tool]
            fn doc_alias_after_doc(&self) -> Result<String, Error> {
                not_called()
            }
        }
    }
}

/// Not by outcome_runtime's design, but rmcp's quirk: rmcp lists these tools
/// with no description, where outcome_runtime sends the doc comment (and would
/// refuse a tool with none). If rmcp's `#[tool]` changes how it reads doc
/// attributes, this test says so.
#[test]
fn a_doc_comment_that_another_attribute_follows_is_lost_under_rmcp_only() {
    let rmcp = by_name(doc_then_attribute::with_rmcp::tools());
    let outcome = by_name(doc_then_attribute::with_outcome::tools());
    for (name, doc) in [
        ("attribute_after_doc", "Return one note."),
        (
            "doc_alias_after_doc",
            "Return one note, under another name for rustdoc.",
        ),
    ] {
        assert_eq!(rmcp[name].get("description"), None, "{name} under rmcp");
        assert_eq!(outcome[name]["description"], doc, "{name} under outcome");
        assert_eq!(
            without_description(&rmcp[name]),
            without_description(&outcome[name]),
            "{name}: besides the description"
        );
    }
}

under_both! {
    /// A doc comment, then an included doc: rmcp joins the two with a line
    /// break, the comment trimmed.
    mod doc_and_included_doc {
        rmcp {}
        outcome {}
        tools {
            /// Return the notes.
            #[doc = include_str!("../fixtures/included_description.txt")]
            #[tool]
            fn doc_then_included(&self) -> Result<String, Error> {
                not_called()
            }
        }
    }
}

#[test]
fn a_doc_comment_and_an_included_doc_are_joined_as_rmcp_joins_them() {
    assert_same_tools(
        doc_and_included_doc::with_rmcp::tools(),
        doc_and_included_doc::with_outcome::tools(),
        &["doc_then_included"],
    );
}
