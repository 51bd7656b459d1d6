#!/usr/bin/env node
// What a durable session's store holds against what it was given (issue 48, item 5): the
// computer-use session of pkg/test/storage-session.mjs (a 2 KB command output each turn, a
// 1,280 × 800 JPEG screenshot every 5th) written to SQLite, measured at 1,000 and 10,000
// turns: the UTF-8 bytes of its rows (the journal), its checkpoints and its stored texts,
// against the bytes of the messages appended (as JSON, images as their base64); and the
// time to open it again (median of 5 after one to warm up). A benchmark, not a test:
// nothing is asserted (pkg/test/storage.test.mjs holds a shorter session to 1.5x).
// Run: node bench/storage.mjs [turns...]   (default 1000 10000; `DIST=<pkg/dist>` for another build)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { driveStorage, storageOptions } from '../pkg/test/storage-session.mjs';

const dist = process.env.DIST ?? new URL('../pkg/dist', import.meta.url).pathname;
const { ContextManager } = await import(join(dist, 'index.mjs'));
const { SqliteStateRepository } = await import(join(dist, 'sqlite.mjs'));
const marks = process.argv.slice(2).map(Number);
const turns = marks.length ? marks : [1_000, 10_000];
const mb = (n) => (n / 1e6).toFixed(1);

const dir = mkdtempSync(join(tmpdir(), 'bench-storage-'));
const store = new SqliteStateRepository(join(dir, 'state.sqlite'));
const sum = (sql) => store.db.prepare(sql).pluck().get() ?? 0;
console.log(`A durable session on SQLite, a screenshot every 5 turns, Node ${process.version}, ${dist}\n`);
console.log('| turns | given MB | journal MB | checkpoints MB (count) | stored texts MB (count) | store MB | store / given | rows replayed on open | open ms |');
console.log('|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
let raw = 0;
let done = 0;
let context = await ContextManager.open(storageOptions('s', store));
for (const upTo of turns) {
  raw += await driveStorage(context, done, upTo);
  done = upTo;
  await context.close();
  const journal = sum('SELECT SUM(LENGTH(CAST(changes AS BLOB))) FROM context_changes');
  const checkpoints = sum('SELECT SUM(LENGTH(CAST(checkpoint AS BLOB))) FROM context_changes');
  const count = sum('SELECT COUNT(checkpoint) FROM context_changes');
  const texts = sum('SELECT SUM(LENGTH(CAST(raw_content AS BLOB))) FROM raw_tool_outputs');
  const outputs = sum('SELECT COUNT(*) FROM raw_tool_outputs');
  const all = journal + checkpoints + texts;
  const replayed = store.loadSession('s').changes.length;
  const times = [];
  for (let i = 0; i < 6; i++) {
    const started = performance.now();
    context = await ContextManager.open(storageOptions('s', store));
    times.push(performance.now() - started);
    if (i < 5) await context.close();
  }
  const median = times.slice(1).sort((a, b) => a - b)[2];
  console.log(`| ${upTo} | ${mb(raw)} | ${mb(journal)} | ${mb(checkpoints)} (${count}) | ${mb(texts)} (${outputs}) | ${mb(all)} | ${(all / raw).toFixed(2)} | ${replayed} | ${median.toFixed(1)} |`);
}
await context.close();
store.close();
rmSync(dir, { recursive: true, force: true });
