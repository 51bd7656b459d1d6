// SqliteStateRepository (@devs/context/sqlite) on a real SQLite file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ContextPruner, ToolOutputPruner, WindowComposer, applyContextManagement, createDefaultWindowBudget } from '@devs/context';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { assertFieldError, rejected, thrown } from './helpers.mjs';
import { context } from './management-fixtures.mjs';

const dbFile = () => join(mkdtempSync(join(tmpdir(), 'state-')), 'state.sqlite');

/** Several hundred KB of mixed text, as a test runner or a grep would print. */
function bigOutput(kb, seed) {
  const line = (i) => `test parser::case_${seed}_${i} ... ${i % 7 ? 'ok' : 'FAILED: expected `é` got `😀`'}\n`;
  let out = '';
  for (let i = 0; out.length < kb * 1024; i++) out += line(i);
  return out;
}

const entry = (toolName, rawContent, turnAge = 2) => ({
  toolName, rawContent, byteSize: Buffer.byteLength(rawContent, 'utf8'), turnAge, capturedAt: new Date('2026-11-22T10:00:00Z'),
});

describe('SqliteStateRepository', () => {
  it('creates raw_tool_outputs on open, in WAL mode, at the current schema version', () => {
    const file = dbFile();
    new SqliteStateRepository(file).close();
    const db = new Database(file, { readonly: true });
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('user_version', { simple: true }), 4);
    const columns = db.prepare('PRAGMA table_info(raw_tool_outputs)').all().map((c) => c.name);
    assert.deepEqual(columns, ['id', 'tool_name', 'raw_content', 'byte_size', 'turn_age', 'captured_at', 'stored_at', 'raw_content_exact', 'tool_name_exact', 'session_id', 'session_seq']);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'context_%' ORDER BY name").pluck().all();
    assert.deepEqual(tables, ['context_changes', 'context_inbox', 'context_sessions', 'context_summaries']);
    db.close();
  });

  it('migrates a store of the first version forward, keeping its rows; refuses a newer one naming both versions', async () => {
    const file = dbFile();
    const old = new Database(file);
    old.exec(`CREATE TABLE raw_tool_outputs (id INTEGER PRIMARY KEY AUTOINCREMENT, tool_name TEXT NOT NULL, raw_content TEXT NOT NULL,
      byte_size INTEGER NOT NULL, turn_age INTEGER NOT NULL, captured_at TEXT NOT NULL, stored_at TEXT NOT NULL)`);
    old.prepare("INSERT INTO raw_tool_outputs VALUES (1, 'bash', 'old row', 7, 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')").run();
    old.close();
    const repo = new SqliteStateRepository(file);
    assert.equal(repo.getRawToolOutput(1).rawContent, 'old row');
    const id = await repo.insertRawToolOutput(entry('bash', 'new \uD800 row'));
    assert.equal(repo.getRawToolOutput(id).rawContent, 'new \uD800 row');
    repo.close();
    const newer = new Database(file);
    newer.pragma('user_version = 99');
    newer.close();
    const error = thrown(() => new SqliteStateRepository(file));
    assert.match(error.message, /schema version 99 is newer than this package's 4/);
    assert.ok(error.message.includes(file));
  });

  it('stores every output and reads each back byte for byte', async () => {
    const file = dbFile();
    const repo = new SqliteStateRepository(file);
    const entries = [entry('run_tests', bigOutput(400, 1)), entry('grep', bigOutput(250, 2)), entry('read_file', 'fn main() {}\n\u0000nul\tand tabs')];
    for (const e of entries) await repo.insertRawToolOutput(e);
    repo.close();

    // A separate connection sees every committed row.
    const db = new Database(file, { readonly: true });
    const rows = db.prepare('SELECT * FROM raw_tool_outputs ORDER BY id').all();
    db.close();
    assert.equal(rows.length, 3);
    rows.forEach((row, i) => {
      assert.equal(row.tool_name, entries[i].toolName);
      assert.ok(Buffer.from(row.raw_content, 'utf8').equals(Buffer.from(entries[i].rawContent, 'utf8')), `row ${i} bytes`);
      assert.equal(row.byte_size, entries[i].byteSize);
      assert.equal(row.turn_age, 2);
      assert.equal(row.captured_at, '2026-11-22T10:00:00.000Z');
      assert.ok(!Number.isNaN(Date.parse(row.stored_at)));
    });
  });

  it('commits each insert on its own: a reader sees it at once', async () => {
    const file = dbFile();
    const repo = new SqliteStateRepository(file);
    const reader = new Database(file, { readonly: true });
    for (let i = 1; i <= 3; i++) {
      await repo.insertRawToolOutput(entry(`tool_${i}`, `output ${i}`));
      assert.equal(reader.prepare('SELECT count(*) AS n FROM raw_tool_outputs').get().n, i);
    }
    reader.close();
    assert.deepEqual(repo.getRawToolOutputs('tool_2').map((r) => r.rawContent), ['output 2']);
    repo.close();
  });

  it('rejects a bad entry, naming the field, and stores nothing', async () => {
    const repo = new SqliteStateRepository(dbFile());
    assertFieldError(await rejected(repo.insertRawToolOutput({ ...entry('t', 'x'), byteSize: -1 })), RangeError, 'entry.byteSize');
    assertFieldError(await rejected(repo.insertRawToolOutput({ ...entry('t', 'x'), rawContent: 5 })), TypeError, 'entry.rawContent');
    assertFieldError(await rejected(repo.insertRawToolOutput({ ...entry('t', 'x'), capturedAt: 'not a date' })), TypeError, 'entry.capturedAt');
    assert.deepEqual(repo.getRawToolOutputs(), []);
    assertFieldError(thrown(() => new SqliteStateRepository('')), TypeError, 'filename');
    repo.close();
  });

  it('is the stateRepository of applyContextManagement: truncated outputs are kept raw', async () => {
    const file = dbFile();
    const repo = new SqliteStateRepository(file);
    const outputs = [entry('run_tests', bigOutput(300, 3), 2), entry('grep', bigOutput(80, 4), 1)];
    const budget = createDefaultWindowBudget(800_000);
    const ctx = context({ pendingToolOutputs: outputs, budget });
    const result = await applyContextManagement(ctx, {
      composer: new WindowComposer(budget),
      pruner: new ContextPruner({ summarize: async () => 'unused' }),
      toolOutputPruner: new ToolOutputPruner(),
      stateRepository: repo,
    });
    assert.equal(result.truncatedOutputCount, 1);
    assert.match(ctx.pendingToolOutputs[0].summary, /state\.sqlite, table raw_tool_outputs/);
    assert.equal(ctx.pendingToolOutputs[1], outputs[1], 'too young to truncate');
    const [row] = repo.getRawToolOutputs();
    assert.equal(row.toolName, 'run_tests');
    assert.equal(row.rawContent, outputs[0].rawContent);
    repo.close();
  });
});

describe('SqliteStateRepository with a bounded AgentRunner', () => {
  it('resolves ids that read every masked output back, byte for byte', async () => {
    const { AgentRunner, ContextComposer, SummarizationHandoff } = await import('@devs/context');
    const repo = new SqliteStateRepository(dbFile());
    const outputs = Array.from({ length: 10 }, (_, i) => bigOutput(4 + i, i));
    let k = 0;
    const llm = {
      complete: async () => {
        const output = outputs[k % outputs.length];
        return {
          text: `step ${k}`,
          envelope: {
            schema_version: '1.0.0', turn_index: k++, agent_id: 'a', phase: 'p',
            thought: { reasoning: 'r', plan: 'p' }, action: { tool_name: 'run_tests', arguments: { n: k } },
            observation: { status: 'success', output },
          },
        };
      },
    };
    const runner = new AgentRunner({
      agentId: 'a', taskGoal: 'g', llm, composer: new ContextComposer({ specs: [{ name: 'TAS', content: 't' }] }),
      handoff: new SummarizationHandoff({ llmClient: { summarize: async () => 'S' } }), bounded: { budget: 20_000, store: repo },
    });
    const masked = [];
    for (let i = 0; i < 10; i++) masked.push(...((await runner.runTurn(`go ${i}`)).ledger.compaction?.masked ?? []));
    assert.ok(masked.length >= 3, `${masked.length} masked`);
    for (const id of masked) {
      const row = repo.getRawToolOutput(id);
      assert.ok(row, `id ${id} reads back`);
      assert.ok(outputs.includes(row.rawContent), `id ${id} holds an output, byte for byte`);
    }
    assert.equal(repo.getRawToolOutput(987654), undefined);
    repo.close();
  });
});
