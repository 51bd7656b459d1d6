// The provider formats of the built package, in its order, from its one list (`FORMATS` of
// pkg/src/providers/index.ts): `ContextManager` names them all when it refuses another
// (documented on its constructor), so no test types the list again.
import { ContextManager } from '@devs/context';

function formats() {
  try {
    new ContextManager({ format: '?', budget: 10_000 });
  } catch (error) {
    const listed = /must be one of (.+), got/.exec(error.message)?.[1];
    if (listed) return Object.freeze(listed.split(', ').map((f) => JSON.parse(f.replaceAll("'", '"'))));
    throw error;
  }
  throw new Error('ContextManager took format "?"');
}

/** Every format `options.format` takes. */
export const FORMATS = formats();

/** The formats a test outside a VS Code extension host builds with the package alone (`vscode` needs the host's classes). */
export const HOST_FREE_FORMATS = Object.freeze(FORMATS.filter((f) => f !== 'vscode'));
