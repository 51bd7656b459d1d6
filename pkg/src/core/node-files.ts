// Node's files, for `ContextComposer.fromProject` (the Node entry provides them). Node's fs
// is imported lazily, when a host first reads its specs.
import { rules } from './wasm.js';

/** A spec file's text; a missing or empty file is an error naming its path. */
export async function readSpecFile(root: string, relative: string): Promise<string> {
  let fs: typeof import('node:fs/promises');
  let path: typeof import('node:path');
  try {
    fs = await import('node:fs/promises');
    path = await import('node:path');
  } catch (cause) {
    throw Object.assign(new Error('ContextComposer.fromProject needs Node.js file access; pass `specs` to new ContextComposer() instead', { cause }), { code: 'ERR_NO_FILE_ACCESS' });
  }
  const file = path.resolve(root, relative);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (cause) {
    const code = (cause as { code?: string }).code ?? 'ERR_SPEC_READ';
    const reason = code === 'ENOENT'
      ? 'is missing: write your project\'s summary there, or pass the texts as `specs` to new ContextComposer(), or leave out `composer` (AgentRunner then keeps a plain sliding window)'
      : `could not be read (${code})`;
    throw Object.assign(new Error(`spec file ${file} ${reason}`, { cause }), { code, path: file });
  }
  if (rules.isBlank(text)) {
    throw Object.assign(new Error(`spec file ${file} is empty`), { code: 'ERR_SPEC_EMPTY', path: file });
  }
  return text;
}

