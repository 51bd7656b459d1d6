//! The request a plan makes, as a provider checks it: every call with its result.

use devs_context_rules::context::Kind;
use devs_context_rules::context::render::{Emit, Plan};

use super::host::Host;

impl Host {
    /// What pairs a call and its result: the call's id, or, where the provider pairs by
    /// name and order (Gemini's id-less ones), the call the rules paired them by.
    fn pair_key(&self, i: usize, k: usize) -> Option<String> {
        let p = self.part(i, k, "the plan");
        if !matches!(p.kind, Kind::Call | Kind::ServerCall | Kind::Result) {
            return None;
        }
        if let Some(id) = &p.id {
            return Some(id.clone());
        }
        let c = self.m.history.messages[i].parts[k].call? as usize;
        Some(match self.call_ids.get(c) {
            Some(id) if !id.is_empty() => id.clone(),
            _ => format!("#{c}"),
        })
    }

    /// The request the plan makes pairs every call with its result, by their ids as the
    /// provider does: a client call's result is sent, or its marked one; a result's call is
    /// sent. A provider refuses it otherwise.
    pub fn check_pairs(&self, plan: &Plan) {
        let mut calls = std::collections::BTreeMap::new();
        let mut results = std::collections::BTreeSet::new();
        for e in &plan.emits {
            let Emit::Message {
                index, unanswered, ..
            } = e
            else {
                continue;
            };
            for &c in unanswered {
                let id = &self.call_ids[c as usize];
                results.insert(if id.is_empty() {
                    format!("#{c}")
                } else {
                    id.clone()
                });
            }
            let Some(Some(parts)) = self.messages.get(*index) else {
                continue;
            };
            for (k, p) in parts.iter().enumerate() {
                let Some(id) = self.pair_key(*index, k) else {
                    continue;
                };
                let id = &id;
                match p.kind {
                    Kind::Call | Kind::ServerCall => {
                        calls.insert(id.clone(), (*index, k, p.kind));
                    }
                    Kind::Result => {
                        results.insert(id.clone());
                    }
                    _ => {}
                }
            }
        }
        for e in &plan.emits {
            let Emit::Message { index, .. } = e else {
                continue;
            };
            let Some(Some(parts)) = self.messages.get(*index) else {
                continue;
            };
            for (k, p) in parts.iter().enumerate() {
                if p.kind == Kind::Result
                    && let Some(id) = &self.pair_key(*index, k)
                {
                    assert!(
                        calls.contains_key(id),
                        "invalid: the result of {id} (message {index} part {k}) is sent without its call"
                    );
                }
            }
        }
        for (id, (i, k, kind)) in calls {
            assert!(
                kind == Kind::ServerCall || results.contains(&id),
                "invalid: call {id} (message {i} part {k}) is sent with no result"
            );
        }
    }
}
