//! How deep syn would recurse to parse some tokens, measured without
//! recursion, so that a body too deep for the macro's stack is left as
//! written rather than parsed.
//!
//! A proc macro runs on the compiler's thread, with whatever stack is left
//! there, and syn parses an expression by recursion: each nested group,
//! each prefix operator (`- - x`, `!!x`), each closure (`|| || x`), each
//! right-associative operator (`a = b = c`) costs it a few kilobytes of
//! stack, unoptimized. A body that the compiler takes at any depth must not
//! make the macro overflow its stack, so before a body is parsed its
//! [`weight`] is measured, and a body heavier than [`LIMIT`] is not parsed
//! at all: the macro emits it unchanged, and skips the checks that needed
//! the parse.

use proc_macro2::{TokenStream, TokenTree};

/// The heaviest body the macros parse with syn: [`weight`] 256. Parsing a
/// body at this weight takes at most about 1.5 MB of stack in an
/// unoptimized build, within what the compiler's thread has; a heavier
/// body is emitted as written, unchecked.
pub(crate) const LIMIT: usize = 256;

/// What a group costs: a nested group costs syn more stack than a prefix
/// operator.
const GROUP: usize = 3;

/// What a `|` costs: a closure (`|| x`) costs syn more than a prefix
/// operator.
const BAR: usize = 2;

/// An upper bound on syn's recursion over `tokens`, in units of one token:
/// for every token, the tokens before it since the start of its statement
/// (or its argument or element), plus the same for each group it is in,
/// a group counted as [`GROUP`] tokens and a `|` as [`BAR`]. Inside a
/// macro call (`name!(..)`) only the groups count: syn keeps the call's
/// tokens as they are, but still reads them into its buffer by recursion.
///
/// Stops counting once the weight passes `limit`, so that measuring a
/// huge body costs no more than the limit's worth of nesting over its
/// tokens: linear in the body, without recursion.
pub(crate) fn weight(tokens: TokenStream, limit: usize) -> usize {
    struct Frame {
        tokens: proc_macro2::token_stream::IntoIter,
        /// The weight of the path to this group.
        base: usize,
        /// The tokens since the last `;` or `,` that ends a segment.
        segment: usize,
        /// Whether the segment has a `|` or `<`: a `,` there may be a
        /// closure's or a type's, inside the same expression.
        inside: bool,
        /// The two tokens before: a group after `name !` is a macro's.
        bang: bool,
        ident: bool,
        /// Whether the group is a macro call's, or inside one: only its
        /// groups count, for syn's buffer of the tokens.
        opaque: bool,
    }
    let frame = |tokens: TokenStream, base: usize, opaque: bool| Frame {
        tokens: tokens.into_iter(),
        base,
        opaque,
        segment: 0,
        inside: false,
        bang: false,
        ident: false,
    };
    let mut stack = vec![frame(tokens, 0, false)];
    let mut heaviest = 0;
    while let Some(top) = stack.last_mut() {
        let Some(token) = top.tokens.next() else {
            stack.pop();
            continue;
        };
        let macro_call = top.bang;
        top.bang = matches!(&token, TokenTree::Punct(p) if p.as_char() == '!') && top.ident;
        top.ident = matches!(&token, TokenTree::Ident(_));
        match &token {
            TokenTree::Group(_) if top.opaque => top.segment += GROUP,
            _ if top.opaque => {}
            TokenTree::Punct(punct) if punct.as_char() == ';' => {
                top.segment = 0;
                top.inside = false;
                continue;
            }
            TokenTree::Punct(punct) if punct.as_char() == ',' && !top.inside => {
                top.segment = 0;
                continue;
            }
            TokenTree::Punct(punct) if matches!(punct.as_char(), '|' | '<') => {
                top.inside = true;
                top.segment += if punct.as_char() == '|' { BAR } else { 1 };
            }
            TokenTree::Group(_) => top.segment += GROUP,
            _ => top.segment += 1,
        }
        let here = top.base + top.segment;
        heaviest = heaviest.max(here);
        if heaviest > limit {
            return heaviest;
        }
        if let TokenTree::Group(group) = token {
            let opaque = top.opaque || macro_call;
            stack.push(frame(group.stream(), here, opaque));
        }
    }
    heaviest
}
