// Claude Code session JSONL. One API message may span several lines that share
// `message.id`; `tool_use` / `tool_result` blocks; sidechains (subagents) are skipped,
// unless the file is a sub-agent's own transcript (every record a sidechain); a
// `compact_boundary` system record and the `isCompactSummary` user message mark a
// compaction; `message.usage` gives the input tokens (input + cache read + cache creation).
import { claudeCache, claudeUsage } from './anthropic.js';
import type { ReplaySession } from './session.js';
import { blockText, Builder, forEachJsonLine, isBag, num, str, timeOf } from './shared.js';
import type { RawCall, RawStep } from './shared.js';

/** The `type`s of Claude Code's lines (detection). */
export const CLAUDE_LINE_TYPES = new Set([
  'user', 'assistant', 'system', 'summary', 'file-history-snapshot', 'progress', 'queue-operation', 'result',
]);

export function claudeCode(text: string, name: string): ReplaySession {
  const main = read(text, name, false);
  // A sub-agent's transcript (`subagents/agent-*.jsonl`) is all sidechain: read as it is
  // rather than as an empty session.
  return main.steps.length === 0 && text.includes('"isSidechain":true') ? read(text, name, true) : main;
}

function read(text: string, name: string, sidechain: boolean): ReplaySession {
  const b = new Builder();
  const byMessage = new Map<string, RawStep>();
  const byTool = new Map<string, RawCall>();
  forEachJsonLine(text, b.warnings, (r) => {
    if (!isBag(r) || (r.isSidechain === true && !sidechain)) return;
    if (r.type === 'system') {
      if (r.subtype === 'compact_boundary' || r.subtype === 'microcompact_boundary') {
        const meta = isBag(r.compactMetadata) ? r.compactMetadata : isBag(r.microcompactMetadata) ? r.microcompactMetadata : {};
        b.compact(undefined, num(meta.preTokens));
      }
      return;
    }
    if ((r.type !== 'user' && r.type !== 'assistant') || !isBag(r.message)) return;
    const m = r.message;
    const content = m.content;
    if (r.type === 'assistant') {
      if (m.model === '<synthetic>') return; // written by the CLI, not a model call
      const id = typeof m.id === 'string' ? m.id : undefined;
      let step = id === undefined ? undefined : byMessage.get(id);
      if (!step) {
        step = b.step();
        if (id !== undefined) byMessage.set(id, step);
        step.tokens = claudeUsage(m.usage);
        step.cache = claudeCache(m.usage);
        step.time = timeOf(r.timestamp);
      }
      for (const block of Array.isArray(content) ? content : [{ type: 'text', text: str(content) }]) {
        if (!isBag(block)) continue;
        if (block.type === 'text' && typeof block.text === 'string' && block.text) step.text.push(block.text);
        else if (block.type === 'thinking' && typeof block.thinking === 'string' && block.thinking) step.text.push(block.thinking);
        else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
          const toolId = str(block.id);
          if (toolId && byTool.has(toolId)) continue; // the same block logged twice
          const call = b.call(step, block.name, block.input);
          if (toolId) byTool.set(toolId, call);
        } else if (typeof block.type === 'string' && block.type.endsWith('_tool_result') && typeof block.tool_use_id === 'string') {
          const call = byTool.get(block.tool_use_id); // a server tool's result, in the model's own message
          if (call) call.result = { status: 'success', output: blockText(block.content) };
        }
      }
      return;
    }
    if (r.isCompactSummary === true) {
      b.compact(blockText(content));
      return;
    }
    if (typeof content === 'string') {
      b.input(content);
      return;
    }
    if (!Array.isArray(content)) return;
    for (const block of content) {
      if (!isBag(block)) continue;
      if (block.type === 'tool_result') {
        const call = byTool.get(str(block.tool_use_id));
        if (call) call.result = { status: block.is_error === true ? 'error' : 'success', output: blockText(block.content) };
        else b.orphan();
      } else if (block.type === 'text' && typeof block.text === 'string') {
        b.input(block.text);
      } else if (block.type === 'image' || block.type === 'document') {
        b.input(`[${block.type}]`);
      }
    }
  });
  return b.finish(name, 'claude-code', 'claude-code');
}
