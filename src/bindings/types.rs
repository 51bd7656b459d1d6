//! TypeScript declarations for the plain-object shapes the classes take and return.
//! They are emitted into the package's `.d.ts` as written here.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const SAOP_TYPES: &str = r#"
/** Structured Agent-Orchestrator Protocol envelope, schema 1.x. No other properties are allowed at any level. */
export interface SaopEnvelope {
  /** Semver of the envelope schema, e.g. "1.0.0". */
  schema_version: string;
  /** Integer >= 0, stamped by `TurnTracker.attach`. */
  turn_index: number;
  /** Non-empty. */
  agent_id: string;
  /** Non-empty. */
  phase: string;
  thought: { reasoning: string; plan: string; uncertainty?: string };
  action: { tool_name: string; arguments: Record<string, unknown> };
  observation: {
    status: 'success' | 'error' | 'timeout' | 'partial';
    output: string;
    error_detail?: string;
  };
}
"#;

#[wasm_bindgen(typescript_custom_section)]
const REFRESH_TYPES: &str = r#"
/** The TAS and PRD summaries a `ContextRefresher` re-injects. */
export interface SpecSummaries {
  tasSummary: string;
  prdSummary: string;
}

/**
 * Supplies the summaries on each refresh. Any object will do (file, DB or in-memory);
 * `getSummary` may return the summaries or a promise of them, and may throw.
 */
export interface SummaryProvider {
  getSummary(): Promise<SpecSummaries> | SpecSummaries;
}

export interface RefreshResult {
  refreshed: boolean;
  /** Present when `refreshed` is true: "[CONTEXT REFRESH]\n## TAS Summary\n…\n\n## PRD Summary\n…". */
  injectedSummary?: string;
}

export interface ContextRefresherOptions {
  /** Turns per refresh, a whole number >= 1. Default 5 ([3_MCP-TAS-089]). */
  threshold?: number;
  summaryProvider: SummaryProvider;
}
"#;

#[wasm_bindgen(typescript_custom_section)]
const TURN_TYPES: &str = r#"
/** One record of the agent log ([3_MCP-TAS-088]). */
export interface TurnLogEntry {
  turn_index: number;
  agent_id: string;
  phase: string;
  /** Strictly increasing nanosecond time within the process. */
  timestamp_ns: bigint;
}
"#;
