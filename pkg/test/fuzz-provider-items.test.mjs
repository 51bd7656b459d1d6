// Issue 47: random sequences of VALID provider items of every format, drawn from the types
// the SDKs define (test/provider-items-gen.mjs), through the built package: appends, builds
// with a summarizer that sometimes throws, usage reports, forced compactions, snapshots
// restored. No error may be a wasm trap (`RuntimeError: unreachable`) or the "recursive
// use of an object" that follows one, and no manager may be wedged: after any operation
// that failed, the next build succeeds or is refused naming a field. A failure is shrunk by
// fast-check to the shortest sequence, with its seed.
//
// Each format runs as a manager (snapshots restored) and as a session written ahead on
// SQLite (closed and opened again). FUZZ_RUNS sets the sequences per format (CI: a few
// seconds in all).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ContextManager } from '@devs/context';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { fakeVscode } from './provider-sessions.mjs';
import { Model, Rng, nextItems } from './provider-items-gen.mjs';
import { FORMATS } from './formats.mjs';

const RUNS = Number(process.env.FUZZ_RUNS ?? 10);

/** A usage report of `input` tokens, as each format's SDK gives it. */
const USAGE = {
  anthropic: (input) => ({ input_tokens: input, output_tokens: 10 }),
  'openai-chat': (input) => ({ prompt_tokens: input, completion_tokens: 10, total_tokens: input + 10 }),
  'openai-responses': (input) => ({ input_tokens: input, output_tokens: 10, total_tokens: input + 10 }),
  'ai-sdk': (input) => ({ inputTokens: input, outputTokens: 10 }),
  vscode: (input) => ({ inputTokens: input }),
  gemini: (input) => ({ promptTokenCount: input, candidatesTokenCount: 10 }),
};

/** What the runs did, by format: operations, and the field errors they met, by field. */
const seen = Object.fromEntries(FORMATS.map((f) => [f, { operations: 0, appended: 0, builds: 0, restored: 0, errors: {} }]));

/** An error the package may give: a TypeError or RangeError naming a field. Never a trap. */
function checkError(error, what) {
  const text = `${error?.name}: ${error?.message}`;
  assert.ok(!(error instanceof WebAssembly.RuntimeError), `${what}: a wasm trap: ${text}`);
  assert.doesNotMatch(text, /unreachable|recursive use of an object/i, `${what}: ${text}`);
  assert.ok((error instanceof TypeError || error instanceof RangeError) && typeof error.field === 'string', `${what}: not a field error: ${error?.stack ?? text}`);
}

/** The manager, how it was made, and the conversation the items come from. */
class Real {
  constructor(format, budget) {
    this.format = format;
    this.summarizerFails = false;
    this.built = false;
    this.options = {
      format, budget, recall: true,
      ...(format === 'vscode' ? { vscode: fakeVscode } : {}),
      summarizer: { summarize: async (prompt) => {
        if (this.summarizerFails) throw new Error('the summarizer is down');
        return `Summary of ${prompt.length} characters.`;
      } },
    };
    this.cm = new ContextManager(this.options);
    this.model = new Model();
  }

  /** The same, as a session written ahead on SQLite: `restore` closes it and opens it again. */
  static async session(format, budget) {
    const real = new Real(format, budget);
    real.store = new SqliteStateRepository(join(mkdtempSync(join(tmpdir(), 'fuzz-')), 'state.sqlite'));
    real.options = { ...real.options, sessionId: 'fuzz', store: real.store };
    real.cm = await ContextManager.open(real.options);
    return real;
  }

  /** Runs `op`; an error it throws must be a field error, and the manager must build after it. */
  async step(what, op) {
    if (this.dead) return;
    const stats = seen[this.format];
    stats.operations++;
    try {
      await op();
    } catch (error) {
      checkError(error, what);
      const key = `${what}: ${error.name} ${error.field}`;
      stats.errors[key] = (stats.errors[key] ?? 0) + 1;
      if (process.env.FUZZ_DEBUG && stats.errors[key] === 1) console.log(`# ${this.format} ${key}: ${error.message.slice(0, 400)}`);
      this.summarizerFails = false;
      try {
        this.tokens = (await this.cm.build()).tokens;
        this.built = true;
      } catch (again) {
        checkError(again, `the build after ${what}`);
        assert.ok(again instanceof RangeError, `${what} wedged the manager: ${again.stack}`);
      }
    }
  }
}

class Append {
  constructor(seed) {
    this.seed = seed;
  }
  check() {
    return true;
  }
  async run(_, real) {
    if (real.dead) return;
    const items = nextItems(real.format, new Rng(this.seed), real.model);
    if (!items.length) return;
    seen[real.format].appended += items.length;
    await real.step('append', () => real.cm.append(items));
  }
  toString() {
    return `append(${this.seed})`;
  }
}

class Build {
  constructor(fails) {
    this.fails = fails;
  }
  check() {
    return true;
  }
  async run(_, real) {
    real.summarizerFails = this.fails;
    await real.step('build', async () => {
      const r = await real.cm.build();
      seen[real.format].builds++;
      real.tokens = r.tokens;
      assert.ok(r.tokens <= real.options.budget, `${r.tokens} tokens, over the budget`);
      real.built = true;
    });
    real.summarizerFails = false;
  }
  toString() {
    return `build(${this.fails ? 'summarizer throws' : ''})`;
  }
}

class Usage {
  constructor(factor) {
    this.factor = factor;
  }
  check() {
    return true;
  }
  async run(_, real) {
    if (!real.built) return;
    const input = Math.max(1, Math.round(real.tokens * this.factor));
    await real.step('recordUsage', () => real.cm.recordUsage(USAGE[real.format](input)));
  }
  toString() {
    return `usage(×${this.factor})`;
  }
}

class Compact {
  check() {
    return true;
  }
  async run(_, real) {
    await real.step('compact', () => real.cm.compact());
  }
  toString() {
    return 'compact';
  }
}

/**
 * What the shell's adapters are known to refuse of their own stored messages (reported in
 * issue 47's fuzz note, for the shell to fix): a message whose parts were written back
 * into it (a server result shown by its line, Anthropic; a call's input shortened, VS
 * Code) or whose bytes do not survive storage (an AI SDK file of `Uint8Array` data) reads
 * back as other parts than the rules hold, and the snapshot or the session is refused.
 */
const KNOWN_REFUSAL = /is not of the kind the rules hold|is not the message the rules hold/;

/**
 * A snapshot, through JSON, restored (a session: closed and opened again), and the case goes
 * on with it. A refusal fails the case, but the known ones above, which are counted: the
 * manager a snapshot was taken from goes on; a session refused ends its case.
 */
class Restore {
  check() {
    return true;
  }
  async run(_, real) {
    if (real.dead) return;
    const stats = seen[real.format];
    stats.operations++;
    try {
      if (real.store) {
        await real.cm.close();
        real.cm = await ContextManager.open(real.options);
      } else {
        // Through JSON, as a host stores it.
        const snapshot = JSON.parse(JSON.stringify(real.cm.snapshot()));
        real.cm = ContextManager.restore(snapshot, real.options);
      }
      stats.restored++;
    } catch (error) {
      checkError(error, 'restore');
      if (!KNOWN_REFUSAL.test(error.message)) throw error;
      stats.known = (stats.known ?? 0) + 1;
      if (real.store) real.dead = true;
    }
  }
  toString() {
    return 'restore';
  }
}

const commands = fc.commands([
  fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((s) => new Append(s)),
  fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((s) => new Append(s)),
  fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((s) => new Append(s)),
  fc.boolean().map((fails) => new Build(fails)),
  fc.boolean().map((fails) => new Build(fails)),
  fc.constantFrom(0.5, 1, 1.3, 3).map((f) => new Usage(f)),
  fc.constant(new Compact()),
  fc.constant(new Restore()),
], { maxCommands: 40, size: 'large' });

describe('random valid provider items through the package: no trap, no wedged manager', () => {
  for (const [format, session] of FORMATS.flatMap((f) => [[f, false], [f, true]])) {
    it(`${format}${session ? ', in a session' : ''}`, async () => {
      await fc.assert(fc.asyncProperty(fc.constantFrom(2_000, 8_000, 30_000, 200_000), commands, async (budget, cmds) => {
        const real = session ? await Real.session(format, budget) : new Real(format, budget);
        await fc.asyncModelRun(() => ({ model: {}, real }), cmds);
        // Whatever happened, it still builds.
        await real.step('the last build', () => real.cm.build());
        if (real.store && !real.dead) await real.cm.close();
      }), { numRuns: session ? Math.ceil(RUNS / 3) : RUNS, seed: Number(process.env.FUZZ_SEED ?? 47), endOnFailure: false });
      // The figures, to read what a run covered (a larger FUZZ_RUNS for the full one).
      if (session) console.log(`# ${format}: ${JSON.stringify(seen[format])}`);
    });
  }
});
