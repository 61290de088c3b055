//! A call's arguments against its tool's input schema: checked before the
//! body runs, and explained when serde refuses them, in `outcome_schema`'s
//! words.
//!
//! Each schema is read once into a [`Contract`] (its validator built, which
//! takes a fraction of a millisecond for a parameter type and more for a
//! large schema), kept by the schema's address (rmcp shares one `Arc` per
//! parameter type). `routes` checks only routes whose schema narrows
//! anything; the others cost nothing.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use outcome_schema::Contract;
use rmcp::model::JsonObject;

/// The contracts read so far, by the address of their schema. A contract
/// holds its schema, so the address is not reused while its entry exists;
/// entries no one else holds are pruned as the map grows.
static CONTRACTS: Mutex<Option<HashMap<usize, Arc<Contract>>>> = Mutex::new(None);

/// The contract of `schema`, read on first use.
pub(crate) fn contract(schema: &Arc<JsonObject>) -> Arc<Contract> {
    let address = Arc::as_ptr(schema) as usize;
    let mut contracts = CONTRACTS.lock().unwrap_or_else(|e| e.into_inner());
    let contracts = contracts.get_or_insert_with(HashMap::new);
    if let Some(contract) = contracts.get(&address) {
        return contract.clone();
    }
    if contracts.len() >= 64 && contracts.len().is_power_of_two() {
        // Only the map holds the contract, and only the contract its schema.
        contracts.retain(|_, contract| {
            Arc::strong_count(contract) > 1 || Arc::strong_count(contract.schema()) > 1
        });
    }
    let contract = Arc::new(Contract::new(schema.clone()));
    contracts.insert(address, contract.clone());
    contract
}

/// The message for arguments of `tool` that did not deserialize, with
/// serde's `reason` (rmcp's prefix and all).
pub(crate) fn message(
    tool: &str,
    schema: &Arc<JsonObject>,
    arguments: Option<&JsonObject>,
    reason: Option<&str>,
) -> String {
    let reason = reason.unwrap_or_default().trim();
    let reason = crate::base::rmcp_errors::without_argument_prefix(reason);
    contract(schema).explain(tool, arguments, reason)
}
