// VS Code's language model API (`@types/vscode`: `LanguageModelChatMessage` and its parts).
// Parts are classes: the messages are read by their fields and written with the host's own
// `vscode` module, so an extension gets real instances back. Results go in the User
// message right after their calls, first; there is no system role, so the system prompt
// and the pinned texts open the first User message. An image (`LanguageModelDataPart`) is
// a part of its own, in a message or in a tool result. VS Code reports no usage: hosts pass
// `{ inputTokens }` from `LanguageModelChat.countTokens`.
import { argumentError } from '../../errors/index.js';
import { isObject, type Bag } from '../../core/read.js';
import { decodeBase64, encodeBase64 } from '../../core/base64.js';
import type { VscodeLanguageModelApi } from '../../core/types.js';
import { base64Of, mediaPart } from '../media.js';
import {
  type Adapter, type NeutralMessage, type NeutralPart, type Plan, Kind, OPAQUE_TOKENS, Role, bag, count, json, shapeError, intern, slot } from '../neutral.js';

const CLASSES = ['LanguageModelChatMessage', 'LanguageModelChatMessageRole', 'LanguageModelTextPart', 'LanguageModelToolCallPart', 'LanguageModelToolResultPart'] as const;

type Shown = string | null | undefined;

const isData = (p: Bag) => p.data instanceof Uint8Array && typeof p.mimeType === 'string';

/** A data part's bytes as text: JSON and text data are read as what they say. */
function dataText(p: Bag): string | undefined {
  const type = p.mimeType as string;
  if (!(type.startsWith('text/') || type === 'application/json')) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(p.data as Uint8Array);
  } catch {
    return undefined;
  }
}

/** A data part: an image or a PDF is a part of its own (inside the result of call `id`), text data is text, the rest passes through. */
function dataPart(p: Bag, path: string, id?: string): NeutralPart {
  const type = p.mimeType as string;
  if (type.startsWith('image/')) return mediaPart({ kind: 'image', mediaType: type, data: p.data as Uint8Array }, path, id);
  if (type === 'application/pdf') return mediaPart({ kind: 'document', mediaType: type, data: p.data as Uint8Array }, path, id);
  const text = dataText(p);
  // `cache_control` and other markers of a provider's: a few tokens, passed through.
  return text !== undefined ? { kind: Kind.Text, text, label: '', path } : { kind: Kind.Opaque, text: '', label: type, path, tokens: Math.ceil((p.data as Uint8Array).length / 4) };
}

function readPart(p: unknown, field: string, path: string, k: number): NeutralPart[] {
  const part = bag(field, p);
  const at = (n: NeutralPart): NeutralPart => ({ ...n, block: k });
  if (typeof part.value === 'string' && !('callId' in part)) return [at({ kind: Kind.Text, text: part.value, label: '', path })];
  if (typeof part.callId === 'string' && typeof part.name === 'string' && 'input' in part) {
    return [at({ kind: Kind.Call, text: json(part.input), label: part.name, id: part.callId, path })];
  }
  if (typeof part.callId === 'string' && Array.isArray(part.content)) {
    const id = part.callId;
    const lines: string[] = [];
    const media: NeutralPart[] = [];
    part.content.forEach((c, i) => {
      if (isObject(c) && typeof c.value === 'string') lines.push(c.value);
      else if (isObject(c) && isData(c)) {
        const d = dataPart(c, intern(`${path}.content[${i}]`), id);
        if (d.media) media.push({ ...d, block: k, inner: i });
        else lines.push(d.text || `[${d.label}]`);
      } else lines.push('[data]');
    });
    const output = lines.join('\n');
    return [at({ kind: Kind.Result, text: output, raw: output, label: '', id, path, idPath: intern(`${path}.callId`) }), ...media];
  }
  if (isData(part)) return [at(dataPart(part, path))];
  // Prompt-tsx and proposed parts pass through, counted as the JSON they are.
  return [at({ kind: Kind.Opaque, text: '', label: part.constructor?.name ?? 'part', path, tokens: Math.ceil(json(part).length / 4) || OPAQUE_TOKENS })];
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
  const Data = vscode.LanguageModelDataPart;
  const isResult = (p: unknown) => isObject(p) && typeof p.callId === 'string' && Array.isArray(p.content);

  /** A tool result's content with its own text shown as `own`, its images as `inner` says. */
  const shownResult = (p: Bag, own: Shown, inner: ReadonlyMap<number, Shown>) => {
    const content: unknown[] = [];
    if (typeof own === 'string') content.push(textPart(own));
    (p.content as unknown[]).forEach((c, i) => {
      if (!inner.has(i) && typeof own === 'string') return;
      const s = inner.get(i);
      content.push(typeof s === 'string' ? textPart(s) : c);
    });
    return resultPart(p.callId as string, content);
  };

  /** Parts shown as `shown` says; `drop`: a `null` part is left out (else kept). */
  const shownParts = (source: unknown[], parts: readonly NeutralPart[], shown: readonly Shown[], drop: boolean): unknown[] => {
    const out: unknown[] = [];
    let n = 0;
    source.forEach((p, b) => {
      const from = n;
      while (n < parts.length && (parts[n].block ?? n) === b) n++;
      const mine = shown.slice(from, n);
      if (mine.every((s) => s === undefined)) out.push(p);
      else if (mine[0] === null) {
        if (!drop) out.push(p);
      } else if (isResult(p)) {
        const inner = new Map<number, Shown>();
        parts.slice(from, n).forEach((q, j) => {
          if (q.inner !== undefined) inner.set(q.inner, mine[j]);
        });
        out.push(shownResult(p as Bag, parts[from].inner === undefined ? mine[0] : undefined, inner));
      } else out.push(textPart(mine[0] as string));
    });
    return out;
  };

  return {
    format: 'vscode',
    framing: { message: 3, part: 1 },

    read(m, field) {
      const msg = bag(field, m);
      const role = msg.role === User ? Role.User : msg.role === Assistant ? Role.Assistant : msg.role === 3 ? Role.System : undefined;
      if (role === undefined) throw shapeError(`${field}.role`, 'LanguageModelChatMessageRole.User or .Assistant', msg.role);
      if (!Array.isArray(msg.content)) throw shapeError(`${field}.content`, 'an array of parts', msg.content);
      return { role, parts: msg.content.flatMap((p, i) => readPart(p, `${field}.content[${i}]`, slot('content', i), i)), source: m };
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
        if (changed) content = shownParts(parts, pm.neutral.parts, pm.shown, true);
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

    rewrite(source: unknown, neutral: NeutralMessage, shown: ReadonlyArray<Shown>) {
      const m = source as Bag;
      return message(m.role as number, shownParts(m.content as unknown[], neutral.parts, shown, false), m.name as string | undefined);
    },

    strip(source, neutral, ks) {
      if (!Data) return source;
      const m = source as Bag;
      const empty = (p: Bag) => new Data(new Uint8Array(0), p.mimeType as string);
      const content = [...(m.content as Bag[])];
      for (const k of ks) {
        const part = neutral.parts[k];
        const b = part.block ?? k;
        const p = content[b];
        content[b] = part.inner === undefined ? (empty(p) as Bag) : (resultPart(p.callId as string, (p.content as Bag[]).map((c, i) => (i === part.inner ? empty(c) : c))) as Bag);
      }
      return message(m.role as number, content, m.name as string | undefined);
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

    toolResult(call, output, media) {
      const content: unknown[] = [textPart(output)];
      if (media?.data !== undefined && Data) content.push(new Data(decodeBase64(base64Of(media)), media.mediaType));
      return message(User, [resultPart(call.id, content)]);
    },

    // Without `LanguageModelDataPart` (VS Code before 1.105), a recalled image cannot be given.
    carriesMedia: Data !== undefined,

    plain(m, field) {
      const msg = m as Bag;
      const part = (p: unknown, at: string): unknown => {
        const b = p as Bag;
        if (typeof b.value === 'string' && !('callId' in b)) return { value: b.value };
        if (typeof b.callId === 'string' && typeof b.name === 'string' && 'input' in b) return { callId: b.callId, name: b.name, input: b.input };
        if (typeof b.callId === 'string' && Array.isArray(b.content)) return { callId: b.callId, content: b.content.map((c, i) => part(c, `${at}.content[${i}]`)) };
        if (isData(b)) return { mimeType: b.mimeType, data: encodeBase64(b.data as Uint8Array) };
        throw argumentError(TypeError, at, `is a ${b?.constructor?.name ?? 'part'}, which a snapshot or a session cannot keep as JSON data: only text, tool call, tool result and data parts`);
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
        if (typeof b.mimeType === 'string' && typeof b.data === 'string' && Data) return new Data(decodeBase64(b.data), b.mimeType);
        return textPart(String(b.value));
      };
      return message(msg.role as number, Array.isArray(msg.content) ? msg.content.map(part) : [], msg.name as string | undefined);
    },
  };
}
