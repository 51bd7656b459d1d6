// The golden plan (pkg/test/fixtures/plan/golden.json): a plan the rules encoded, and its
// steps as crates/rules/tests/plan.rs reads them with the rules' own decoder. The shell's
// decoder (pkg/src/context/plan.ts) must read the same steps from the same numbers. The
// decoder is internal, so it is bundled from its source here, as the build bundles it.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const golden = JSON.parse(readFileSync(new URL('./fixtures/plan/golden.json', import.meta.url), 'utf8'));

async function shellDecoder() {
  const { build } = createRequire(`${pkg}/package.json`)('esbuild');
  const out = await build({
    stdin: { contents: "export { readPlan } from './context/plan.ts'; export { ShownCode } from './context/codes.ts';", resolveDir: `${pkg}/src`, loader: 'ts' },
    bundle: true, format: 'esm', write: false, platform: 'neutral', logLevel: 'silent',
  });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
}

/** The steps `readPlan` tells, in the golden file's form. */
function steps(readPlan, ShownCode, encoded) {
  const names = Object.fromEntries(Object.entries(ShownCode).map(([k, v]) => [v, k]));
  const out = [];
  const simple = (op) => (mark) => out.push({ mark, op });
  readPlan(encoded, {
    fixed: simple('Fixed'), summary: simple('Summary'), leftOut: simple('LeftOut'), tail: simple('Tail'),
    message: (index, mark) => out.push({ changed: [], index, mark, op: 'Message', unanswered: [] }),
    part: (part, shown) => out[out.length - 1].changed.push([part, names[shown] ?? shown]),
    unanswered: (call) => out[out.length - 1].unanswered.push(call),
  });
  return out;
}

it('the shell reads the golden plan as the rules do', async () => {
  const { readPlan, ShownCode } = await shellDecoder();
  assert.deepEqual(steps(readPlan, ShownCode, Float64Array.from(golden.encoded)), golden.steps);
});

it('the shell refuses a plan cut short, or with numbers after it, or an unknown op', async () => {
  const { readPlan, ShownCode } = await shellDecoder();
  const e = golden.encoded;
  const firstOp = 1 + e[0] + 1;
  for (const bad of [e.slice(0, -1), [...e, 0], e.map((v, i) => (i === firstOp ? 9 : v))]) {
    assert.throws(() => steps(readPlan, ShownCode, Float64Array.from(bad)), { code: 'ERR_INTERNAL' });
  }
});
