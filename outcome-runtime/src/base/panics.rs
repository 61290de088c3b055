//! Catching panics: the one guard every tool body, log record and drop of
//! the tool's values runs under, and the panic hook that keeps a caught
//! panic's location (and backtrace) for its record and off stderr.
//!
//! Layer 0, with `outcome` and `message`: it names no other module, so every
//! module above can catch a panic.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::panic::{self, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::Once;
use std::task::{Context, Poll};

/// Runs `f`, catching its panic as the boundary does.
#[inline(always)]
pub(crate) fn catch<R>(f: impl FnOnce() -> R) -> Result<R, Box<dyn Any + Send>> {
    let mut f = Some(f);
    let mut value = None;
    catch_dyn(&mut || {
        if let Some(f) = f.take() {
            value = Some(f());
        }
    })?;
    // `catch_dyn` returned without a panic, so the closure ran to its end.
    value.ok_or_else(unreachable_payload)
}

/// The one place a panic is caught, shared so that each tool adds a small
/// closure, not its own unwinding machinery; the dynamic call costs a few
/// nanoseconds.
#[inline(never)]
fn catch_dyn(f: &mut dyn FnMut()) -> Result<(), Box<dyn Any + Send>> {
    install_panic_hook();
    enter();
    let caught = panic::catch_unwind(AssertUnwindSafe(f));
    leave();
    caught
}

/// [`catch`] inlined, for the request log's guard around every poll, so the
/// answer is written in place; one copy per server type, not per tool.
#[inline(always)]
pub(crate) fn catch_inline<R>(f: impl FnOnce() -> R) -> Result<R, Box<dyn Any + Send>> {
    install_panic_hook();
    enter();
    let caught = panic::catch_unwind(AssertUnwindSafe(f));
    leave();
    caught
}

#[cold]
fn unreachable_payload() -> Box<dyn Any + Send> {
    Box::new("the boundary's closure returned without running")
}

#[inline(always)]
pub(crate) fn poll_caught<F: Future + ?Sized>(
    mut future: Pin<&mut F>,
    cx: &mut Context<'_>,
) -> Result<Poll<F::Output>, Box<dyn Any + Send>> {
    let mut polled = Poll::Pending;
    catch_dyn(&mut || polled = future.as_mut().poll(cx))?;
    Ok(polled)
}

pin_project_lite::pin_project! {
    /// Ends with the payload if polling `inner` panics.
    pub(crate) struct CatchPanic<F> {
        #[pin]
        inner: F,
    }
}

impl<F> CatchPanic<F> {
    pub(crate) fn new(inner: F) -> Self {
        CatchPanic { inner }
    }
}

impl<F: Future> Future for CatchPanic<F> {
    type Output = Result<F::Output, Box<dyn Any + Send>>;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match poll_caught(self.project().inner, cx) {
            Ok(polled) => polled.map(Ok),
            Err(payload) => Poll::Ready(Err(payload)),
        }
    }
}

/// What the panic hook saw of a panic inside a boundary.
struct PanicSite {
    /// Matches the site to the caught payload: a panic re-raised with
    /// `resume_unwind` runs no hook and must not take this site.
    message: Option<String>,
    location: Option<String>,
    backtrace: Option<String>,
    /// Shown by the previous hook, since nothing would record `tool_failed`.
    shown: bool,
}

/// How many panic sites a thread keeps while they wait to be caught: the
/// first (the root cause, should the process abort) and the newest.
const SITES: usize = 8;

thread_local! {
    /// How many boundaries are running a body on this thread right now.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// Runtime records being written on this thread: a panic there is the
    /// subscriber's.
    static IN_LOG: Cell<u32> = const { Cell::new(0) };
    /// Checked on every entry, so that a site left by a panic user code
    /// caught itself is never reported for a later one.
    static SITE_PENDING: Cell<bool> = const { Cell::new(false) };
    /// Panics inside a boundary not caught yet, oldest first.
    static PENDING: RefCell<Vec<PanicSite>> = const { RefCell::new(Vec::new()) };
}

#[inline(always)]
fn enter() {
    DEPTH.with(|depth| depth.set(depth.get() + 1));
    if SITE_PENDING.with(Cell::get) {
        forget_sites();
    }
}

#[cold]
fn forget_sites() {
    SITE_PENDING.with(|pending| pending.set(false));
    PENDING.with(|sites| sites.borrow_mut().clear());
}

#[inline(always)]
fn leave() {
    DEPTH.with(|depth| depth.set(depth.get() - 1));
}

/// Runs `handle`, which hands the subscriber a record or span, so that a
/// panicking subscriber cannot take the call down; `None` if it panicked.
pub(crate) fn guard_subscriber<T>(handle: impl FnOnce() -> T) -> Option<T> {
    install_panic_hook();
    IN_LOG.with(|in_log| in_log.set(in_log.get() + 1));
    let handled = panic::catch_unwind(AssertUnwindSafe(handle));
    IN_LOG.with(|in_log| in_log.set(in_log.get() - 1));
    match handled {
        Ok(value) => Some(value),
        Err(payload) => {
            drop_quietly(payload);
            None
        }
    }
}

/// Drops a panic payload; its own drop may panic, and it is a value the
/// tool chose, so that is kept out of the server.
pub(crate) fn drop_quietly(payload: Box<dyn Any + Send>) {
    if let Err(again) = panic::catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        // A payload whose drop panics with a payload whose drop panics:
        // leaking it is the only way to stop.
        std::mem::forget(again);
    }
}

/// Installs, once, a hook that keeps a boundary's panics off stderr and
/// their location (and backtrace, per `RUST_BACKTRACE`) for `tool_failed`.
///
/// Other panics go to the previous hook: outside a boundary, in a
/// subscriber, and those no boundary can catch (while unwinding, or under
/// `panic = "abort"`), which first show the pending ones so an abort never
/// hides its root cause. So does a boundary's panic that nothing would
/// record, so it is never silent.
#[inline(always)]
fn install_panic_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if aborts(info) {
                show_pending();
                return previous(info);
            }
            if IN_LOG.with(Cell::get) > 0 || DEPTH.with(Cell::get) == 0 {
                return previous(info);
            }
            let shown = !faults_recorded();
            if shown {
                previous(info);
            }
            let backtrace = std::backtrace::Backtrace::capture();
            let site = PanicSite {
                message: text_of(info.payload()),
                location: info.location().map(ToString::to_string),
                backtrace: (backtrace.status() == std::backtrace::BacktraceStatus::Captured)
                    .then(|| backtrace.to_string()),
                shown,
            };
            PENDING.with(|sites| {
                let mut sites = sites.borrow_mut();
                if sites.len() >= SITES {
                    // Keep the root cause; drop the oldest after it.
                    sites.remove(1);
                }
                sites.push(site);
            });
            SITE_PENDING.with(|pending| pending.set(true));
        }));
    });
}

/// Whether the process aborts after this panic. std has no stable way to
/// ask, so the language's own aborting panics are known by their texts.
fn aborts(info: &panic::PanicHookInfo<'_>) -> bool {
    cfg!(panic = "abort")
        || info
            .payload()
            .downcast_ref::<&'static str>()
            .is_some_and(|message| {
                matches!(
                    *message,
                    "panic in a destructor during cleanup"
                        | "panic in a function that cannot unwind"
                ) || message.starts_with("unsafe precondition(s) violated")
            })
}

/// Shows this thread's pending panics before an abort: the panic that
/// aborts (a `Drop`'s, while unwinding) is rarely the first to go wrong.
#[cold]
fn show_pending() {
    let Ok(sites) = PENDING.try_with(|sites| std::mem::take(&mut *sites.borrow_mut())) else {
        return;
    };
    let thread = std::thread::current();
    let name = thread.name().unwrap_or("<unnamed>");
    for site in sites.iter().filter(|site| !site.shown) {
        eprintln!(
            "thread '{name}' panicked at {}:\n{}\n(this panic was unwinding when the one below \
             aborted the process)",
            site.location.as_deref().unwrap_or("an unknown location"),
            site.message
                .as_deref()
                .unwrap_or("a panic whose payload is not text"),
        );
    }
}

pub(crate) fn described(message: String, location: Option<String>) -> String {
    match location {
        Some(location) => format!("{message} at {location}"),
        None => message,
    }
}

/// The location and backtrace of the newest pending panic with `message`,
/// forgetting every pending site.
pub(crate) fn take_site(message: &str) -> (Option<String>, Option<String>) {
    let sites = PENDING.with(|sites| std::mem::take(&mut *sites.borrow_mut()));
    SITE_PENDING.with(|pending| pending.set(false));
    sites
        .into_iter()
        .rev()
        .find(|site| site.message.as_deref().is_none_or(|m| m == message))
        .map_or((None, None), |site| (site.location, site.backtrace))
}

/// Runs the tool's own code (formatting its error, dropping its value),
/// turning a panic into its message and location.
pub(crate) fn catch_described<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    catch(f).map_err(|payload| {
        let message = panic_message(&*payload);
        let (location, _) = take_site(&message);
        drop_quietly(payload);
        described(message, location)
    })
}

pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    text_of(payload).unwrap_or_else(|| "a panic whose payload is not text".to_owned())
}

fn text_of(payload: &(dyn Any + Send)) -> Option<String> {
    if let Some(text) = payload.downcast_ref::<&'static str>() {
        Some((*text).to_owned())
    } else {
        payload.downcast_ref::<String>().cloned()
    }
}

/// Whether a `tool_failed` at ERROR would reach a subscriber.
pub(crate) fn faults_recorded() -> bool {
    tracing::enabled!(target: "outcome_runtime", tracing::Level::ERROR)
}
