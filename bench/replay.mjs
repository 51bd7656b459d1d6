#!/usr/bin/env node
// Issue 12's figures: how long `devs-context replay` takes on a 5 MB session with exact
// o200k counts, and how much memory it uses against the file's size; then each real
// session of pkg/test/fixtures/sessions (every vendored one; `--originals`: the four the
// figures were first published for). The 5 MB session is the Claude Code session of
// pkg/test/fixtures/sessions repeated (ids renamed) until it is 5 MB. Memory is the child's
// peak resident set (maxRSS) less a bare Node's. Then issue 48's goal, at most 5 s per 5 MB
// of transcript on every vendored session: each session's turns repeated until its share
// of its file's bytes reaches 5 MB, replayed in this process through `replay()` as the CLI
// does by default (the bounded runner), after one parse of its file. Wall and CPU times are both given: the machine may be shared.
// Run: node bench/replay.mjs [MB] [--originals] [--no-scaled] [--scaled-only] [--session NAME,…]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SESSIONS, originalSessionFiles, sessionFiles } from '../pkg/test/sessions.mjs';

const args = process.argv.slice(2);
const flag = (name) => { const i = args.indexOf(name); return i < 0 ? undefined : args[i + 1]; };
const MB = Number(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--session') ?? 5);
/** `--session`: the scaled sessions whose file name includes one of these words. */
const picked = (flag('--session') ?? '').split(',').filter(Boolean);
const cli = fileURLToPath(new URL('../pkg/dist/cli.mjs', import.meta.url));
const transcripts = SESSIONS;
const dir = mkdtempSync(join(tmpdir(), 'replay-bench-'));

function big() {
  const lines = readFileSync(join(transcripts, 'claude-code-session.jsonl'), 'utf8').trimEnd().split('\n');
  const out = [];
  let size = 0;
  for (let copy = 0; size < MB * 1024 * 1024; copy++) {
    for (const line of lines) {
      const renamed = line.replace(/"(id|uuid|parentUuid|tool_use_id)":"([^"]+)"/g, (_, k, v) => `"${k}":"${v}-${copy}"`);
      out.push(renamed);
      size += renamed.length + 1;
    }
  }
  const file = join(dir, `claude-code-${MB}mb.jsonl`);
  writeFileSync(file, `${out.join('\n')}\n`);
  return file;
}

/** Wall time, CPU time (the machine may be shared) and peak RSS of a child that runs `args`. */
function measure(args) {
  const script = `const t=performance.now();process.argv=[process.argv[0],${JSON.stringify(cli)},...${JSON.stringify(args)}];` +
    `await import(${JSON.stringify(cli)});process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('\\nBENCH '+JSON.stringify({ms:performance.now()-t,cpu:(u.userCPUTime+u.systemCPUTime)/1000,rss:u.maxRSS*1024})+'\\n')});`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const m = /BENCH (\{.*\})/.exec(r.stderr);
  if (!m) throw new Error(`replay failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return { ...JSON.parse(m[1]), summary: r.stdout.trim().split('\n').pop() };
}

const bare = spawnSync(process.execPath, ['-e', "process.stderr.write(String(process.resourceUsage().maxRSS*1024))"], { encoding: 'utf8' });
const baseline = Number(bare.stderr);
const replayArgs = (file) => ['replay', file, '--counter', 'o200k_base', '--quiet', '--budget', '200000'];
const rows = [];
const files = args.includes('--scaled-only') ? [] : [big(), ...(args.includes('--originals') ? originalSessionFiles() : sessionFiles())];
for (const file of files) {
  const size = statSync(file).size;
  const m = measure(replayArgs(file));
  rows.push({ file: file.split('/').pop(), size, ...m });
}
if (files.length) console.log(`devs-context replay, exact o200k, budget 200,000; Node ${process.version}; a bare Node's peak RSS: ${(baseline / 1e6).toFixed(1)} MB\n`);
if (files.length) console.log('| session | file MB | wall s | CPU s | peak RSS MB | RSS over bare Node ÷ file size | turns, largest prompt |');
if (files.length) console.log('|---|---|---|---|---|---|---|');
for (const r of rows) {
  const turns = /(\d+) turns in/.exec(r.summary)?.[1];
  const largest = /largest prompt (\d+)/.exec(r.summary)?.[1];
  console.log(`| ${r.file} | ${(r.size / 1e6).toFixed(2)} | ${(r.ms / 1000).toFixed(2)} | ${(r.cpu / 1000).toFixed(2)} | ${(r.rss / 1e6).toFixed(1)} | ${((r.rss - baseline) / r.size).toFixed(2)}× | ${turns}, ${largest} |`);
}

if (!args.includes('--no-scaled')) await scaled();

/** Every vendored session, its turns repeated to 5 MB of transcript, replayed in this process: seconds per 5 MB. */
async function scaled() {
  const require = createRequire(new URL('../pkg/package.json', import.meta.url));
  const { DEFAULT_SETTINGS, parseTranscript, replay } = require('@devs/context/replay');
  const { createTokenCounter } = require('@devs/context/tokenizers');
  const counter = createTokenCounter('o200k_base');
  const clock = () => ({ ms: performance.now(), cpu: process.cpuUsage() });
  const since = (t) => { const c = process.cpuUsage(t.cpu); return { ms: performance.now() - t.ms, cpu: (c.user + c.system) / 1000 }; };
  const TARGET = 5e6;
  console.log('\nEvery vendored session, its turns repeated to 5 MB of its transcript, exact o200k, budget 200,000:\n');
  console.log('| session | file MB | parse ms per 5 MB (wall, CPU) | turns replayed | replay s per 5 MB (wall, CPU) |');
  console.log('|---|---|---|---|---|');
  let worst = 0;
  for (const file of sessionFiles().filter((f) => picked.length === 0 || picked.some((w) => basename(f).includes(w)))) {
    const text = readFileSync(file, 'utf8');
    const t = clock();
    const sessions = parseTranscript(text, basename(file));
    const parse = since(t);
    // A session's share of its file's bytes: by what its steps hold (OpenHands: several a file).
    const held = sessions.map((session) => session.steps.reduce((n, step) => n + JSON.stringify(step).length, 0));
    const all = held.reduce((a, b) => a + b, 0) || 1;
    for (const [k, session] of sessions.entries()) {
      const one = (text.length * held[k]) / all;
      const copies = Math.max(1, Math.ceil(TARGET / Math.max(one, 1)));
      const steps = Array.from({ length: copies }, () => session.steps).flat();
      const r = clock();
      await replay({ ...session, steps }, { ...DEFAULT_SETTINGS, budget: 200_000, format: 'runner' }, counter);
      const took = since(r);
      const per = (ms) => (ms / 1000) * (TARGET / (one * copies));
      worst = Math.max(worst, per(took.cpu));
      const perParse = (ms) => (ms * (TARGET / text.length)).toFixed(0);
      console.log(`| ${session.name} | ${(text.length / 1e6).toFixed(2)} | ${perParse(parse.ms)}, ${perParse(parse.cpu)} | ${steps.length} | ${per(took.ms).toFixed(1)}, ${per(took.cpu).toFixed(1)} |`);
    }
  }
  console.log(`\nThe slowest, in CPU time: ${worst.toFixed(1)} s per 5 MB (the goal: at most 5).`);
}
