// Issue 21, item 1: snapshot and restore. A manager restored from a snapshot (through
// JSON, as a host stores it) gives, build after build, byte for byte the requests the
// uninterrupted manager gave, and never asks its summarizer again for a summary already
// paid for. A snapshot from a newer version, or altered, or cut short, is refused naming
// the field, and touches nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ContextManager, MemoryStateRepository } from '@devs/context';
import { assertFieldError, thrown } from './helpers.mjs';
import { fakeVscode, providerTurns, realSessions } from './provider-sessions.mjs';
import { FORMATS } from './formats.mjs';

/** A provider's usage report in each format's own shape, as its SDK returns it. */
const USAGE = {
  anthropic: (n) => ({ input_tokens: n, cache_read_input_tokens: Math.floor(n / 2) }),
  'openai-chat': (n) => ({ prompt_tokens: n }),
  'openai-responses': (n) => ({ input_tokens: n }),
  'ai-sdk': (n) => ({ inputTokens: n }),
  vscode: (n) => ({ inputTokens: n }),
  gemini: (n) => ({ promptTokenCount: n, cachedContentTokenCount: Math.floor(n / 2) }),
};
const sessions = realSessions();

/** Runs `turns` through `manager` from turn `from`, with `each(t)` after each turn; each build's request as JSON, and the summarizer's calls. */
async function run(manager, turns, format, from, each = () => {}) {
  const requests = [];
  for (let t = from; t < turns.length; t++) {
    manager.append(turns[t].input);
    const built = await manager.build();
    requests.push(JSON.stringify([built.system, built.messages]));
    if (format === 'vscode') assertVscodeClasses(built.messages);
    // The provider counts a little more than we do: the calibration moves.
    manager.recordUsage(USAGE[format](Math.round(built.ledger.rawTokens * 1.07) + 40));
    manager.append([...turns[t].response, ...turns[t].results]);
    each(t);
  }
  return requests;
}

function options(format, store, calls) {
  return { format, vscode: fakeVscode, budget: 8_000, store, summarizer: async (prompt) => { calls.push(prompt); return `Earlier: ${prompt.length} characters.`; } };
}

/** A restored `vscode` manager's requests are made of the extension's own classes, as the first one's were. */
function assertVscodeClasses(messages) {
  const { LanguageModelChatMessage, LanguageModelTextPart, LanguageModelToolCallPart, LanguageModelToolResultPart } = fakeVscode;
  for (const m of messages) {
    assert.ok(m instanceof LanguageModelChatMessage, 'a LanguageModelChatMessage');
    for (const p of m.content) assert.ok([LanguageModelTextPart, LanguageModelToolCallPart, LanguageModelToolResultPart].some((c) => p instanceof c), `a part of the vscode module: ${JSON.stringify(p).slice(0, 80)}`);
  }
}

/** A new store holding what `rows` held, with the same ids: the store as it was when the snapshot was taken. */
async function storeOf(rows) {
  const store = new MemoryStateRepository();
  for (const r of rows) await store.insertRawToolOutput({ toolName: r.toolName, rawContent: r.rawContent, byteSize: r.byteSize, turnAge: r.turnAge, capturedAt: r.capturedAt });
  return store;
}

describe('ContextManager.restore(manager.snapshot())', () => {
  for (const format of FORMATS) {
    it(`${format}: every later request is byte-identical, and no summary is asked for twice`, async () => {
      for (const session of sessions.filter((s) => s.steps.length >= 30)) {
        const turns = providerTurns(session, format);
        const at = [Math.floor(turns.length / 3), Math.floor((2 * turns.length) / 3)];
        const calls = [];
        const store = new MemoryStateRepository();
        const taken = new Map();
        const manager = new ContextManager(options(format, store, calls));
        const whole = await run(manager, turns, format, 0, (t) => {
          if (at.includes(t)) taken.set(t, { snapshot: JSON.stringify(manager.snapshot()), rows: store.getRawToolOutputs(), calls: calls.length });
        });
        assert.ok(calls.length > 0, `${session.name}: the budget makes the manager summarize`);
        for (const [t, { snapshot, rows, calls: before }] of taken) {
          const again = [];
          const restored = ContextManager.restore(JSON.parse(snapshot), options(format, await storeOf(rows), again));
          const rest = await run(restored, turns, format, t + 1);
          assert.equal(rest.length, whole.length - t - 1);
          rest.forEach((request, k) => assert.equal(request, whole[t + 1 + k], `${session.name}: request ${t + 2 + k} after a restore at turn ${t + 1}`));
          assert.deepEqual(again, calls.slice(before), `${session.name}: the restored manager asks for exactly the summaries still to come`);
        }
      }
    });
  }
});

describe('a snapshot that cannot be restored', () => {
  const turns = providerTurns(sessions.find((s) => s.steps.length >= 30), 'openai-chat');
  async function taken() {
    const store = new MemoryStateRepository();
    const manager = new ContextManager(options('openai-chat', store, []));
    await run(manager, turns.slice(0, 12), 'openai-chat', 0);
    return { snapshot: JSON.parse(JSON.stringify(manager.snapshot())), store };
  }
  const restore = (snapshot, store, extra = {}) => ContextManager.restore(snapshot, { ...options('openai-chat', store, []), ...extra });

  it('is JSON data, and restores from its JSON with its keys in any order (as jsonb keeps them)', async () => {
    const { snapshot, store } = await taken();
    const reordered = JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(snapshot).reverse())));
    const a = await restore(snapshot, store).build();
    const b = await restore(reordered, store).build();
    assert.equal(JSON.stringify(a.messages), JSON.stringify(b.messages));
  });

  it('from a newer version: an Error naming both versions', async () => {
    const { snapshot, store } = await taken();
    const error = thrown(() => restore({ ...snapshot, version: 3 }, store));
    assert.equal(error.constructor, Error);
    assert.equal(error.code, 'ERR_SNAPSHOT_VERSION');
    assert.match(error.message, /snapshot\.version is 3, newer than this package's 2/);
  });

  it('cut short or altered: a TypeError naming the first bad field', async () => {
    const { snapshot, store } = await taken();
    const without = (key) => Object.fromEntries(Object.entries(snapshot).filter(([k]) => k !== key));
    assertFieldError(thrown(() => restore(without('rules'), store)), TypeError, 'snapshot.rules');
    assertFieldError(thrown(() => restore(without('messages'), store)), TypeError, 'snapshot.messages');
    assertFieldError(thrown(() => restore({ ...snapshot, rules: snapshot.rules.slice(0, -8) }, store)), TypeError, 'snapshot.check');
    assertFieldError(thrown(() => restore({ ...snapshot, rules: 1 }, store)), TypeError, 'snapshot.rules');
    assertFieldError(thrown(() => restore({ ...snapshot, summary: 'something else' }, store)), TypeError, 'snapshot.check');
    assertFieldError(thrown(() => restore({ ...snapshot, calls: [[1, 'x']] }, store)), TypeError, 'snapshot.calls[0][0]');
    assertFieldError(thrown(() => restore({ ...snapshot, format: 'anthropic' }, store)), TypeError, 'snapshot.format');
    assertFieldError(thrown(() => restore(snapshot, store, { budget: 9_000 })), TypeError, 'snapshot.config');
    assertFieldError(thrown(() => restore({ ...snapshot, ledger: snapshot.ledger.slice(0, -1) }, store)), TypeError, 'snapshot.check');
    assertFieldError(thrown(() => restore(null, store)), TypeError, 'snapshot');
  });

  it('touches nothing: the store is as it was, and the manager that took it goes on', async () => {
    const { snapshot, store } = await taken();
    const rows = store.getRawToolOutputs().length;
    thrown(() => restore({ ...snapshot, version: 7 }, store));
    thrown(() => restore({ ...snapshot, rules: '' }, store));
    assert.equal(store.getRawToolOutputs().length, rows);
    assert.ok(rows > 0, 'the session stored outputs');
  });

  it('is not taken during a build, nor of a vscode message with a part JSON cannot hold', async () => {
    const manager = new ContextManager(options('openai-chat', new MemoryStateRepository(), []));
    manager.append(turns[0].input);
    const build = manager.build();
    assert.equal(thrown(() => manager.snapshot()).code, 'ERR_BUILD_IN_FLIGHT');
    await build;
    assert.equal(manager.snapshot().version, 2);
    const vscode = new ContextManager({ format: 'vscode', budget: 8_000, vscode: fakeVscode });
    class LanguageModelPromptTsxPart { constructor(value) { this.value = value; } }
    vscode.append([fakeVscode.LanguageModelChatMessage.User('look'), fakeVscode.LanguageModelChatMessage.User([new LanguageModelPromptTsxPart({ tsx: true })])]);
    assertFieldError(thrown(() => vscode.snapshot()), TypeError, 'messages[1].content[0]');
  });

  it("keeps a vscode image (a LanguageModelDataPart) as JSON data, made the module's own class again", async () => {
    const vscode = new ContextManager({ format: 'vscode', budget: 8_000, vscode: fakeVscode });
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 1, 0, 0, 0, 0, 200, 8, 6, 0, 0, 0]);
    vscode.append([fakeVscode.LanguageModelChatMessage.User([new fakeVscode.LanguageModelDataPart(png, 'image/png')])]);
    const before = await vscode.build();
    const restored = ContextManager.restore(JSON.parse(JSON.stringify(vscode.snapshot())), { format: 'vscode', budget: 8_000, vscode: fakeVscode });
    restored.append(fakeVscode.LanguageModelChatMessage.Assistant('seen'));
    const after = await restored.build();
    const image = after.messages[0].content[0];
    assert.ok(image instanceof fakeVscode.LanguageModelDataPart, 'the image is the module\'s own class again');
    assert.deepEqual([...image.data], [...png]);
    assert.equal(after.tokens > before.tokens, true);
  });
});

describe("what a snapshot keeps of the rules' state", () => {
  it('their state, in their own encoding, not the history that made it: no method name, and its size is not its age', async () => {
    const manager = new ContextManager({ format: 'openai-chat', budget: 4_000, summarizer: () => 'done so far' });
    manager.append({ role: 'user', content: 'go' });
    const sizes = [];
    for (let t = 0; t < 120; t++) {
      manager.append({ role: 'assistant', content: `step ${t} `.repeat(60) });
      manager.append({ role: 'user', content: 'on' });
      await manager.build();
      if (t === 39 || t === 119) sizes.push(JSON.stringify(manager.snapshot()).length);
    }
    const snap = manager.snapshot();
    assert.equal(snap.version, 2);
    assert.equal(snap.log, undefined);
    assert.equal(typeof snap.rules, 'string');
    const text = JSON.stringify(snap);
    for (const name of ['persisted', 'measured', 'summarized', 'set_tail', 'begin', 'commit', 'render']) assert.ok(!text.includes(`["${name}"`), name);
    assert.ok(snap.ledger.length <= 8, 'the last records, not every one');
    // Three times the turns, not three times the size: what is folded away is a few bytes.
    assert.ok(sizes[1] < 1.6 * sizes[0], `${sizes.join(' → ')} characters`);
    // An altered state: refused before anything is made of it.
    const bytes = Buffer.from(snap.rules, 'base64');
    bytes[bytes.length - 3] ^= 0xff;
    assertFieldError(thrown(() => ContextManager.restore({ ...snap, rules: bytes.toString('base64') }, { format: 'openai-chat', budget: 4_000, summarizer: () => 'x' })), TypeError, 'snapshot.check');
  });

});
