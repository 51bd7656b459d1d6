// A rule's error crosses the boundary as a frame: its class, code, field and message
// apart (`args::error_frame`), not a joined string. What a host gets is unchanged: the
// same class, `code`, `field` and message.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { thrown } from './helpers.mjs';

const require = createRequire(import.meta.url);
const { ContextManager, TokenThresholdMonitor } = require('@devs/context');
const pkg = fileURLToPath(new URL('..', import.meta.url));

function parts(error) {
  return { class: error?.constructor?.name, code: error?.code, field: error?.field, message: error?.message };
}

it('a rule error reaches the host as the error it always was', () => {
  assert.deepEqual(parts(thrown(() => new ContextManager({ format: 'openai-chat', budget: 100_000, highWater: 2 }))), {
    class: 'RangeError', code: 'ERR_OUT_OF_RANGE', field: 'options.highWater', message: 'options.highWater must be in (0, 1], got 2',
  });
  assert.deepEqual(parts(thrown(() => new ContextManager({ format: 'openai-chat', budget: 10.5 }))), {
    class: 'RangeError', code: 'ERR_OUT_OF_RANGE', field: 'options.budget', message: 'options.budget must be a whole number >= 1000, got 10.5',
  });
  // A seed's binding reports through the same path.
  const monitor = thrown(() => new TokenThresholdMonitor({ thresholdTokens: -1, onThresholdExceeded: () => {} }));
  assert.ok(monitor instanceof RangeError);
  assert.equal(monitor.code, 'ERR_OUT_OF_RANGE');
  assert.match(monitor.message, new RegExp(`^${monitor.field.replace(/[.()[\]]/g, '\\$&')} `));
});

it("the shell reads a frame, the rules' and the tokenizers' alike, and nothing else as an argument error", async () => {
  const { build } = createRequire(`${pkg}/package.json`)('esbuild');
  const out = await build({
    stdin: { contents: "export { fromReport, ErrorClass } from './errors/index.ts';", resolveDir: `${pkg}/src`, loader: 'ts' },
    bundle: true, format: 'esm', write: false, platform: 'neutral', logLevel: 'silent',
  });
  const { fromReport, ErrorClass } = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
  const [NUM, REF_END, TEXT_END] = ['\uFDD3', '\uFDD1', '\uFDD2'];
  const frame = (cls, ...texts) => `${NUM}${cls}${REF_END}${texts.map((t) => t + TEXT_END).join('')}`;
  // A field holding the old report's separator is just a character of it.
  const field = 'messages[2].content\u001f';
  assert.deepEqual(parts(fromReport(frame(ErrorClass.TypeError, 'ERR_X', field, `${field} is odd`))), { class: 'TypeError', code: 'ERR_X', field, message: `${field} is odd` });
  assert.deepEqual(parts(fromReport(frame(ErrorClass.RangeError, 'ERR_OUT_OF_RANGE', 'tokens', 'tokens must be >= 0'))), { class: 'RangeError', code: 'ERR_OUT_OF_RANGE', field: 'tokens', message: 'tokens must be >= 0' });
  // The old joined report is no longer read as an argument error: it is an internal one.
  const legacy = fromReport('RangeError\u001fERR_OUT_OF_RANGE\u001ftokens\u001ftokens must be >= 0');
  assert.ok(!(legacy instanceof RangeError) && legacy.code === 'ERR_INTERNAL', String(legacy));
});

it("the tokenizers' module reports an unknown encoding through the same frame", () => {
  const { createTokenCounter } = require('@devs/context/tokenizers');
  const error = thrown(() => createTokenCounter('p50k_base'));
  assert.ok(error instanceof TypeError || error instanceof RangeError, String(error));
  assert.equal(error.field, 'encoding');
  assert.match(error.message, /^encoding /);
  assert.doesNotMatch(error.message, /[\u001f\uFDD0-\uFDEF]/);
});
