// The declarations compile wherever a host compiles, with `skipLibCheck: false` (the
// default), against the packed package: TypeScript 5.9, 6 and 7 with their defaults and
// with `types: []`; `lib` ES2020 and ES2022; the VS Code extension generator's tsconfig;
// `moduleResolution` node10, node16, nodenext and bundler with every subpath; and `using`.
// One host project (the tarball and @types/node, as a Node project has it) holds one
// folder per configuration; the compilers come from pkg/'s dev dependencies.
import { before, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostProject, pkgDir, runAsync, writeFiles } from './harness.mjs';

const compilers = {
  '5.9': join(pkgDir, 'node_modules/typescript/bin/tsc'),
  6: join(pkgDir, 'node_modules/typescript-6/bin/tsc'),
  7: join(pkgDir, 'node_modules/typescript-7/bin/tsc'),
};

// Every entry and every kind of export, in code that needs nothing from the host's lib
// beyond ES5 (TypeScript 5.9's default): no promises made, no Node or DOM globals.
const host = `
import {
  AgentLogStore, ContextComposer, ContextManager, ContextRefresher, TurnTracker, UseAfterFreeError, countTokens, validateSaopEnvelope,
} from '@devs/context';
import type { SaopEnvelope, SummaryProvider, TurnLogEntry } from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
import type { ExactTokenCounter, TokenizerEncoding } from '@devs/context/tokenizers';
import { SqliteStateRepository } from '@devs/context/sqlite';
import type { RawToolOutputRow } from '@devs/context/sqlite';
import * as slim from '@devs/context/slim';

declare const provider: SummaryProvider;
declare const envelope: SaopEnvelope;
const tracker = new TurnTracker('agent', 'phase');
const entry: TurnLogEntry = tracker.toLogEntry();
const dispose: () => void = tracker[Symbol.dispose];
const free: () => void = tracker.free;
const encoding: TokenizerEncoding = 'o200k_base';
const counter: ExactTokenCounter = createTokenCounter(encoding);
const total: number = countTokens('hello') + counter('world');
const log = new AgentLogStore(3);
const refresher = new ContextRefresher({ threshold: 5, summaryProvider: provider });
const composed = ContextComposer.fromProject('.');
// The manager's constructor has a signature per format: the message type alone gives the format's tool.
const manager = new ContextManager<{ role: string; content: string }>({ format: 'anthropic', budget: 100_000, recall: true });
const tool: { name: string; input_schema: object } = manager.recallTool;
validateSaopEnvelope(envelope);
const errorCode: 'ERR_USE_AFTER_FREE' = new UseAfterFreeError('TurnTracker').code;
const ready: PromiseLike<void> = slim.init();
const slimTracker: slim.TurnTracker = new slim.TurnTracker('agent', 'phase');
let row: RawToolOutputRow | undefined;
const store = new SqliteStateRepository(':memory:');
export { entry, dispose, free, total, log, refresher, composed, manager, tool, errorCode, ready, slimTracker, row, store };
`;

const usingHost = `
import { ContextManager, TurnTracker } from '@devs/context';

export function stamped(): number {
  using tracker = new TurnTracker('agent', 'phase');
  using manager = new ContextManager({ format: 'openai-chat', budget: 100_000 });
  return tracker.toLogEntry().turn_index + manager.ledger.length;
}
`;

// The seeds' host (pkg/test/types/seed-host.ts) needs ES2015's lib (it writes async code).
const seedHost = readFileSync(join(pkgDir, 'test/types/seed-host.ts'), 'utf8');

const common = { noEmit: true, skipLibCheck: false };
const cjsFiles = ['../host.ts', '../seed-host.ts'];
const esmFiles = ['../host.mts', '../seed-host.mts'];
// [name, compiler, compilerOptions, files]
const matrix = [
  ['5.9 defaults (target ES5, node10, @types/node)', '5.9', {}, ['../host.ts']],
  ['5.9 types: []', '5.9', { types: [] }, ['../host.ts']],
  ['6 defaults', 6, {}, cjsFiles],
  ['6 types: []', 6, { types: [] }, cjsFiles],
  ['7 defaults', 7, {}, cjsFiles],
  ['7 types: []', 7, { types: [] }, cjsFiles],
  ['5.9 lib ES2020', '5.9', { target: 'ES2020', lib: ['ES2020'], module: 'node16', types: [], strict: true }, cjsFiles],
  ['5.9 lib ES2022', '5.9', { target: 'ES2022', lib: ['ES2022'], module: 'node16', types: [], strict: true }, cjsFiles],
  ['7 lib ES2020', 7, { target: 'ES2020', lib: ['ES2020'], module: 'node16', types: [], strict: true }, cjsFiles],
  ['7 lib ES2022', 7, { target: 'ES2022', lib: ['ES2022'], module: 'node16', types: [], strict: true }, cjsFiles],
  ['5.9 moduleResolution node10', '5.9', { module: 'commonjs', moduleResolution: 'node10', target: 'ES2022', types: [], strict: true }, cjsFiles],
  ['5.9 moduleResolution node16, CommonJS', '5.9', { module: 'node16', moduleResolution: 'node16', types: [], strict: true }, cjsFiles],
  ['5.9 moduleResolution node16, ESM', '5.9', { module: 'node16', moduleResolution: 'node16', types: [], strict: true }, esmFiles],
  ['5.9 moduleResolution nodenext, CommonJS', '5.9', { module: 'nodenext', moduleResolution: 'nodenext', types: [], strict: true }, cjsFiles],
  ['5.9 moduleResolution nodenext, ESM', '5.9', { module: 'nodenext', moduleResolution: 'nodenext', types: [], strict: true }, esmFiles],
  ['5.9 moduleResolution bundler', '5.9', { module: 'preserve', moduleResolution: 'bundler', target: 'ES2022', types: [], strict: true }, cjsFiles],
  ['6 moduleResolution node10 (deprecated)', 6, { module: 'commonjs', moduleResolution: 'node10', ignoreDeprecations: '6.0', types: [] }, cjsFiles],
  ['7 moduleResolution nodenext, CommonJS and ESM', 7, { module: 'nodenext', moduleResolution: 'nodenext', types: [] }, [...cjsFiles, ...esmFiles]],
  ['7 moduleResolution bundler', 7, { module: 'preserve', moduleResolution: 'bundler', types: [] }, cjsFiles],
  ['5.9 using (lib esnext.disposable)', '5.9', { target: 'ES2022', lib: ['ES2022', 'esnext.disposable'], module: 'node16', types: [], strict: true }, ['../using.ts']],
  ['7 using (lib esnext)', 7, { target: 'ESNext', lib: ['ESNext'], module: 'nodenext', types: [] }, ['../using.ts']],
];

// The VS Code extension generator's tsconfig (yo code, TypeScript), with the
// @types/node its template installs; the extension's source is under src/.
const vscodeConfig = { module: 'Node16', target: 'ES2022', lib: ['ES2022'], sourceMap: true, rootDir: 'src', strict: true };

let dir;
before(() => {
  const files = {
    'host.ts': host, 'host.mts': host, 'seed-host.ts': seedHost, 'seed-host.mts': seedHost, 'using.ts': usingHost,
    'vscode/src/extension.ts': host, 'vscode/tsconfig.json': JSON.stringify({ compilerOptions: vscodeConfig }),
  };
  matrix.forEach(([, , options, include], i) => {
    files[`config-${i}/tsconfig.json`] = JSON.stringify({ compilerOptions: { ...common, ...options }, files: include });
  });
  dir = hostProject('types', files, {}, ['@types/node']);
});

describe('the declarations compile with skipLibCheck: false', { concurrency: 2 }, () => {
  matrix.forEach(([name, compiler, options, include], i) => {
    it(`TypeScript ${name}`, async () => {
      await runAsync('node', [compilers[compiler], '-p', `config-${i}`], dir);
    });
  });
  for (const compiler of ['5.9', 7]) {
    it(`TypeScript ${compiler}, the VS Code extension generator's tsconfig (Node16, ES2022, strict)`, async () => {
      await runAsync('node', [compilers[compiler], '-p', 'vscode', '--noEmit'], dir);
    });
  }
});
