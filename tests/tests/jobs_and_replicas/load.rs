//! Load: 10,000 `tools/call` requests, 64 in flight, through a real rmcp
//! client, half of them failing in every way a call can fail. Every call is
//! answered with its outcome, and the log holds exactly one `tool_failed`
//! per fault and no ERROR for anything else.

use outcome_runtime::testing::{LogCapture, connect};
use outcome_tests::mixed::{self, Mixed};

const CALLS: usize = 10_000;
const IN_FLIGHT: usize = 64;

#[tokio::test]
async fn ten_thousand_calls_each_end_in_their_outcome() {
    let capture = LogCapture::new();
    let _guard = capture.set_default();
    let client = connect(Mixed, ()).await.unwrap();
    client.list_all_tools().await.unwrap();
    capture.take();

    assert_eq!(mixed::run(&client, CALLS, IN_FLIGHT).await, CALLS);
    mixed::check_records(&capture.take(), CALLS);
}
