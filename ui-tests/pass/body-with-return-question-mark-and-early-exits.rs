use outcome_runtime::{ToolError, quote, tool, tool_router};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::schemars;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Args {
    number: String,
}

struct Server;

#[tool_router]
impl Server {
    /// Return the number, halved.
    #[tool]
    fn halve(&self, Parameters(Args { number }): Parameters<Args>) -> Result<String, ToolError> {
        if number.is_empty() {
            return Err(ToolError::invalid(
                "The number is empty",
                "Call halve with a number",
            ));
        }
        let parsed: i64 = number.parse()?;
        let half = 'half: {
            if parsed % 2 == 0 {
                break 'half parsed / 2;
            }
            return Err(ToolError::invalid(
                format_args!("The number {} is odd", quote(&number)),
                "Call halve with an even number",
            ));
        };
        for _ in 0..3 {
            if half > 10 {
                break;
            }
        }
        let checked = u8::try_from(half)?;
        Ok(checked.to_string())
    }

    /// Return the number, doubled, later.
    #[tool]
    async fn double(
        &self,
        Parameters(Args { number }): Parameters<Args>,
    ) -> Result<String, ToolError> {
        let Ok(parsed) = number.parse::<i64>() else {
            return Err(ToolError::invalid(
                format_args!("The number {} is not a whole number", quote(&number)),
                "Call double with digits only",
            ));
        };
        let doubled = parsed
            .checked_mul(2)
            .ok_or_else(|| ToolError::fault("overflow"))?;
        Ok(doubled.to_string())
    }
}

#[tokio::main(flavor = "current_thread")]
pub async fn main() {
    let server = Server;
    let halved = server.halve(Parameters(Args { number: "8".into() }));
    assert_eq!(halved.unwrap(), "4");
    let odd = server
        .halve(Parameters(Args { number: "7".into() }))
        .unwrap_err();
    assert_eq!(
        odd.message(),
        "The number '7' is odd. Call halve with an even number."
    );
    let doubled = server
        .double(Parameters(Args {
            number: "21".into(),
        }))
        .await;
    assert_eq!(doubled.unwrap(), "42");
}
