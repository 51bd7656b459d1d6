// JSON text of data read from a transcript, however deep it nests: a hostile file can
// nest 100,000 levels, and `JSON.stringify` recurses once per level.

/** Text emitted as it is (brackets, commas, keys). */
class Raw {
  constructor(readonly text: string) {}
}

/** `JSON.stringify(value)` for JSON data (as `JSON.parse` returns it), without recursion. */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  const parts: string[] = [];
  const work: unknown[] = [value];
  while (work.length) {
    const v = work.pop();
    if (v instanceof Raw) parts.push(v.text);
    else if (v === null || typeof v !== 'object') parts.push(JSON.stringify(v) ?? 'null');
    else if (Array.isArray(v)) {
      parts.push('[');
      work.push(new Raw(']'));
      for (let i = v.length - 1; i >= 0; i--) {
        work.push(v[i] === undefined || typeof v[i] === 'function' ? null : v[i]);
        if (i > 0) work.push(new Raw(','));
      }
    } else {
      const bag = v as Record<string, unknown>;
      const keys = Object.keys(bag).filter((k) => bag[k] !== undefined && typeof bag[k] !== 'function');
      parts.push('{');
      work.push(new Raw('}'));
      for (let i = keys.length - 1; i >= 0; i--) {
        work.push(bag[keys[i]]);
        work.push(new Raw(`${JSON.stringify(keys[i])}:`));
        if (i > 0) work.push(new Raw(','));
      }
    }
  }
  return parts.join('');
}
