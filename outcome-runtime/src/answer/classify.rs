//! Which faults heal themselves: those where waiting is the whole fix (an
//! upstream timeout, HTTP 429), logged at WARNING with the model told to
//! retry; other faults are the operator's, at ERROR. Recognition goes by
//! type, never by text, over the whole source chain: `io::ErrorKind::TimedOut`,
//! tokio's `Elapsed`, a `reqwest::Error` that timed out or has status 429
//! (feature `reqwest`), and any type registered with [`recognize_transient`].

use std::error::Error;
use std::fmt::{self, Write};
use std::sync::RwLock;

use crate::base::bounds::RECORD_LIMIT;

/// An error type that can say whether it heals itself.
///
/// Implement it for an error of your own and register the type once with
/// [`recognize_transient`]: a value of it anywhere in a fault's source chain
/// then makes the fault heal itself when
/// [`is_transient`](Transient::is_transient) says so.
///
/// ```
/// use outcome_runtime::{Transient, recognize_transient};
///
/// #[derive(Debug)]
/// struct Status(u16);
///
/// impl std::fmt::Display for Status {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         write!(f, "upstream answered HTTP {}", self.0)
///     }
/// }
///
/// impl std::error::Error for Status {}
///
/// impl Transient for Status {
///     fn is_transient(&self) -> bool {
///         self.0 == 429 || self.0 == 503
///     }
/// }
///
/// recognize_transient::<Status>();
/// ```
pub trait Transient: Error + 'static {
    /// Whether this error goes away if the same call is made again later.
    fn is_transient(&self) -> bool;
}

type Recognizer = fn(&(dyn Error + 'static)) -> bool;

static RECOGNIZERS: RwLock<Vec<Recognizer>> = RwLock::new(Vec::new());

/// Registers `E` so that faults whose source chain holds a transient `E`
/// heal themselves. Registering a type twice is harmless.
pub fn recognize_transient<E: Transient>() {
    let recognizer: Recognizer = recognize::<E>;
    let mut recognizers = RECOGNIZERS.write().unwrap_or_else(|e| e.into_inner());
    if !recognizers
        .iter()
        .any(|known| std::ptr::fn_addr_eq(*known, recognizer))
    {
        recognizers.push(recognizer);
    }
}

fn recognize<E: Transient>(error: &(dyn Error + 'static)) -> bool {
    error.downcast_ref::<E>().is_some_and(E::is_transient)
}

/// How many errors of a chain are looked at: real chains are a handful
/// deep, and a cycle or an endless chain must not hang a call.
pub(crate) const CHAIN_LIMIT: usize = 32;

/// Whether any error in the chain starting at `error` heals itself.
pub(crate) fn heals_itself(error: &(dyn Error + 'static)) -> bool {
    let recognizers = RECOGNIZERS.read().unwrap_or_else(|e| e.into_inner());
    let mut heals = false;
    walk(error, true, |error| {
        heals = is_builtin_transient(error) || recognizers.iter().any(|r| r(error));
        !heals
    });
    heals
}

/// Visits the chain, outermost first, until `visit` returns false; true if
/// it went on past [`CHAIN_LIMIT`]. An `io::Error` reports its wrapped
/// error's *source* as its own, so `into_io` visits the wrapped error too
/// (the log need not: its text is the `io::Error`'s).
fn walk<'a>(
    error: &'a (dyn Error + 'static),
    into_io: bool,
    mut visit: impl FnMut(&'a (dyn Error + 'static)) -> bool,
) -> bool {
    let mut next = Some(error);
    let mut visited = 0;
    while let Some(error) = next {
        if visited == CHAIN_LIMIT {
            return true;
        }
        visited += 1;
        if !visit(error) {
            return false;
        }
        let wrapped = error
            .downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::get_ref)
            .filter(|_| into_io);
        next = match wrapped {
            Some(inner) => Some(inner as &(dyn Error + 'static)),
            None => error.source(),
        };
    }
    false
}

fn is_builtin_transient(error: &(dyn Error + 'static)) -> bool {
    if let Some(io) = error.downcast_ref::<std::io::Error>() {
        return io.kind() == std::io::ErrorKind::TimedOut;
    }
    #[cfg(feature = "reqwest")]
    if let Some(http) = error.downcast_ref::<reqwest::Error>() {
        let status = http.status().map(|status| status.as_u16());
        return http.is_timeout() || status == Some(429);
    }
    error.is::<tokio::time::error::Elapsed>()
}

/// The chain's texts for the log, joined by `: `, bounded by
/// [`RECORD_LIMIT`] bytes and [`CHAIN_LIMIT`] errors, saying what was cut.
/// A `Display` that fails or panics is described, and the chain goes on.
pub(crate) fn chain_text(error: &(dyn Error + 'static)) -> String {
    let mut text = Bounded {
        text: String::new(),
        cut: false,
    };
    let mut first = true;
    let longer = walk(error, false, |error| {
        if !first {
            let _ = text.write_str(": ");
        }
        first = false;
        let before = text.text.len();
        let written = crate::base::panics::catch_described(|| write!(text, "{error}"));
        match written {
            Ok(Ok(())) => {}
            Ok(Err(_)) if text.cut => {}
            Ok(Err(_)) => {
                text.text.truncate(before);
                let _ = text.write_str("<an error whose Display failed>");
            }
            Err(panic) => {
                text.text.truncate(before);
                let _ = write!(text, "<an error whose Display panicked: {panic}>");
            }
        }
        !text.cut
    });
    let cut = text.cut;
    let mut text = text.text;
    if longer {
        text.push_str(&format!(
            " [cut: the chain goes on past {CHAIN_LIMIT} errors]"
        ));
    } else if cut {
        text.push_str(&format!(" [cut at {RECORD_LIMIT} bytes]"));
    }
    text
}

/// Refuses text past a little under [`RECORD_LIMIT`] bytes, stopping a
/// `Display` that would write megabytes.
struct Bounded {
    text: String,
    cut: bool,
}

impl fmt::Write for Bounded {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // Room is left for the note that says what was cut.
        let room = (RECORD_LIMIT - 128).saturating_sub(self.text.len());
        if s.len() <= room {
            self.text.push_str(s);
            return Ok(());
        }
        let mut end = room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.text.push_str(&s[..end]);
        self.cut = true;
        Err(fmt::Error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt;

    #[derive(Debug)]
    struct Wrapper(Box<dyn Error + Send + Sync>);

    impl fmt::Display for Wrapper {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("sync failed")
        }
    }

    impl Error for Wrapper {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&*self.0)
        }
    }

    #[derive(Debug)]
    struct Status(u16);

    impl fmt::Display for Status {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "status {}", self.0)
        }
    }

    impl Error for Status {}

    impl Transient for Status {
        fn is_transient(&self) -> bool {
            self.0 == 429
        }
    }

    #[test]
    fn a_timeout_deep_in_the_chain_heals_itself() {
        let timeout = std::io::Error::new(std::io::ErrorKind::TimedOut, "slow");
        let wrapped = Wrapper(Box::new(Wrapper(Box::new(timeout))));
        assert!(heals_itself(&wrapped));
        assert_eq!(chain_text(&wrapped), "sync failed: sync failed: slow");
    }

    #[test]
    fn a_tokio_timeout_heals_itself() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let elapsed = runtime
            .block_on(async {
                let never = std::future::pending::<()>();
                tokio::time::timeout(std::time::Duration::from_millis(1), never).await
            })
            .unwrap_err();
        assert!(heals_itself(&Wrapper(Box::new(elapsed))));
    }

    #[test]
    fn errors_wrapped_in_io_errors_are_seen() {
        recognize_transient::<Status>();
        assert!(heals_itself(&std::io::Error::other(Status(429))));
        let timeout = std::io::Error::new(std::io::ErrorKind::TimedOut, "slow");
        assert!(heals_itself(&std::io::Error::other(Wrapper(Box::new(
            timeout
        )))));
    }

    #[test]
    fn other_io_errors_do_not() {
        let denied = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "no");
        assert!(!heals_itself(&Wrapper(Box::new(denied))));
    }

    #[test]
    fn registered_types_are_recognized_by_their_own_answer() {
        recognize_transient::<Status>();
        recognize_transient::<Status>();
        let same = RECOGNIZERS
            .read()
            .unwrap()
            .iter()
            .filter(|r| std::ptr::fn_addr_eq(**r, recognize::<Status> as Recognizer))
            .count();
        assert_eq!(same, 1);
        assert!(heals_itself(&Wrapper(Box::new(Status(429)))));
        assert!(!heals_itself(&Wrapper(Box::new(Status(500)))));
    }

    /// How one error of a generated chain writes its text.
    #[derive(Clone, Debug)]
    enum Text {
        Plain(String),
        /// This many bytes.
        Huge(usize),
        Fails,
        Panics,
    }

    /// An error of a generated chain: its text, then the next error, or
    /// itself again once `cycle` is set.
    #[derive(Debug)]
    struct Node {
        text: Text,
        next: Option<Box<Node>>,
        cycle: bool,
    }

    impl fmt::Display for Node {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match &self.text {
                Text::Plain(text) => f.write_str(text),
                Text::Huge(bytes) => {
                    for _ in 0..bytes / 1024 {
                        f.write_str(&"z".repeat(1024))?;
                    }
                    Ok(())
                }
                Text::Fails => Err(fmt::Error),
                Text::Panics => panic!("a generated Display panicked"),
            }
        }
    }

    impl Error for Node {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            if self.cycle {
                return Some(self);
            }
            self.next.as_deref().map(|next| next as _)
        }
    }

    fn text() -> impl proptest::strategy::Strategy<Value = Text> {
        use proptest::prelude::*;
        prop_oneof![
            8 => ".{0,40}".prop_map(Text::Plain),
            1 => (0_usize..200_000).prop_map(Text::Huge),
            1 => Just(Text::Fails),
            1 => Just(Text::Panics),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(256))]

        /// Whatever the shape of the chain, its record is bounded and the
        /// walk ends.
        #[test]
        fn chains_of_any_shape_give_a_bounded_record(
            texts in proptest::collection::vec(text(), 1..80),
            cycle_at in proptest::option::of(0_usize..80),
        ) {
            let mut node: Option<Box<Node>> = None;
            for (at, text) in texts.iter().enumerate().rev() {
                node = Some(Box::new(Node {
                    text: text.clone(),
                    next: node,
                    cycle: cycle_at == Some(at),
                }));
            }
            let head = node.unwrap();
            let record = chain_text(&*head);
            proptest::prop_assert!(record.len() <= RECORD_LIMIT, "{} bytes", record.len());
            let cycle_at = cycle_at.filter(|at| *at < texts.len());
            if texts.len() > CHAIN_LIMIT || cycle_at.is_some() {
                proptest::prop_assert!(record.contains("[cut"), "{record:.200}");
            }
            let _ = heals_itself(&*head);
        }
    }
}
