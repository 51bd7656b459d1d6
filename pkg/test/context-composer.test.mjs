// ContextComposer: seed 001's wiring (load specs once, compose + inject every turn).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextComposer } from '@devs/context';
import { assertFieldError, rejected, thrown, turnEntries } from './helpers.mjs';

function project(files) {
  const root = mkdtempSync(join(tmpdir(), 'composer-'));
  mkdirSync(join(root, '.devs/specs'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, '.devs/specs', name), text);
  return root;
}

describe('ContextComposer', () => {
  it('loads .devs/specs/tas_summary.md and prd_summary.md once from a project root', async () => {
    const root = project({ 'tas_summary.md': '# TAS\nRust + wasm', 'prd_summary.md': '# PRD\nStay on track' });
    const composer = await ContextComposer.fromProject(root);
    assert.deepEqual(composer.specs, [
      { name: 'TAS', content: '# TAS\nRust + wasm' },
      { name: 'PRD', content: '# PRD\nStay on track' },
    ]);
    // Later edits on disk do not matter: the specs were read at startup.
    writeFileSync(join(root, '.devs/specs/tas_summary.md'), 'changed');
    const window = composer.compose(turnEntries(30), 'goal', 10);
    assert.match(window.turns[0].content, /## TAS\n# TAS\nRust \+ wasm\n## PRD\n# PRD\nStay on track\n$/);
  });

  it('slides the window every turn and injects the specs every 10 turns', () => {
    const composer = new ContextComposer({ specs: [{ name: 'TAS', content: 't' }, { name: 'PRD', content: 'p' }], maxTurns: 5 });
    const history = turnEntries(40);
    for (let turn = 1; turn <= 30; turn++) {
      const window = composer.compose(history.slice(0, turn), 'goal', turn);
      const due = turn % 10 === 0;
      assert.equal(window.specInjected, due, `turn ${turn}`);
      assert.equal(window.turns.length, Math.min(turn, 5) + (due ? 1 : 0));
      assert.equal(window.turns.at(-1).turnIndex, turn);
    }
    assert.equal(history.length, 40);
  });

  it('a missing spec file fails at startup and names the path', async () => {
    const root = project({ 'tas_summary.md': 'tas' });
    const error = await rejected(ContextComposer.fromProject(root));
    assert.ok(error instanceof Error);
    assert.equal(error.code, 'ENOENT');
    assert.equal(error.path, join(root, '.devs/specs/prd_summary.md'));
    assert.ok(error.message.includes(join(root, '.devs/specs/prd_summary.md')), error.message);
    assert.match(error.message, /is missing: write your project's summary there, or pass the texts as `specs` to new ContextComposer\(\)/);
  });

  it('an empty spec file fails too: a spec is never silently empty', async () => {
    const root = project({ 'tas_summary.md': '  \n', 'prd_summary.md': 'prd' });
    const error = await rejected(ContextComposer.fromProject(root));
    assert.equal(error.code, 'ERR_SPEC_EMPTY');
    assert.ok(error.message.includes('tas_summary.md'));
  });

  it('rejects bad options, naming them', async () => {
    assertFieldError(thrown(() => new ContextComposer({ specs: [] })), RangeError, 'options.specs');
    assertFieldError(thrown(() => new ContextComposer({ specs: [{ name: 'TAS', content: '' }] })), RangeError, 'options.specs[0].content');
    assertFieldError(thrown(() => new ContextComposer({ specs: [{ name: 'TAS', content: 'x' }], maxTurns: -2 })), RangeError, 'options.maxTurns');
    assertFieldError(await rejected(ContextComposer.fromProject(42)), TypeError, 'projectRoot');
    const composer = new ContextComposer({ specs: [{ name: 'TAS', content: 'x' }] });
    assertFieldError(thrown(() => composer.compose(turnEntries(1), 'g', '10')), TypeError, 'turnCount');
  });
});
