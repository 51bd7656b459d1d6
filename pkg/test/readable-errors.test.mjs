// Issue 35: every error a host can see reads as words. The rules answer in frames marked
// with Unicode noncharacters (U+FDD0–U+FDEF), and the tokenizers once joined their reports
// with U+001F; neither may reach a message. This test walks the error paths that cross
// the boundary, layer by layer (the rules through every option, message shape, usage and
// stored datum; the tokenizers; the stores; the adapters; the seeds' classes; the replay)
// and fails on any such character, on an object or a function printed into a message, and
// on a message that does not name its field. Each layer must yield its errors: a path
// that stopped failing would leave its layer short, and fail the count.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HOST_FREE_FORMATS as FORMATS } from './formats.mjs';

const require = createRequire(import.meta.url);
const pkg = require('@devs/context');
const { ContextManager, MemoryStateRepository } = pkg;
const { createTokenCounter } = require('@devs/context/tokenizers');
const { SqliteStateRepository } = require('@devs/context/sqlite');
const replay = require('@devs/context/replay');
const ADAPTERS = {
  'ai-sdk': require('@devs/context/ai-sdk').contextMiddleware,
  langchain: require('@devs/context/langchain').contextMiddleware,
  mastra: require('@devs/context/mastra').contextProcessor,
  'openai-agents': require('@devs/context/openai-agents').contextFilter,
  'tanstack-ai': require('@devs/context/tanstack-ai').contextMiddleware,
};
const BAD = ['x', -1, 0.5, Number.NaN, 1e12, {}, [], null, () => 1, { nested: { deep: [1] } }];
const UNREADABLE = /[\uFDD0-\uFDEF\u001f]|\[object Object\]|=>|function \(|function\(/;

/** The error `fn` throws or rejects with, or null. */
async function caught(fn) {
  try {
    await fn();
    return null;
  } catch (error) {
    return error;
  }
}

/** Collects the errors of one layer, each checked as it comes. */
class Layer {
  errors = [];

  async add(what, fn) {
    const error = await caught(fn);
    if (error === null) return;
    const text = `${what}: ${String(error?.message ?? error)}`;
    assert.ok(error instanceof Error, `${what}: threw ${typeof error} ${String(error)}, not an Error`);
    assert.doesNotMatch(error.message, UNREADABLE, text);
    assert.doesNotMatch(String(error), UNREADABLE, text);
    if (typeof error.field === 'string') {
      assert.doesNotMatch(error.field, UNREADABLE, text);
      assert.ok(error.message.includes(error.field), `${text}: the message does not name its field ${error.field}`);
    }
    this.errors.push(text);
  }
}

const base = (format = 'anthropic') => ({ format, budget: 20_000 });
const o200k = createTokenCounter('o200k_base');

/** A manager of `format` a few turns in, with a store: what a snapshot is taken of. */
async function warm(format) {
  const store = new MemoryStateRepository();
  const cm = new ContextManager({ ...base(format), store, countTokens: o200k, recall: true });
  cm.append({ role: 'user', content: 'Fix the parser.' });
  for (let t = 0; t < 6; t++) {
    cm.append(format === 'anthropic'
      ? [{ role: 'assistant', content: [{ type: 'tool_use', id: `c${t}`, name: 'bash', input: { command: `make ${t}` } }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${t}`, content: 'output '.repeat(3000) }] }]
      : [{ role: 'assistant', content: null, tool_calls: [{ id: `c${t}`, type: 'function', function: { name: 'bash', arguments: '{}' } }] }, { role: 'tool', tool_call_id: `c${t}`, content: 'output '.repeat(3000) }]);
    await cm.build();
  }
  return { cm, store };
}

/** `value` with the leaf or member at `path` replaced by `replacement`. */
function altered(value, path, replacement) {
  const copy = structuredClone(value);
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key];
  at[path.at(-1)] = replacement;
  return copy;
}

/** Every path of `value` down to `depth`, arrays sampled at their first, middle and last entries. */
function paths(value, depth, prefix = []) {
  if (depth === 0 || value === null || typeof value !== 'object') return [prefix];
  const keys = Array.isArray(value) ? [...new Set([0, value.length >> 1, value.length - 1])].filter((k) => k >= 0) : Object.keys(value);
  return [prefix, ...keys.flatMap((k) => paths(value[k], depth - 1, [...prefix, k]))];
}

describe('every error a host can see reads as words', () => {
  it('the rules: every option of ContextManager given every wrong kind of value', async () => {
    const layer = new Layer();
    const keys = ['format', 'budget', 'countTokens', 'store', 'system', 'pinned', 'summarizer', 'summarizerTimeoutMs', 'recall', 'highWater', 'lowWater',
      'recentShare', 'partShare', 'summarizerShare', 'keepFirstMessage', 'vscode', 'imageTokens', 'keepImages', 'callbackTimeoutMs', 'reminders', 'cacheControl', 'onLedger', 'onWarning', 'calibrate'];
    for (const key of keys) for (const value of BAD) await layer.add(`options.${key} = ${String(value)}`, () => new ContextManager({ ...base(), [key]: value }).free());
    for (const value of BAD) await layer.add(`options = ${String(value)}`, () => new ContextManager(value));
    assert.ok(layer.errors.length >= 150, `${layer.errors.length} errors`);
  });

  it('the rules: messages of every wrong shape, in each format, at append and at build', async () => {
    const layer = new Layer();
    const circular = { role: 'user', content: [{ type: 'text', text: 'hi' }] };
    circular.content[0].back = circular;
    const messages = [null, 5, 'text', {}, { role: 'wizard', content: 'x' }, { role: 'user', content: 5 }, { role: 'user', content: [null] },
      { role: 'user', content: [{ type: 'nope' }] }, { role: 'user', content: [{ type: 'text', text: 5 }] }, circular,
      { role: 'assistant', content: [{ type: 'tool_use', id: 'd', name: 'x', input: {} }, { type: 'tool_use', id: 'd', name: 'x', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'nobody', content: 'x' }] },
      { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: '!!!' } }] },
      { type: 'function_call_output', call_id: 'nobody', output: 5 }, { role: 'tool', tool_call_id: 5, content: 'x' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 5, toolName: 'x', input: {} }] },
      { role: 'model', parts: 'x' }, { role: 'user', parts: [{ functionResponse: { name: 'nobody', response: {} } }] },
      { role: 'model', parts: [{ functionCall: { name: 5, args: {} } }] }, { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: '!!!' } }] },
      { role: 'model', parts: [{ text: 'x', thoughtSignature: 7 }] }];
    for (const format of FORMATS) {
      for (const m of messages) {
        const cm = new ContextManager(base(format));
        await layer.add(`${format} append ${JSON.stringify(m, (k, v) => (k === 'back' ? '[circular]' : v))}`, async () => {
          cm.append(format === 'gemini' ? { role: 'user', parts: [{ text: 'go' }] } : { role: 'user', content: 'go' });
          cm.append(m);
          await cm.build();
        });
        cm.free();
      }
      await layer.add(`${format} append of no message`, () => new ContextManager(base(format)).append());
    }
    // One image the budget cannot hold: refused at build, naming it.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAACgAAAAZACAYAAAAx9RuSAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const tiny = new ContextManager({ format: 'anthropic', budget: 1_000 });
    tiny.append({ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } }] });
    await layer.add('an image over the budget', () => tiny.build());
    assert.ok(layer.errors.length >= 40, `${layer.errors.length} errors`);
  });

  it('the rules: usage reports of every wrong kind, and calls made out of turn', async () => {
    const layer = new Layer();
    const { cm } = await warm('anthropic');
    for (const usage of [...BAD, { input_tokens: -1 }, { input_tokens: 'x' }, { input_tokens: Number.NaN }, { inputTokens: Infinity }, { prompt_tokens: [] }]) {
      await layer.add(`recordUsage(${JSON.stringify(usage)})`, () => cm.recordUsage(usage));
    }
    for (const [what, fn] of [['recall(5)', () => cm.recall(5)], ['recall({})', () => cm.recall({})], ['sync(5)', () => cm.sync(5)], ['sync([5])', () => cm.sync([5])],
      ['snapshot while building', () => Promise.all([cm.build(), Promise.resolve().then(() => cm.snapshot())])]]) {
      await layer.add(what, fn);
    }
    cm.free();
    await layer.add('a call after free()', () => cm.build());
    assert.ok(layer.errors.length >= 10, `${layer.errors.length} errors`);
  });

  it('the rules: a snapshot altered at every path, restored', async () => {
    const layer = new Layer();
    for (const format of ['anthropic', 'openai-chat']) {
      const { cm, store } = await warm(format);
      const snapshot = JSON.parse(JSON.stringify(cm.snapshot()));
      for (const path of paths(snapshot, 4).filter((p) => p.length)) {
        for (const replacement of ['x', -1, null, [], {}]) {
          await layer.add(`${format} snapshot.${path.join('.')} = ${JSON.stringify(replacement)}`, () => ContextManager.restore(altered(snapshot, path, replacement), { ...base(format), store, countTokens: o200k, recall: true }).free());
        }
      }
    }
    assert.ok(layer.errors.length >= 100, `${layer.errors.length} errors`);
  });

  it('the stores: a SQLite session whose rows were altered, opened; bad calls on a store', async () => {
    const layer = new Layer();
    const file = join(mkdtempSync(join(tmpdir(), 'readable-')), 'state.sqlite');
    const store = new SqliteStateRepository(file);
    const session = await ContextManager.open({ ...base(), countTokens: o200k, store, sessionId: 's1' });
    await session.append({ role: 'user', content: 'Fix the parser.' });
    for (let t = 0; t < 4; t++) {
      await session.append([{ role: 'assistant', content: [{ type: 'tool_use', id: `c${t}`, name: 'bash', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${t}`, content: 'out '.repeat(500) }] }]);
      await session.build();
    }
    await session.close?.();
    store.close();
    const Database = require('better-sqlite3');
    const db = new Database(file);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r.name);
    db.close();
    for (const table of tables) {
      for (const change of ["'x'", "'{}'", "'[]'", 'NULL', '5']) {
        const copy = join(mkdtempSync(join(tmpdir(), 'readable-')), 'state.sqlite');
        writeFileSync(copy, require('node:fs').readFileSync(file));
        const d = new Database(copy);
        const cols = d.prepare(`PRAGMA table_info(${table})`).all().filter((c) => c.type === 'TEXT' || c.type === '' || c.type === 'BLOB');
        for (const c of cols) {
          try {
            d.prepare(`UPDATE ${table} SET ${c.name} = ${change}`).run();
          } catch {
            // A column the schema keeps from such a value: that alteration cannot happen.
          }
        }
        d.close();
        await layer.add(`${table} set to ${change}`, async () => {
          const s = new SqliteStateRepository(copy);
          try {
            const reopened = await ContextManager.open({ ...base(), countTokens: o200k, store: s, sessionId: 's1' });
            await reopened.build();
          } finally {
            s.close();
          }
        });
      }
    }
    await layer.add('a store of no file', () => new SqliteStateRepository(5));
    await layer.add('a store in a folder that is none', () => new SqliteStateRepository('/proc/none/state.sqlite'));
    const memory = new MemoryStateRepository();
    for (const value of BAD) await layer.add(`insertRawToolOutput(${String(value)})`, () => memory.insertRawToolOutput(value));
    assert.ok(layer.errors.length >= 12, `${layer.errors.length} errors`);
  });

  it("the tokenizers, the adapters and the seeds' classes", async () => {
    const layer = new Layer();
    for (const value of [...BAD, 'p50k_base', 'O200K_BASE']) await layer.add(`createTokenCounter(${String(value)})`, () => createTokenCounter(value));
    for (const value of BAD) await layer.add(`count(${String(value)})`, () => o200k(value));
    for (const [name, make] of Object.entries(ADAPTERS)) {
      for (const key of ['budget', 'countTokens', 'summarizer', 'store', 'recall', 'highWater', 'keepImages', 'imageTokens', 'onLedger', 'nope']) {
        for (const value of ['x', -1, {}]) await layer.add(`${name} options.${key} = ${JSON.stringify(value)}`, () => make({ budget: 20_000, [key]: value }));
      }
    }
    const classes = Object.entries(pkg).filter(([name, v]) => typeof v === 'function' && /^[A-Z]/.test(name) && !name.endsWith('Error'));
    for (const [name, C] of classes) {
      for (const value of [undefined, 5, {}, { thresholdTokens: -1 }, { budget: 'x' }]) await layer.add(`new ${name}(${JSON.stringify(value)})`, () => new C(value));
    }
    for (const fn of ['applyContextManagement', 'countTokens', 'createDefaultWindowBudget', 'validateSaopEnvelope', 'validateToolOutputEntry', 'shouldInjectSpec']) {
      for (const value of [undefined, 5, 'x', { budget: -1 }]) await layer.add(`${fn}(${JSON.stringify(value)})`, () => pkg[fn](value));
    }
    assert.ok(layer.errors.length >= 150, `${layer.errors.length} errors`);
  });

  it('the replay: bad transcripts through the library and the CLI', async () => {
    const layer = new Layer();
    for (const text of ['', 'not json', '{"type":"user"}\n{"broken', '[1,2,3]', JSON.stringify({ messages: 5 })]) {
      await layer.add(`parseTranscript(${JSON.stringify(text)})`, () => replay.parseTranscript(text));
      await layer.add(`replay(${JSON.stringify(text)})`, () => replay.replay(text, { budget: 20_000 }));
    }
    const dir = mkdtempSync(join(tmpdir(), 'readable-'));
    const cli = fileURLToPath(new URL('../dist/cli.mjs', import.meta.url));
    for (const [name, text, args] of [['garbage.jsonl', 'not json\n', []], ['empty.json', '', []], ['ok.json', '[]', ['--budget', 'x']], ['ok2.json', '[]', ['--counter', 'p50k']]]) {
      const file = join(dir, name);
      writeFileSync(file, text);
      await layer.add(`devs-context replay ${name} ${args.join(' ')}`, () => {
        try {
          execFileSync(process.execPath, [cli, 'replay', file, ...args], { encoding: 'utf8', stdio: 'pipe' });
        } catch (error) {
          // What the user reads is the CLI's stderr.
          throw new Error(error.stderr);
        }
      });
    }
    assert.ok(layer.errors.length >= 8, `${layer.errors.length} errors`);
  });
});
