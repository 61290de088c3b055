//! What ends a call early.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};

/// What ends a call early: the client's cancel, or a task's.
pub(crate) trait Cancellation: Future<Output = ()> {
    /// Called at the first poll of a body that may wait, before the route
    /// takes the request's context and its token.
    fn arm(self: Pin<&mut Self>, token: &CancellationToken);
}

/// The client's cancel: rmcp only flags the request, and the body would run
/// on. Unarmed (a call that answers at its first poll, or has no tool), it
/// never completes.
pub(crate) struct ClientCancel {
    token: Option<CancellationToken>,
    // Made at the first wait, and boxed: a call that answers at once never
    // registers with the token, nor carries the wait's room.
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
