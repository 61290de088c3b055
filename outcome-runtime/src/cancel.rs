//! What ends a call early: the client's cancel of a request, or a task's
//! own.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};

/// What ends a call early: the client's cancel, or a task's.
pub(crate) trait Cancellation: Future<Output = ()> {
    /// Called on the call's first poll, before the tool's route takes the
    /// request's context with its token, for a call whose body may wait.
    fn arm(self: Pin<&mut Self>, token: &CancellationToken);
}

/// The client's cancel of a call. rmcp only flags a cancelled request, and
/// the body would run on; this waits for the flag. Armed with the request's
/// token only for a call whose body may wait: one that runs whole at its
/// first poll, or has no tool, answers before any cancel could be heard,
/// and then this never completes.
pub(crate) struct ClientCancel {
    token: Option<CancellationToken>,
    // Made when the call first waits, and boxed: a call that answers at
    // its first poll never registers with the token, and its future does
    // not carry the wait's room.
    wait: Option<Pin<Box<WaitForCancellationFutureOwned>>>,
}

impl ClientCancel {
    pub(crate) fn new() -> Self {
        ClientCancel {
            token: None,
            wait: None,
        }
    }
}

impl Cancellation for ClientCancel {
    fn arm(self: Pin<&mut Self>, token: &CancellationToken) {
        self.get_mut().token = Some(token.clone());
    }
}

impl Future for ClientCancel {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = self.get_mut();
        if let Some(token) = this.token.take() {
            this.wait = Some(Box::pin(token.cancelled_owned()));
        }
        match &mut this.wait {
            Some(wait) => wait.as_mut().poll(cx),
            None => Poll::Pending,
        }
    }
}

pin_project_lite::pin_project! {
    /// A task's own cancel, which it hands over ready to wait on.
    pub(crate) struct TaskCancel<C> {
        #[pin]
        cancelled: C,
    }
}

impl<C> TaskCancel<C> {
    /// Waits on `cancelled`.
    pub(crate) fn new(cancelled: C) -> Self {
        TaskCancel { cancelled }
    }
}

impl<C: Future<Output = ()>> Cancellation for TaskCancel<C> {
    fn arm(self: Pin<&mut Self>, _: &CancellationToken) {}
}

impl<C: Future<Output = ()>> Future for TaskCancel<C> {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.project().cancelled.poll(cx)
    }
}
