// Issue 48: the rules' wasm is a few typed crossings, not one export per call. A seed's
// object takes every call over numbers through one `op(code, …)` whose codes are declared
// once in the rules (`crates/rules/src/seeds/ops.rs`) and generated into protocol.ts, and
// the seeds' rules over numbers go through one `seed(code, …)`. Read from the built module's
// export section, so an export added per call fails here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const module = new WebAssembly.Module(readFileSync(new URL('../dist/wasm/devs_context_bg.wasm', import.meta.url)));
/** The rules' own exports: the glue's (`__wbindgen_*`, `__wbg_*_free`, the externref table) left out. */
const exported = WebAssembly.Module.exports(module).filter((e) => e.kind === 'function' && !e.name.startsWith('__')).map((e) => e.name);

/** Each seed's object: its constructor, its `op`, and only the calls that take or give text or arrays. */
const SEED_OBJECTS = {
  monitor: ['new', 'op'],
  refresher: ['new', 'op'],
  tracker: ['new', 'op'],
  logslots: ['new', 'op', 'slots'],
  pendingindex: ['new', 'op', 'prompt'],
  composer: ['new', 'op', 'select', 'shares', 'to_render'],
  runnercore: ['new', 'op', 'resume', 'state'],
  management: ['indexed', 'loop_guard_warning', 'new', 'op', 'recounted_indexed', 'roles', 'should_truncate_all'],
};

describe('the rules\' wasm exports', () => {
  it('are at most 100 (148 before the seeds\' calls were folded into op codes)', () => {
    assert.ok(exported.length <= 100, `${exported.length} exports: ${exported.join(', ')}`);
  });

  it('give each seed\'s object one op for its calls over numbers', () => {
    for (const [object, methods] of Object.entries(SEED_OBJECTS)) {
      const own = exported.filter((n) => n.startsWith(`${object}_`)).map((n) => n.slice(object.length + 1)).sort();
      assert.deepEqual(own, methods, `${object}'s exports`);
    }
  });

  it('give the seeds\' rules over numbers one export, `seed`', () => {
    assert.ok(exported.includes('seed'));
    for (const gone of ['approxTokens', 'checkedCount', 'checkInputTokens', 'saturationRatio', 'loopGuardRatio', 'shouldPrune', 'toolOutputOk', 'checkRawLocation', 'shouldTruncate', 'specDue', 'windowStart', 'composePlan', 'recentStart', 'persistWarning', 'contextRefreshText']) {
      assert.ok(!exported.includes(gone), `${gone} is an export of its own`);
    }
  });
});
