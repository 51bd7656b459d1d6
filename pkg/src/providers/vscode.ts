// VS Code's language model API (`@types/vscode`: `LanguageModelChatMessage` and its parts).
// Parts are classes: the messages are read by their fields and written with the host's own
// `vscode` module, so an extension gets real instances back. Results go in the User
// message right after their calls, first; there is no system role, so the system prompt
// and the pinned texts open the first User message. VS Code reports no usage: hosts pass
// `{ inputTokens }` from `LanguageModelChat.countTokens`.
import { argumentError } from '../errors/index.js';
import { isObject, type Bag } from '../core/read.js';
import type { VscodeLanguageModelApi } from '../context/types.js';
import {
  type Adapter, type NeutralMessage, type NeutralPart, type Plan, Kind, OPAQUE_TOKENS, Role, bag, count, json, shapeError, intern, slot } from './neutral.js';

const CLASSES = ['LanguageModelChatMessage', 'LanguageModelChatMessageRole', 'LanguageModelTextPart', 'LanguageModelToolCallPart', 'LanguageModelToolResultPart'] as const;

function readPart(p: unknown, field: string, path: string): NeutralPart {
  const part = bag(field, p);
  if (typeof part.value === 'string' && !('callId' in part)) return { kind: Kind.Text, text: part.value, label: '', path };
  if (typeof part.callId === 'string' && typeof part.name === 'string' && 'input' in part) {
    return { kind: Kind.Call, text: json(part.input), label: part.name, id: part.callId, path };
  }
  if (typeof part.callId === 'string' && Array.isArray(part.content)) {
    const output = part.content.map((c) => (isObject(c) && typeof c.value === 'string' ? c.value : '[data]')).join('\n');
    return { kind: Kind.Result, text: output, raw: output, label: '', id: part.callId, path, idPath: intern(`${path}.callId`) };
  }
  // Data, prompt-tsx and proposed parts pass through.
  return { kind: Kind.Opaque, text: '', label: part.constructor?.name ?? 'part', path, tokens: OPAQUE_TOKENS };
}

/** The adapter for one extension's `vscode` module. */
export function vscodeAdapter(api: unknown): Adapter {
  if (!isObject(api) && typeof api !== 'function') {
    throw argumentError(TypeError, 'options.vscode', "must be the extension's vscode module (import * as vscode from 'vscode'), for format 'vscode'");
  }
  for (const name of CLASSES) {
    if ((api as Bag)[name] === undefined) throw argumentError(TypeError, `options.vscode.${name}`, "must be there: pass the extension's vscode module");
  }
  const vscode = api as unknown as VscodeLanguageModelApi;
  const { User, Assistant } = vscode.LanguageModelChatMessageRole;
  // The parts are the module's own, built here or passed through from the host.
  const message = (role: number, content: unknown[], name?: string) => new vscode.LanguageModelChatMessage(role, content as never[], name);
  const resultPart = (callId: string, content: unknown[]) => new vscode.LanguageModelToolResultPart(callId, content as never[]);
  const textPart = (value: string) => new vscode.LanguageModelTextPart(value);
  const isResult = (p: unknown) => isObject(p) && typeof p.callId === 'string' && Array.isArray(p.content);
  /** Parts shown as `shown` says; `drop`: a `null` part is left out (else kept). */
  const shownParts = (parts: unknown[], shown: ReadonlyArray<string | null | undefined>, drop: boolean): unknown[] => parts.flatMap((p, i) => {
    const s = shown[i];
    if (s === null) return drop ? [] : [p];
    if (s === undefined) return [p];
    return isResult(p) ? [resultPart((p as Bag).callId as string, [textPart(s)])] : [textPart(s)];
  });

  return {
    format: 'vscode',
    framing: { message: 3, part: 1 },

    read(m, field) {
      const msg = bag(field, m);
      const role = msg.role === User ? Role.User : msg.role === Assistant ? Role.Assistant : msg.role === 3 ? Role.System : undefined;
      if (role === undefined) throw shapeError(`${field}.role`, 'LanguageModelChatMessageRole.User or .Assistant', msg.role);
      if (!Array.isArray(msg.content)) throw shapeError(`${field}.content`, 'an array of parts', msg.content);
      return { role, parts: msg.content.map((p, i) => readPart(p, `${field}.content[${i}]`, slot('content', i))), source: m };
    },

    write(plan: Plan) {
      const out: Array<{ role: number; content: unknown[]; name?: string; fresh: boolean; source?: unknown }> = [];
      const push = (role: number, content: unknown[], source?: unknown, name?: string) => {
        const prev = out[out.length - 1];
        if (prev && prev.role === role) {
          const merged = [...prev.content, ...content];
          // Results come first in a User message.
          if (role === User) merged.sort((a, b) => Number(isResult(b)) - Number(isResult(a)));
          out[out.length - 1] = { role, content: merged, name: prev.name, fresh: true };
        } else {
          out.push({ role, content, name, fresh: source === undefined, source });
        }
      };
      // No system role: the fixed texts, then the summary, open the first user message.
      const texts = (list: Array<string | undefined>) => list.filter((t): t is string => t !== undefined && t !== '');
      const fixed = texts([plan.system, ...plan.pinned]);
      if (fixed.length) push(User, fixed.map(textPart));
      const folded = () => {
        const list = texts([plan.summary, plan.leftOut ? plan.leftOutText : undefined]);
        if (list.length) push(User, list.map(textPart));
      };
      let pending: unknown[] = [];
      plan.messages.forEach((pm, i) => {
        if (i === plan.summaryAt) folded();
        const source = pm.source as Bag;
        const role = source.role as number;
        const parts = source.content as unknown[];
        const changed = pm.shown.some((s) => s !== undefined);
        let content = parts;
        if (changed) content = shownParts(parts, pm.shown, true);
        if (pending.length && role === User) {
          content = [...pending, ...content];
          pending = [];
          push(role, content, undefined, source.name as string | undefined);
        } else {
          if (pending.length) {
            push(User, pending);
            pending = [];
          }
          push(role, content, changed ? undefined : source, source.name as string | undefined);
        }
        pending = pm.unanswered.map((c) => resultPart(c.id, [textPart(plan.unansweredText)]));
      });
      if (plan.summaryAt >= plan.messages.length) folded();
      if (pending.length) push(User, pending);
      if (out.length && out[0].role !== User) out.unshift({ role: User, content: [textPart(plan.leftOutText)], fresh: true });
      return { messages: out.map((m) => (m.fresh || m.source === undefined ? message(m.role, m.content, m.name) : m.source)) };
    },

    rewrite(source: unknown, _neutral: NeutralMessage, shown: ReadonlyArray<string | null | undefined>) {
      const m = source as Bag;
      return message(m.role as number, shownParts(m.content as unknown[], shown, false), m.name as string | undefined);
    },

    reminder(text: string) {
      return message(User, [textPart(text)]);
    },

    usage(usage, field) {
      const u = bag(field, usage);
      return { input: count(`${field}.inputTokens`, u.inputTokens) };
    },

    // `LanguageModelChatTool`: an interface, a plain object.
    tool: (spec) => ({ name: spec.name, description: spec.description, inputSchema: spec.parameters }),

    toolCall(call, field) {
      const c = bag(field, call);
      if (typeof c.callId !== 'string' || typeof c.name !== 'string') throw shapeError(field, 'a LanguageModelToolCallPart', call);
      return { id: c.callId, name: c.name, input: c.input };
    },

    toolResult: (call, output) => message(User, [resultPart(call.id, [textPart(output)])]),

    plain(m, field) {
      const msg = m as Bag;
      const part = (p: unknown, at: string): unknown => {
        const b = p as Bag;
        if (typeof b.value === 'string' && !('callId' in b)) return { value: b.value };
        if (typeof b.callId === 'string' && typeof b.name === 'string' && 'input' in b) return { callId: b.callId, name: b.name, input: b.input };
        if (typeof b.callId === 'string' && Array.isArray(b.content)) return { callId: b.callId, content: b.content.map((c, i) => part(c, `${at}.content[${i}]`)) };
        throw argumentError(TypeError, at, `is a ${b?.constructor?.name ?? 'part'}, which a snapshot or a session cannot keep as JSON data: only text, tool call and tool result parts`);
      };
      const content = (msg.content as unknown[]).map((p, i) => part(p, `${field}.content[${i}]`));
      return msg.name === undefined ? { role: msg.role, content } : { role: msg.role, content, name: msg.name };
    },

    revive(data) {
      const msg = data as Bag;
      const part = (p: unknown): unknown => {
        const b = p as Bag;
        if (typeof b.callId === 'string' && typeof b.name === 'string' && 'input' in b) return new vscode.LanguageModelToolCallPart(b.callId, b.name, b.input as object);
        if (typeof b.callId === 'string' && Array.isArray(b.content)) return resultPart(b.callId, b.content.map(part));
        return textPart(String(b.value));
      };
      return message(msg.role as number, Array.isArray(msg.content) ? msg.content.map(part) : [], msg.name as string | undefined);
    },
  };
}
