// Issue 20: a store that never loses or alters in silence. Each case is a fault a host
// meets (the file deleted or replaced under it, strings SQLite's UTF-8 cannot hold, a
// caller's wrong byteSize, a read-only folder, a file that is no database) and what the
// store must do: reject naming the file, read back identical, or refuse the value.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { MemoryStateRepository } from '@devs/context';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { assertFieldError, rejected, thrown } from './helpers.mjs';

const dbFile = () => join(mkdtempSync(join(tmpdir(), 'hostile-')), 'state.sqlite');
/** Any JS string: UTF-16 code units, lone surrogates and NUL included. */
const anyString = (maxLength) => fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength }).map((units) => String.fromCharCode(...units));
const entry = (rawContent, toolName = 'bash') => ({ toolName, rawContent, byteSize: Buffer.byteLength(rawContent, 'utf8'), turnAge: 0, capturedAt: 0 });

describe('SqliteStateRepository never loses a write in silence', () => {
  it('a write after the file was deleted rejects, naming the file', async () => {
    const file = dbFile();
    const repo = new SqliteStateRepository(file);
    await repo.insertRawToolOutput(entry('before'));
    rmSync(file);
    const error = await rejected(repo.insertRawToolOutput(entry('after')));
    assert.ok(error instanceof Error);
    assert.ok(error.message.includes(file), error.message);
    assert.match(error.message, /deleted|replaced/);
    repo.close();
  });

  it('a write after the file was replaced by another rejects, naming the file', async () => {
    const file = dbFile();
    const repo = new SqliteStateRepository(file);
    await repo.insertRawToolOutput(entry('before'));
    const other = join(mkdtempSync(join(tmpdir(), 'hostile-')), 'other.sqlite');
    new SqliteStateRepository(other).close();
    renameSync(other, file);
    const error = await rejected(repo.insertRawToolOutput(entry('after')));
    assert.ok(error.message.includes(file), error.message);
    repo.close();
  });
});

describe('SqliteStateRepository reads back what it was given', () => {
  it('lone surrogates and NUL, in the output and the tool name, read back identical', async () => {
    const repo = new SqliteStateRepository(dbFile());
    for (const [raw, tool] of [['abc\uD800def', 'bash'], ['\uDC00', 'to\uD83Dol'], ['a\u0000b', 'nul\u0000'], ['😀\uD83D', 'x']]) {
      const id = await repo.insertRawToolOutput(entry(raw, tool));
      const row = repo.getRawToolOutput(id);
      assert.equal(row.rawContent, raw, JSON.stringify(raw));
      assert.equal(row.toolName, tool, JSON.stringify(tool));
      assert.equal(row.byteSize, Buffer.byteLength(raw, 'utf8'));
      assert.equal(repo.getRawToolOutputs(tool).at(-1).rawContent, raw, 'also by tool name');
    }
    repo.close();
  });

  it('any JS string reads back === identical (property)', async () => {
    const repo = new SqliteStateRepository(dbFile());
    await fc.assert(fc.asyncProperty(anyString(200), anyString(20), async (raw, tool) => {
      const id = await repo.insertRawToolOutput(entry(raw, tool));
      const row = repo.getRawToolOutput(id);
      return row.rawContent === raw && row.toolName === tool;
    }), { numRuns: 300 });
    repo.close();
  });

  it('byteSize is the content\'s UTF-8 size: a caller\'s value that disagrees is a RangeError, and nothing is stored', async () => {
    const repo = new SqliteStateRepository(dbFile());
    const error = await rejected(repo.insertRawToolOutput({ ...entry('abc'), byteSize: 999_999 }));
    assertFieldError(error, RangeError, 'entry.byteSize');
    assert.match(error.message, /3/);
    assert.equal(repo.getRawToolOutputs().length, 0);
    repo.close();
    const memory = new MemoryStateRepository();
    assertFieldError(await rejected(memory.insertRawToolOutput({ ...entry('abc'), byteSize: 999_999 })), RangeError, 'entry.byteSize');
    assert.equal(memory.size, 0);
  });
});

describe('SqliteStateRepository opens read-only, and names the file in every error', () => {
  it('readonly: true reads a store and leaves its file as it was; a write is refused naming the file', async () => {
    const file = dbFile();
    const repo = new SqliteStateRepository(file);
    const id = await repo.insertRawToolOutput(entry('kept'));
    repo.close();
    const before = readFileSync(file);
    chmodSync(file, 0o444);
    try {
      const reader = new SqliteStateRepository(file, { readonly: true });
      assert.equal(reader.getRawToolOutput(id).rawContent, 'kept');
      const error = await rejected(reader.insertRawToolOutput(entry('more')));
      assert.ok(error.message.includes(file), error.message);
      assert.equal(error.code, 'SQLITE_READONLY');
      reader.close();
      assert.ok(readFileSync(file).equals(before), 'the file is unchanged');
    } finally {
      chmodSync(file, 0o644);
    }
  });

  it('readonly: true reads a WAL store whose -shm cannot be made (a read-only folder, as root sees one), from a copy', async () => {
    const file = dbFile();
    const repo = new SqliteStateRepository(file);
    const id = await repo.insertRawToolOutput(entry('kept'));
    repo.close();
    // SQLite cannot open a directory as the -shm file: the same failure as a folder it may not write in.
    mkdirSync(`${file}-shm`);
    const reader = new SqliteStateRepository(file, { readonly: true });
    assert.equal(reader.getRawToolOutput(id).rawContent, 'kept');
    reader.close();
  });

  it('a file that is no database: the error names the file and keeps SQLite\'s code', () => {
    const file = dbFile();
    writeFileSync(file, 'this is not a database, it is a text file that is long enough to have a header'.repeat(20));
    const error = thrown(() => new SqliteStateRepository(file));
    assert.ok(error.message.includes(file), error.message);
    assert.equal(error.code, 'SQLITE_NOTADB');
    assert.equal(error.cause?.code, 'SQLITE_NOTADB');
  });

  it('a read-only store that does not exist is not created', () => {
    const file = dbFile();
    const error = thrown(() => new SqliteStateRepository(file, { readonly: true }));
    assert.ok(error.message.includes(file), error.message);
    assert.equal(existsSync(file), false);
  });

  it('options of the wrong type are named', () => {
    assertFieldError(thrown(() => new SqliteStateRepository(dbFile(), { readonly: 'yes' })), TypeError, 'options.readonly');
    assertFieldError(thrown(() => new SqliteStateRepository(dbFile(), 3)), TypeError, 'options');
  });
});
