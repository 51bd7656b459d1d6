// What a session reads back from its store, checked, and the keys it finds things by.
import type { EngineChanges } from '../engine.js';
import type { SessionRows } from '../../stores/types.js';
import { argumentError, coded, errorText } from '../../errors/index.js';
import { array, number, object, string } from '../../core/read.js';
import { textKey } from '../../core/text-key.js';

/**
 * One call's changes as the store gave them back, checked for their shape: a row altered
 * or cut short is a TypeError naming the session and version, before anything is made of it.
 */
export function readChanges(text: string, field: string): EngineChanges {
  let value: unknown;
  try {
    value = JSON.parse(string(field, text));
  } catch (error) {
    if (error instanceof TypeError) throw error;
    throw argumentError(TypeError, field, `is not JSON: the row was altered or cut short (${errorText(error)})`);
  }
  const c = object(field, value);
  for (const key of ['messages', 'calls', 'ledger']) array(`${field}.${key}`, c[key]);
  // Format 1 rows hold the rules' calls (`log`), format 2 rows the journal's chunks (`events`).
  if (c.log !== undefined) array(`${field}.log`, c.log);
  if (c.events !== undefined) array(`${field}.events`, c.events).forEach((e, i) => string(`${field}.events[${i}]`, e));
  number(`${field}.ledgerFrom`, c.ledgerFrom);
  (c.messages as unknown[]).forEach((m, i) => {
    const pair = array(`${field}.messages[${i}]`, m);
    const at = number(`${field}.messages[${i}][0]`, pair[0]);
    if (!Number.isInteger(at) || at < 0 || at >= 2 ** 32 - 1) throw argumentError(RangeError, `${field}.messages[${i}][0]`, `must be a message's number, a whole number >= 0, got ${at}`);
    if (pair[1] !== null) object(`${field}.messages[${i}][1]`, pair[1]);
  });
  (c.calls as unknown[]).forEach((call, i) => {
    const pair = array(`${field}.calls[${i}]`, call);
    string(`${field}.calls[${i}][0]`, pair[0]);
    string(`${field}.calls[${i}][1]`, pair[1]);
  });
  (c.ledger as unknown[]).forEach((record, i) => object(`${field}.ledger[${i}]`, record));
  ((c.log ?? []) as unknown[]).forEach((call, i) => string(`${field}.log[${i}][0]`, array(`${field}.log[${i}]`, call)[0]));
  if (c.lines !== undefined) {
    array(`${field}.lines`, c.lines).forEach((pair, i) => {
      const [id, line] = array(`${field}.lines[${i}]`, pair);
      string(`${field}.lines[${i}][0]`, id);
      string(`${field}.lines[${i}][1]`, line);
    });
  }
  if (c.decisions !== undefined) number(`${field}.decisions`, c.decisions);
  return c as unknown as EngineChanges;
}

/**
 * The version before `rows.changes[0]`, once the rows are checked to be every call from
 * there to `rows.version`: from the checkpoint's call when there is one, else from `after`,
 * the version the rows were asked after. A lost row is refused: the session's row still
 * counts its call, and the rows before it would replay as a session one call short, so
 * without this nothing notices the newest one gone.
 * @throws {Error} `ERR_STORE_CORRUPT`, `store: session <id>, version <n> is missing: …`.
 */
export function checkedStart(sessionId: string, rows: SessionRows, after: number): number {
  const at = `store: session ${sessionId}`;
  const version = number(`${at}.version`, rows.version);
  const changes = array(`${at}.changes`, rows.changes);
  if (version === 0 && changes.length > 0) throw corrupt(`${at}: the session's own row is missing, but the store holds rows of ${changes.length} of its calls; it is not opened as a new session`);
  const start = rows.checkpoint === undefined ? after : number(`${at}.checkpoint.version`, rows.checkpoint.version) - 1;
  if (rows.checkpoint !== undefined && (start < after || start >= version)) {
    throw corrupt(`${at}, checkpoint at version ${start + 1}: is not a call after version ${after} up to the session's version ${version}`);
  }
  const missing = (v: number) => corrupt(`${at}, version ${v} is missing: the session is at version ${version}, but the store has no row for call ${v} (deleted, or lost with a copy put back); it is not opened without it`);
  const past = (v: number) => corrupt(`${at}, version ${v} is past the session's version ${version}: the session's row was altered, or put back from an older copy`);
  if (rows.versions !== undefined) {
    const versions = array(`${at}.versions`, rows.versions);
    if (versions.length !== changes.length) throw argumentError(TypeError, `${at}.versions`, `must give the version of each of the ${changes.length} changes, got ${versions.length}`);
    if (rows.checkpoint !== undefined && versions.length > 0 && versions[0] !== start + 1) {
      throw corrupt(`${at}, checkpoint at version ${start + 1}: its rows begin at version ${String(versions[0])}, not with its call`);
    }
    versions.forEach((v, i) => {
      const got = number(`${at}.versions[${i}]`, v);
      const want = start + 1 + i;
      if (got > version) throw past(got);
      if (got > want) throw missing(want);
      if (got < want) throw corrupt(`${at}, version ${got} is out of place: given as the row of call ${want}`);
    });
  }
  const given = start + changes.length;
  if (given > version) throw past(given);
  if (given < version) {
    if (rows.versions !== undefined) throw missing(given + 1);
    const why = rows.checkpoint === undefined ? '' : ', or the checkpoint is not where its rows begin';
    throw corrupt(`${at}, versions ${start + 1} to ${version} are ${version - start} calls, but the store gave ${changes.length} rows: ${version - given} missing (deleted, or lost with a copy put back; the store gives no versions to say which${why}); it is not opened without them`);
  }
  return start;
}

function corrupt(message: string): Error & { code: string } {
  return coded(new Error(message), 'ERR_STORE_CORRUPT');
}

/** Whether two calls' changes are one call's, made twice: a build's are, but for the time it took. */
export function sameCall(a: string, b: string): boolean {
  if (a === b) return true;
  const timeless = (text: string) => {
    const c = JSON.parse(text) as EngineChanges;
    for (const call of c.log ?? []) if (call[0] === 'ledger') call[1] = 0;
    for (const r of c.ledger) r.ms = 0;
    return JSON.stringify(c);
  };
  return timeless(a) === timeless(b);
}

/** The summarizer prompt's key: SHA-256 of its UTF-16 units, so no two prompts share one. */
export async function promptKey(prompt: string): Promise<string> {
  const subtle = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  // Node 18 has no global Web Crypto: the length and two 32-bit hashes stand in.
  if (!subtle) return `fnv:${textKey(prompt)}`;
  const units = new Uint16Array(prompt.length);
  for (let i = 0; i < prompt.length; i++) units[i] = prompt.charCodeAt(i);
  const digest = new Uint8Array(await subtle.digest('SHA-256', units));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A name for this manager in the store's claims, unique enough among a fleet's workers. */
export function ownerId(): string {
  const crypto = (globalThis as { crypto?: Crypto }).crypto;
  if (crypto?.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}
