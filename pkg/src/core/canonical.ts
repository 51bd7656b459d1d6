// The one JSON text of a value, whatever the order of its keys: what a snapshot's check is
// taken over, so that a store which reorders keys (PostgreSQL's jsonb) keeps it valid.

/** JSON with every object's keys in order, `undefined` left out as `JSON.stringify` does. */
export function canonical(value: unknown): string {
  const out: string[] = [];
  write(value, out);
  // One join, not a string per level: a snapshot's check reads it at every restore.
  return out.join('');
}

function write(value: unknown, out: string[]): void {
  if (value === null || typeof value !== 'object') {
    out.push(JSON.stringify(value) ?? 'null');
  } else if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      if (value[i] === undefined) out.push('null');
      else write(value[i], out);
    }
    out.push(']');
  } else {
    const bag = value as Record<string, unknown>;
    out.push('{');
    let first = true;
    for (const key of Object.keys(bag).sort()) {
      if (bag[key] === undefined) continue;
      out.push(first ? '' : ',', JSON.stringify(key), ':');
      first = false;
      write(bag[key], out);
    }
    out.push('}');
  }
}
