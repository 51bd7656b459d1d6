// An Anthropic message with its parts shown as the plan says: each block whose parts are
// shown otherwise becomes a block of the same kind holding the text shown (a result's
// output, a call's shortened input), or a text block in place of an image, a document or
// a server tool's output the API will not take edited. A block the plan leaves whole is
// the host's own object.
import type { Bag } from '../../core/read.js';
import { type NeutralPart, parsedArguments } from '../neutral.js';

type Shown = string | null | undefined;

/** A message's content as blocks: a string is one text block. */
export function blocks(m: Bag): Bag[] {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Bag[]);
}

const textBlock = (text: string): Bag => ({ type: 'text', text });

/** A tool result's content with its own text shown as `own` and its images and documents as `inner` says (by their index in it). */
function resultContent(block: Bag, own: Shown, inner: ReadonlyMap<number, Shown>): unknown {
  const content = block.content;
  if (!Array.isArray(content)) return typeof own === 'string' ? own : content;
  const out: Bag[] = [];
  if (typeof own === 'string') out.push(textBlock(own));
  content.forEach((c, i) => {
    const b = c as Bag;
    const media = inner.has(i);
    if (!media && typeof own === 'string') return;
    const s = inner.get(i);
    out.push(typeof s === 'string' ? textBlock(s) : b);
  });
  return out;
}

/** A server tool's result with its output shown as `own` (its fetched document as `doc`): a block the API takes, and a text block where it takes no edit. */
function serverResult(block: Bag, own: Shown, doc: Shown): Bag[] {
  const c = (block.content ?? {}) as Bag;
  const s = typeof own === 'string' ? own : undefined;
  switch (block.type) {
    case 'mcp_tool_result':
      return [{ ...block, content: s ?? block.content }];
    case 'web_fetch_tool_result': {
      const data = s ?? (typeof doc === 'string' ? doc : undefined);
      if (data === undefined) return [block];
      return [{ ...block, content: { ...c, content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data } } } }];
    }
    default:
      break;
  }
  if (s === undefined) return [block];
  switch (c.type) {
    case 'code_execution_result':
    case 'bash_code_execution_result':
      return [{ ...block, content: { ...c, stdout: s, stderr: '' } }];
    case 'text_editor_code_execution_view_result':
      return [{ ...block, content: { ...c, content: s } }];
    case 'text_editor_code_execution_str_replace_result':
      return [{ ...block, content: { ...c, lines: [s] } }];
    case 'advisor_result':
      return [{ ...block, content: { ...c, text: s } }];
    default:
      // Web search results are encrypted pages: the block says the search is unavailable
      // now, and the line after it names the stored results.
      return [{ ...block, content: { type: 'web_search_tool_result_error', error_code: 'unavailable' } }, textBlock(s)];
  }
}

/** Block `block` with its parts shown as `shown` says (`drop`: a `null` part is left out, else kept). */
function shownBlock(block: Bag, parts: readonly NeutralPart[], shown: readonly Shown[], drop: boolean): Bag[] {
  const own = shown[0];
  if (own === null) return drop ? [] : [block];
  const inner = new Map<number, Shown>();
  parts.forEach((p, j) => {
    if (p.inner !== undefined) inner.set(p.inner, shown[j]);
  });
  switch (block.type) {
    case 'text':
      return own === undefined ? [block] : [{ ...block, text: own }];
    case 'tool_result':
      // The result's own text is its first part; its images and documents follow it.
      return [{ ...block, content: resultContent(block, parts[0].inner === undefined ? own : undefined, inner) }];
    case 'tool_use':
    case 'server_tool_use':
    case 'mcp_tool_use': {
      const input = own === undefined ? undefined : parsedArguments(own);
      return input === undefined ? [block] : [{ ...block, input }];
    }
    default:
      if (parts[0].inner === undefined && parts[0].id !== undefined && block.tool_use_id !== undefined) {
        return serverResult(block, own, inner.get(0));
      }
      // An image, a document, a search result: a text block in its place.
      return own === undefined ? [block] : [textBlock(own)];
  }
}

/** The content of `m` (read as `parts`) shown as `shown` says, one entry per part. */
export function shownContent(m: Bag, parts: readonly NeutralPart[], shown: readonly Shown[], drop: boolean): Bag[] {
  const out: Bag[] = [];
  let p = 0;
  blocks(m).forEach((block, b) => {
    const from = p;
    while (p < parts.length && (parts[p].block ?? p) === b) p++;
    const mine = shown.slice(from, p);
    if (mine.every((s) => s === undefined)) out.push(block);
    else out.push(...shownBlock(block, parts.slice(from, p), mine, drop));
  });
  return out;
}

/** `source` with the bytes of the image or document `part` let go (`data: ''`): the same block, its place and kind kept. */
export function stripped(block: Bag, part: NeutralPart): Bag {
  const empty = (source: unknown) => ({ ...(source as Bag), data: '' });
  if (part.inner === undefined) return block.source ? { ...block, source: empty(block.source) } : block;
  if (block.type === 'web_fetch_tool_result') {
    const c = block.content as Bag;
    const doc = c.content as Bag;
    return { ...block, content: { ...c, content: { ...doc, source: empty(doc.source) } } };
  }
  const content = (block.content as Bag[]).map((c, i) => (i === part.inner ? { ...c, source: empty(c.source) } : c));
  return { ...block, content };
}
