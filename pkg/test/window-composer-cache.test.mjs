// WindowComposer keeps what it validated and serialized: a window composed every turn
// renders an envelope it already saw without serializing it again. Whatever a host changes
// in such an envelope afterwards shows in the next window, and is validated.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WindowComposer, createDefaultWindowBudget } from '@devs/context';
import { assertFieldError, envelope, thrown } from './helpers.mjs';

const recent = (composer, envs) => composer.compose('g', 'm', envs).slots[2].content;
const expected = (envs) => envs.map((e) => JSON.stringify(e)).join('\n');

describe('WindowComposer, an envelope composed again', () => {
  const composer = () => new WindowComposer(createDefaultWindowBudget(1_000_000));

  it('shows every change a host makes to it, at any depth', () => {
    const w = composer();
    const e = envelope({ turn_index: 1, action: { tool_name: 't', arguments: { path: 'a', list: [1, { x: 'y' }] } } });
    const envs = [e];
    assert.equal(recent(w, envs), expected(envs));
    const edits = [
      () => { e.observation.output = 'changed'; },
      () => { e.action.arguments.list[1].x = 'z'; },
      () => { e.action.arguments.list.push(3); },
      () => { e.action.arguments.extra = null; },
      () => { delete e.action.arguments.extra; e.action.arguments.late = true; },
      () => { e.thought = { ...e.thought, plan: 'a new plan' }; },
      () => { e.action.arguments.when = new Date(0); },
      () => { e.action.arguments.when.setTime(1000); },
      () => { delete e.action.arguments.when; },
      () => { const { thought, ...rest } = e; for (const k of Object.keys(e)) delete e[k]; Object.assign(e, { thought, ...rest }); },
    ];
    for (const edit of edits) {
      edit();
      assert.equal(recent(w, envs), expected(envs));
    }
  });

  it('validates it again once it changed', () => {
    const w = composer();
    const envs = [envelope({ turn_index: 0 }), envelope({ turn_index: 1 })];
    recent(w, envs);
    envs[1].observation.status = 'done';
    assertFieldError(thrown(() => w.compose('g', 'm', envs)), TypeError, 'envelopes[1].observation.status');
    envs[1].observation.status = 'success';
    assert.equal(recent(w, envs), expected(envs));
  });

  it('follows a toJSON added where plain objects inherit it', () => {
    const w = composer();
    const envs = [envelope({ turn_index: 1 })];
    recent(w, envs);
    Object.defineProperty(Object.prototype, 'toJSON', { value() { return { replaced: true }; }, configurable: true, writable: true });
    try {
      assert.equal(recent(w, envs), expected(envs));
    } finally {
      delete Object.prototype.toJSON;
    }
    assert.equal(recent(w, envs), expected(envs));
  });
});

describe('WindowComposer, composed from inside a host getter', () => {
  it('a compose while reading the turn indexes leaves the outer window as it would be', () => {
    const w = new WindowComposer(createDefaultWindowBudget(1_000_000), { maxRecentEnvelopes: 2 });
    const other = Array.from({ length: 3 }, (_, i) => envelope({ turn_index: 100 + i }));
    const envs = Array.from({ length: 5 }, (_, i) => envelope({ turn_index: i }));
    const plain = recent(w, envs);
    let inner = '';
    // The last index read starts a compose of three newer envelopes on the same composer:
    // had it the outer one's turn indexes to write into, the outer would pick its oldest.
    Object.defineProperty(envs[4], 'turn_index', { enumerable: true, get() { inner = recent(w, other); return 4; } });
    assert.equal(recent(w, envs), plain);
    assert.equal(inner, expected(other.slice(-2)));
  });
});
