// The session tables of the SQLite store (schema version 3): each call of a session is one
// IMMEDIATE transaction that checks the session's version, writes the call's changes and
// the texts it stored, and moves the version on, or writes nothing.
import type Database from 'better-sqlite3';
import { SessionConflictError, type SessionCommit, type SessionRows } from '@devs/context';
import { fitsText, readableText, utf16Bytes } from '../../core/exact-text.js';
import { isoTime } from '../rows.js';

interface SessionRow {
  version: number;
  format: string;
  config: string;
  outputs: number;
}

/** The session tables' statements on `db`. */
export function sqliteSessions(db: Database.Database) {
  const session = db.prepare('SELECT version, format, config, outputs FROM context_sessions WHERE session_id = ?');
  const changes = db.prepare('SELECT version, changes FROM context_changes WHERE session_id = ? AND version > ? ORDER BY version').raw();
  // Read from the newest call back: it stops at the first checkpoint it meets.
  const checkpoint = db.prepare('SELECT version, checkpoint FROM context_changes WHERE session_id = ? AND version > ? AND checkpoint IS NOT NULL ORDER BY version DESC LIMIT 1');
  const inbox = db.prepare('SELECT seq, messages FROM context_inbox WHERE session_id = ? AND taken_in IS NULL ORDER BY seq').raw();
  const enqueue = db.prepare('INSERT INTO context_inbox (session_id, messages, append_id) VALUES (?, ?, ?) ON CONFLICT (append_id) DO NOTHING');
  // Kept, marked with the version that took them in: which build took in which append.
  const drain = db.prepare('UPDATE context_inbox SET taken_in = ? WHERE session_id = ? AND seq = ? AND taken_in IS NULL');
  const create = db.prepare('INSERT INTO context_sessions (session_id, version, format, config, outputs, updated_at) VALUES (?, 1, ?, ?, ?, ?)');
  const advance = db.prepare('UPDATE context_sessions SET version = version + 1, outputs = outputs + ?, updated_at = ? WHERE session_id = ?');
  const change = db.prepare('INSERT INTO context_changes (session_id, version, changes, checkpoint) VALUES (?, ?, ?, ?)');
  const output = db.prepare(
    `INSERT INTO raw_tool_outputs (tool_name, raw_content, byte_size, turn_age, captured_at, stored_at, raw_content_exact, tool_name_exact, session_id, session_seq)
     VALUES (@tool_name, @raw_content, @byte_size, @turn_age, @captured_at, @stored_at, @raw_content_exact, @tool_name_exact, @session_id, @session_seq)`,
  );
  const summary = db.prepare('SELECT summary FROM context_summaries WHERE session_id = ? AND key = ? AND summary IS NOT NULL').pluck();
  const keep = db.prepare(`INSERT INTO context_summaries (session_id, key, summary) VALUES (?, ?, ?)
    ON CONFLICT (session_id, key) DO UPDATE SET summary = excluded.summary, claimed_by = NULL, claimed_until = NULL WHERE summary IS NULL`);
  const claim = db.prepare(`INSERT INTO context_summaries (session_id, key, claimed_by, claimed_until) VALUES (@session, @key, @owner, @until)
    ON CONFLICT (session_id, key) DO UPDATE SET claimed_by = @owner, claimed_until = @until
    WHERE summary IS NULL AND (claimed_until < @now OR claimed_by = @owner)`);
  const release = db.prepare('DELETE FROM context_summaries WHERE session_id = ? AND key = ? AND summary IS NULL AND claimed_by = ?');

  const commit = db.transaction((c: SessionCommit) => {
    const now = new Date().toISOString();
    const row = session.get(c.sessionId) as SessionRow | undefined;
    const actual = row?.version ?? 0;
    if (actual !== c.version) throw new SessionConflictError(c.sessionId, c.version, actual);
    if (row) advance.run(c.outputs.length, now, c.sessionId);
    else create.run(c.sessionId, c.format, c.config, c.outputs.length, now);
    change.run(c.sessionId, c.version + 1, c.changes, c.checkpoint ?? null);
    for (const seq of c.inbox ?? []) drain.run(c.version + 1, c.sessionId, seq);
    for (const o of c.outputs) {
      output.run({
        tool_name: readableText(o.toolName),
        raw_content: readableText(o.rawContent),
        byte_size: o.byteSize,
        turn_age: o.turnAge,
        captured_at: isoTime(o.capturedAt),
        stored_at: now,
        raw_content_exact: fitsText(o.rawContent) ? null : utf16Bytes(o.rawContent),
        tool_name_exact: fitsText(o.toolName) ? null : utf16Bytes(o.toolName),
        session_id: c.sessionId,
        session_seq: o.seq,
      });
    }
  });

  return {
    load(sessionId: string, after = 0): SessionRows | undefined {
      return db.transaction(() => {
        const row = session.get(sessionId) as SessionRow | undefined;
        const queued = inbox.all(sessionId) as Array<[number, string]>;
        const cp = row ? (checkpoint.get(sessionId, after) as { version: number; checkpoint: string } | undefined) : undefined;
        // A checkpoint is the state before its call: that call's changes are read with it.
        const from = cp ? cp.version - 1 : after;
        // Read without the session's row too: calls whose session row was lost are refused, not taken for a new session.
        const calls = changes.all(sessionId, from) as Array<[number, string]>;
        if (!row && !queued.length && !calls.length) return undefined;
        // Each row's version with it: a session that lost one is refused naming it.
        const rows = { ...(row ?? { version: 0, format: '', config: '', outputs: 0 }), changes: calls.map((c) => c[1]), versions: calls.map((c) => c[0]), inbox: queued };
        return cp ? { ...rows, checkpoint: { version: cp.version, state: cp.checkpoint } } : rows;
      })();
    },
    enqueue: (sessionId: string, messages: string, appendId: string) => void enqueue.run(sessionId, messages, appendId),
    commit: (c: SessionCommit) => commit.immediate(c),
    readSummary: (sessionId: string, key: string): string | undefined => {
      const text = summary.get(sessionId, key) as string | undefined;
      return text === undefined ? undefined : (JSON.parse(text) as string);
    },
    // JSON keeps a summary's lone surrogates exact in a UTF-8 column.
    writeSummary: (sessionId: string, key: string, text: string) => void keep.run(sessionId, key, JSON.stringify(text)),
    claim: (sessionId: string, key: string, owner: string, ttlMs: number): boolean => {
      const now = Date.now();
      return claim.run({ session: sessionId, key, owner, until: now + ttlMs, now }).changes === 1;
    },
    release: (sessionId: string, key: string, owner: string) => void release.run(sessionId, key, owner),
  };
}
