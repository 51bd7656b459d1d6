/**
 * `@devs/context/replay`: replay a recorded agent session (Claude Code, Codex CLI, Cline,
 * OpenHands, SWE-agent, mini-SWE-agent, Gemini CLI, Moatless, Aider, OpenAI or Anthropic
 * messages, SAOP JSONL) through
 * this package's rules, and draw what each rule did. The engine behind
 * `devs-context replay` and the www/ page.
 * @example
 * import { readFileSync } from 'node:fs';
 * import { parseTranscript, replay, DEFAULT_SETTINGS } from '@devs/context/replay';
 * const text = readFileSync('session.jsonl', 'utf8');
 * const [session] = parseTranscript(text, 'session.jsonl');
 * const result = await replay(session, { ...DEFAULT_SETTINGS, budget: 200_000 }, undefined);
 * result.largestPromptTokens; // ≤ 200,000
 */
export { detectFormat, parseTranscript, TRANSCRIPT_FORMATS, TranscriptFormatError } from './formats/index.js';
export type { ReplayCall, ReplaySession, ReplayStep, TranscriptFormat } from './formats/index.js';
export { DEFAULT_SETTINGS, MARKERS, replay } from './replay.js';
export type { Marker, ReplayCost, ReplayEvent, ReplayMarks, ReplayOptions, ReplayResult, ReplaySettings, ReplayTurn } from './replay.js';
export { callId, nativeFormat, providerTurns, REPLAY_FORMATS } from './messages.js';
export type { ProviderTurn, ReplayFormat } from './messages.js';
export { MARKER_INFO, render, reportHtml } from './view.js';
