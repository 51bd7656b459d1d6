// Stored snapshots and session rows altered at random, 10,000 of them: bytes flipped,
// fields changed, arrays cut short or reordered, the rules' own bytes altered, parts taken
// from another session; most re-sealed (their check taken again, as a bug that writes
// consistent nonsense would), some not. Each is either refused, by a TypeError, RangeError
// or versioned Error that names the field, or taken, and then builds a valid request and
// is exactly the state it encodes (taken again from its own snapshot, the same state and
// the same next request). Never a crash (a wasm trap, an error of another kind), a hang,
// or a manager left unusable.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROBLEMS } from './validity.mjs';
import { realSessions } from './provider-sessions.mjs';
import { sessionCalls, sessionOptions, timeless } from './session-driver.mjs';

const require = createRequire(import.meta.url);
const { ContextManager } = require('@devs/context');
const { SqliteStateRepository } = require('@devs/context/sqlite');

const SNAPSHOT_CASES = 6_000;
const ROW_CASES = 4_000;

// ---- An oracle of the snapshot's check, written from its definition (canonical JSON, keys
// in order; two 32-bit FNV-1a hashes), so that an altered snapshot can be sealed again.
// It repeats the package's internal textKey (pkg/src/core/text-key.ts) on purpose: the
// package exports no way to seal a snapshot, and the check is part of the stored format, so
// the test writes it from that definition rather than reaching into the code under test.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonical(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
function textKey(text) {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    a = Math.imul(a ^ u, 0x01000193);
    b = Math.imul(b ^ (u + i), 0x5bd1e995);
  }
  return `${text.length}:${(a >>> 0).toString(36)}:${(b >>> 0).toString(36)}`;
}
const seal = (snap) => {
  const { check, ...rest } = snap;
  return { ...rest, check: textKey(canonical(rest)) };
};

// ---- Randomness, seeded: a failure names its case, and the case comes back.
function random(seed) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
  return { next, int: (n) => Math.floor(next() * n), pick: (xs) => xs[Math.floor(next() * xs.length)] };
}

const REPLACEMENTS = [null, -1, 0, 1, 2.5, 1e12, 2 ** 53, '', 'x', 'AAAA', {}, [], true, [1, 2], { source: null }, undefined];

/** Every path to a value in `value` (objects and arrays included), up to a few thousand. */
function paths(value, at = [], out = []) {
  if (out.length > 4_000) return out;
  out.push(at);
  if (value !== null && typeof value === 'object') for (const k of Object.keys(value)) paths(value[k], [...at, k], out);
  return out;
}
const getAt = (value, path) => path.reduce((v, k) => v?.[k], value);
function setAt(value, path, to) {
  if (path.length === 0) return to;
  const parent = getAt(value, path.slice(0, -1));
  if (parent === null || typeof parent !== 'object') return value;
  const k = path.at(-1);
  if (to === undefined && !Array.isArray(parent)) delete parent[k];
  else parent[k] = to;
  return value;
}

/** `text` with one character changed, cut short, or with a piece doubled. */
function alterText(text, r) {
  if (text.length === 0) return 'x';
  const i = r.int(text.length);
  switch (r.int(3)) {
    case 0: return text.slice(0, i) + String.fromCharCode(32 + r.int(95)) + text.slice(i + 1);
    case 1: return text.slice(0, i);
    default: return text.slice(0, i) + text.slice(Math.max(0, i - 8), i) + text.slice(i);
  }
}

/** The rules' bytes (base64) altered: a byte changed, cut, inserted or removed. */
function alterRules(rules, r) {
  const bytes = [...Buffer.from(rules, 'base64')];
  const i = r.int(bytes.length);
  switch (r.int(4)) {
    case 0: bytes[i] = r.int(256); break;
    case 1: bytes.length = i; break;
    case 2: bytes.splice(i, 0, r.int(256)); break;
    default: bytes.splice(i, 1);
  }
  return Buffer.from(bytes).toString('base64');
}

/** What the last `alter` did, for a failure's message. */
let alteration = '';

/** `value` (JSON data) altered one way at random; `other`: the same kind of thing from another session. */
function alter(value, other, r) {
  const v = structuredClone(value);
  const all = paths(v);
  const kind = r.int(6);
  alteration = `${['replaced', 'cut', 'swapped', 'text', 'other', 'rules'][kind]}`;
  const set = (target, path, to) => {
    alteration += ` ${path.join('.')}`;
    return setAt(target, path, to);
  };
  const get = (target, path) => {
    alteration += ` ${path.join('.')}`;
    return getAt(target, path);
  };
  switch (kind) {
    case 0: { // a value replaced
      return set(v, r.pick(all.slice(1)) ?? [], r.pick(REPLACEMENTS));
    }
    case 1: { // an array cut short
      const arrays = all.filter((p) => Array.isArray(getAt(v, p)) && getAt(v, p).length);
      if (!arrays.length) return set(v, r.pick(all.slice(1)) ?? [], null);
      const a = get(v, r.pick(arrays));
      a.length = r.int(a.length);
      return v;
    }
    case 2: { // two entries of an array swapped
      const arrays = all.filter((p) => Array.isArray(getAt(v, p)) && getAt(v, p).length > 1);
      if (!arrays.length) return set(v, r.pick(all.slice(1)) ?? [], 0);
      const a = get(v, r.pick(arrays));
      const [i, j] = [r.int(a.length), r.int(a.length)];
      [a[i], a[j]] = [a[j], a[i]];
      return v;
    }
    case 3: { // a text changed
      const texts = all.filter((p) => typeof getAt(v, p) === 'string');
      if (!texts.length) return set(v, r.pick(all.slice(1)) ?? [], 'x');
      const p = r.pick(texts);
      return set(v, p, p.at(-1) === 'rules' ? alterRules(get(v, p), r) : alterText(get(v, p), r));
    }
    case 4: { // a field from another session
      const keys = Object.keys(v).filter((k) => other && k in other);
      if (!keys.length) return set(v, r.pick(all.slice(1)) ?? [], null);
      const k = r.pick(keys);
      v[k] = structuredClone(other[k]);
      alteration += ` ${k}`;
      return v;
    }
    default: { // the rules' own bytes altered
      if (typeof v.rules !== 'string') return set(v, r.pick(all.slice(1)) ?? [], 1);
      v.rules = alterRules(v.rules, r);
      return v;
    }
  }
}

/** What a refusal must be: an error of the package's kinds, naming the field. */
function refusalProblem(error) {
  if (error instanceof WebAssembly.RuntimeError) return `a wasm trap: ${error.message}`;
  if (!(error instanceof Error)) return `a thrown ${typeof error}: ${String(error)}`;
  // Rows that do not run from the checkpoint to the session's version: named by session and version, not by field.
  if (error.code === 'ERR_STORE_CORRUPT') return /^store: session [^,:]+(, (version|checkpoint at version|versions) \d+|: the session's own row)/.test(error.message) ? null : `no version named: ${error.message}`;
  if (!(error instanceof TypeError || error instanceof RangeError || error.code === 'ERR_SNAPSHOT_VERSION')) return `${error.name}: ${error.message}`;
  if (typeof error.field !== 'string' || error.field.length === 0) return `no field named: ${error.message}`;
  return null;
}

const request = (r) => JSON.stringify([r.system, r.messages]);
const claude = () => realSessions().findIndex((s) => s.name.startsWith('claude-code'));
const SPEC = { id: 'fuzz-a', fixture: 0, format: 'anthropic', turns: 70, budget: 6_000 };
const OTHER = { id: 'fuzz-b', fixture: 0, format: 'anthropic', turns: 40, budget: 6_000 };

describe('stored state altered at random', () => {
  let options;
  let snapshots;
  let otherSnapshot;
  let file;
  let rows;
  let otherRows;

  before(async () => {
    SPEC.fixture = claude();
    OTHER.fixture = (SPEC.fixture + 1) % realSessions().length;
    // Snapshots of a manager at several ages, all its texts in one store. Its ids are its
    // texts' keys: two managers that store the same text name it alike (a counter's ids
    // would differ between a manager and its twin, and so would their requests).
    const texts = new Map();
    const store = {
      insertRawToolOutput: (entry) => {
        const id = `t-${textKey(`${entry.toolName}\n${entry.rawContent}`)}`;
        texts.set(id, entry);
        return id;
      },
      getRawToolOutput: (id) => texts.get(id),
    };
    const { sessionId, store: _, ...rest } = sessionOptions(SPEC, null);
    options = { ...rest, store };
    const manager = new ContextManager(options);
    snapshots = [];
    const calls = sessionCalls(SPEC);
    for (let k = 0; k < calls.length; k++) {
      await calls[k](manager);
      if (calls[k].kind === 'recordUsage' && k % 40 < 3) snapshots.push(manager.snapshot());
    }
    snapshots.push(manager.snapshot());
    const other = new ContextManager(options);
    for (const call of sessionCalls(OTHER)) await call(other);
    otherSnapshot = other.snapshot();
    // Two sessions written ahead on SQLite, each past a checkpoint.
    file = join(mkdtempSync(join(tmpdir(), 'fuzz-')), 'state.sqlite');
    const sqlite = new SqliteStateRepository(file);
    for (const spec of [SPEC, OTHER]) {
      const session = await ContextManager.open(sessionOptions(spec, sqlite));
      for (const call of sessionCalls(spec)) await call(session);
      await session.close();
    }
    rows = sqlite.loadSession(SPEC.id);
    otherRows = sqlite.loadSession(OTHER.id);
    sqlite.close();
    assert.ok(rows.checkpoint && otherRows.checkpoint, 'both sessions have a checkpoint');
    assert.ok(snapshots.at(-1).calls.some((c) => typeof c === 'number'), 'the snapshots hold calls folded away');
  });

  it(`${SNAPSHOT_CASES} snapshots: each refused naming the field, or the state it encodes`, async () => {
    const problems = [];
    const tally = { refused: 0, taken: 0 };
    for (let n = 0; n < SNAPSHOT_CASES; n++) {
      const r = random(0x5eed + n);
      const original = snapshots[n % snapshots.length];
      let altered = alter(original, otherSnapshot, r);
      if (r.next() < 0.85 && altered && typeof altered === 'object' && !Array.isArray(altered)) altered = seal(altered);
      const problem = await restoreCase(altered, options);
      if (problem === 'refused') tally.refused++;
      else if (problem === 'taken') tally.taken++;
      else problems.push(`case ${n} (${alteration}): ${problem}`);
    }
    if (process.env.FUZZ_DUMP) writeFileSync(`${process.env.FUZZ_DUMP}.snapshots`, problems.join('\n'));
    assert.deepEqual(problems.slice(0, 5), [], `${problems.length} of ${SNAPSHOT_CASES} cases`);
    // Both outcomes are tried often: most alterations are refused, many are taken.
    assert.ok(tally.refused > SNAPSHOT_CASES / 3 && tally.taken > 50, JSON.stringify(tally));
  });

  it(`${ROW_CASES} session rows and checkpoints: each refused naming the field, or the state they encode`, async () => {
    const problems = [];
    const tally = { refused: 0, taken: 0 };
    for (let n = 0; n < ROW_CASES; n++) {
      const r = random(0xc0ffee + n);
      const altered = alterRows(rows, otherRows, r);
      const problem = await openCase(altered, SPEC, file);
      if (problem === 'refused') tally.refused++;
      else if (problem === 'taken') tally.taken++;
      else problems.push(`case ${n} (${alteration}): ${problem}`);
    }
    if (process.env.FUZZ_DUMP) writeFileSync(`${process.env.FUZZ_DUMP}.rows`, problems.join('\n'));
    assert.deepEqual(problems.slice(0, 5), [], `${problems.length} of ${ROW_CASES} cases`);
    assert.ok(tally.refused > ROW_CASES / 3 && tally.taken > 50, JSON.stringify(tally));
    if (process.env.FUZZ_DUMP) writeFileSync(`${process.env.FUZZ_DUMP}.tally`, JSON.stringify(tally));
  });
});

/** Restores `value`: 'refused' (rightly), 'taken' (and rightly so), or what went wrong. */
async function restoreCase(value, options) {
  let manager;
  try {
    manager = ContextManager.restore(value, options);
  } catch (error) {
    return refusalProblem(error) ?? 'refused';
  }
  return taken(manager, (snapshot) => ContextManager.restore(snapshot, options));
}

/** A manager that took altered data builds a valid request, and is the state its own snapshot holds. */
async function taken(manager, again) {
  try {
    const snapshot = manager.snapshot();
    const twin = again(snapshot);
    const [a, b] = [await manager.build(), await twin.build()];
    const invalid = PROBLEMS[SPEC.format](a);
    if (invalid.length) return `a request that is not valid: ${invalid[0]}`;
    if (request(a) !== request(b)) return 'its own snapshot builds another request';
    if (timeless(manager.snapshot()) !== timeless(twin.snapshot())) return 'its own snapshot is another state';
    twin.free();
    return 'taken';
  } catch (error) {
    return `taken, then: ${error?.name}: ${error?.message}`;
  } finally {
    manager.free();
  }
}

/** `rows` altered one way: a row's text or fields, the rows' order or number, the checkpoint, or another session's. */
function alterRows(rows, other, r) {
  const out = { ...rows, changes: [...rows.changes], checkpoint: rows.checkpoint && { ...rows.checkpoint } };
  const i = r.int(out.changes.length);
  const kind = r.int(7);
  alteration = `${['row text', 'row field', 'rows swapped', 'row of another session', 'checkpoint text', 'checkpoint field', 'checkpoint moved'][kind]} ${i}`;
  switch (kind) {
    case 0: out.changes[i] = alterText(out.changes[i], r); break;
    case 1: out.changes[i] = JSON.stringify(alter(JSON.parse(out.changes[i]), JSON.parse(other.changes[i % other.changes.length]), r)); break;
    case 2: { const j = r.int(out.changes.length); [out.changes[i], out.changes[j]] = [out.changes[j], out.changes[i]]; break; }
    case 3: out.changes[i] = other.changes[i % other.changes.length]; break;
    case 4: out.checkpoint.state = alterText(out.checkpoint.state, r); break;
    case 5: {
      let state = alter(JSON.parse(out.checkpoint.state), JSON.parse(other.checkpoint.state), r);
      if (r.next() < 0.85 && state && typeof state === 'object' && !Array.isArray(state)) state = seal(state);
      out.checkpoint.state = JSON.stringify(state);
      break;
    }
    default: out.checkpoint = r.next() < 0.5 ? { ...other.checkpoint } : { ...out.checkpoint, version: out.checkpoint.version + r.pick([-1, 1, 64]) };
  }
  return out;
}

/** Opens the session over a store whose rows are `altered` (and which writes nothing). */
async function openCase(altered, spec, file) {
  const sqlite = new SqliteStateRepository(file);
  const store = new Proxy(sqlite, {
    get(target, key) {
      if (key === 'loadSession') return () => structuredClone(altered);
      if (key === 'commitSession' || key === 'writeSummary' || key === 'release' || key === 'enqueue') return () => undefined;
      if (key === 'claim') return () => true;
      const v = target[key];
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  let session;
  try {
    session = await ContextManager.open(sessionOptions(spec, store));
  } catch (error) {
    sqlite.close();
    return refusalProblem(error) ?? 'refused';
  }
  try {
    const built = await session.build();
    const invalid = PROBLEMS[spec.format](built);
    return invalid.length ? `a request that is not valid: ${invalid[0]}` : 'taken';
  } catch (error) {
    return `taken, then: ${error?.name}: ${error?.message}`;
  } finally {
    await session.close();
    sqlite.close();
  }
}
