//! 2,000 calls at once on a multi-thread runtime: the server's work moves
//! between threads, and still every call is answered once, with its
//! outcome, and the log holds exactly one `tool_failed` per fault.

use outcome_runtime::testing::{LogCapture, connect};
use outcome_tests::mixed::{self, Mixed};

const CALLS: usize = 2_000;

#[test]
fn two_thousand_concurrent_calls_on_worker_threads() {
    // The records of every worker thread: a process-wide subscriber, which
    // is why this test has a binary of its own.
    let capture = LogCapture::new();
    tracing::subscriber::set_global_default(capture.clone()).unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = connect(Mixed, ()).await.unwrap();
        client.list_all_tools().await.unwrap();
        capture.take();
        assert_eq!(mixed::run(&client, CALLS, CALLS).await, CALLS);
    });
    drop(runtime);
    mixed::check_records(&capture.take(), CALLS);
}
