//! `summarize_note` with clients that can sample: the summary when the
//! client writes one, outcome 2 when it declines.

#![allow(deprecated)] // Sampling is the scenario's subject.

use notes::Notes;
use outcome_tests::Session;
use rmcp::model::{
    ClientCapabilities, ClientConfig, CreateMessageRequestParams, CreateMessageResult,
    Implementation, SamplingMessage,
};
use rmcp::service::{RequestContext, RoleClient};
use rmcp::{ClientHandler, ErrorData};
use serde_json::json;

/// A client that can sample, and answers with `reply`.
struct Sampler {
    reply: Result<&'static str, &'static str>,
}

impl ClientHandler for Sampler {
    fn get_info(&self) -> ClientConfig {
        let capabilities = ClientCapabilities::builder().enable_sampling().build();
        ClientConfig::new(capabilities, Implementation::new("sampler", "1.0.0"))
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let prompt = params.messages[0].content.first().and_then(|c| c.as_text());
        assert!(prompt.unwrap().text.contains("# Plan"));
        match self.reply {
            Ok(text) => Ok(CreateMessageResult::new(
                SamplingMessage::assistant_text(text),
                "test-model".to_owned(),
            )),
            Err(message) => Err(ErrorData::invalid_request(message, None)),
        }
    }
}

async fn summarize(reply: Result<&'static str, &'static str>) -> (serde_json::Value, Vec<String>) {
    let session = Session::connect(Notes::new(false), Sampler { reply }).await;
    let call = session
        .call("summarize_note", json!({ "path": "plan.md" }))
        .await;
    let events = call
        .records
        .iter()
        .filter(|r| r.target == "outcome_runtime")
        .map(|r| {
            format!(
                "{} {} {}",
                r.level,
                r.name(),
                r.field("outcome").unwrap_or("")
            )
        })
        .collect();
    (serde_json::to_value(call.ok()).unwrap(), events)
}

#[tokio::test]
async fn a_client_that_samples_gets_its_summary_back() {
    let (result, events) = summarize(Ok("A short plan.")).await;
    assert_eq!(
        result["structuredContent"],
        json!({ "summary": "A short plan." })
    );
    assert_eq!(events, ["INFO tool_call_completed result"]);
}

#[tokio::test]
async fn a_client_that_declines_is_told_what_to_do_instead() {
    let (result, events) = summarize(Err("the user declined")).await;
    assert_eq!(result["isError"], json!(true));
    assert_eq!(
        result["content"][0]["text"],
        json!(
            "The client declined to write the summary. Read the note with read_note and \
             summarize it yourself, or ask the user to allow sampling."
        )
    );
    assert_eq!(events, ["INFO tool_call_failed invalid"]);
}
