#!/usr/bin/env node
// Issue 12's figures: how long `devs-context replay` takes on a 5 MB session with exact
// o200k counts, and how much memory it uses against the file's size; then each real
// session of pkg/test/fixtures/sessions (every vendored one; `--originals`: the four the
// figures were first published for), with its time per 5 MB (issue 48's goal: at most 5 s
// on every one): its wall time less a one-turn replay's (Node's start, loading the package
// and the tokenizer), scaled to 5 MB. The 5 MB session is the Claude Code session of pkg/test/fixtures/sessions repeated (ids renamed) until
// it is 5 MB. Memory is the child's peak resident set (maxRSS) less a bare Node's.
// Run: node bench/replay.mjs [MB] [--originals]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SESSIONS, originalSessionFiles, sessionFiles } from '../pkg/test/sessions.mjs';

const args = process.argv.slice(2);
const MB = Number(args.find((a) => !a.startsWith('--')) ?? 5);
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
/** A one-turn transcript: what every replay costs before its first turn. */
function tiny() {
  const file = join(dir, 'one-turn.jsonl');
  writeFileSync(file, `${JSON.stringify({ type: 'user', uuid: 'u', sessionId: 's', message: { role: 'user', content: 'hi' } })}\n`
    + `${JSON.stringify({ type: 'assistant', uuid: 'a', sessionId: 's', message: { role: 'assistant', content: [{ type: 'text', text: 'hello' }] } })}\n`);
  return file;
}

const replayArgs = (file) => ['replay', file, '--counter', 'o200k_base', '--quiet', '--budget', '200000'];
const startup = measure(replayArgs(tiny()));
/** Milliseconds of a file of `size` bytes as seconds per 5 MB. */
const per5 = (ms, size) => ((ms / 1000) * (5e6 / size)).toFixed(1);
const rows = [];
const files = [big(), ...(args.includes('--originals') ? originalSessionFiles() : sessionFiles())];
for (const file of files) {
  const size = statSync(file).size;
  const m = measure(replayArgs(file));
  rows.push({ file: file.split('/').pop(), size, ...m });
}
console.log(`devs-context replay, exact o200k, budget 200,000; Node ${process.version}; a bare Node's peak RSS: ${(baseline / 1e6).toFixed(1)} MB; a one-turn replay: ${(startup.ms / 1000).toFixed(2)} s wall, ${(startup.cpu / 1000).toFixed(2)} s CPU\n`);
console.log('| session | file MB | wall s | CPU s | s per 5 MB (wall, CPU) | peak RSS MB | RSS over bare Node ÷ file size | turns, largest prompt |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const turns = /(\d+) turns in/.exec(r.summary)?.[1];
  const largest = /largest prompt (\d+)/.exec(r.summary)?.[1];
  console.log(`| ${r.file} | ${(r.size / 1e6).toFixed(2)} | ${(r.ms / 1000).toFixed(2)} | ${(r.cpu / 1000).toFixed(2)} | ${per5(r.ms - startup.ms, r.size)}, ${per5(r.cpu - startup.cpu, r.size)} | ${(r.rss / 1e6).toFixed(1)} | ${((r.rss - baseline) / r.size).toFixed(2)}× | ${turns}, ${largest} |`);
}
