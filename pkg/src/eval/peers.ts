// The peers' libraries are optional peer dependencies of the package: a strategy that needs
// one that is not installed is named as absent in the output, and the others run.
// `require` is Node's (the ESM build defines it with `createRequire`, scripts/build.mjs).

/** A strategy's library is not installed. */
export class AbsentPeerError extends Error {
  readonly code = 'ERR_EVAL_ABSENT_PEER';
  constructor(readonly peer: string, cause?: unknown) {
    super(`${peer} is not installed (an optional peer of @devs/context: npm install ${peer})`, { cause });
    this.name = 'AbsentPeerError';
  }
}

const MISSING = new Set(['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND', 'ERR_PACKAGE_PATH_NOT_EXPORTED']);

// A peer's module is whatever it exports: read loosely.
// The name a peer goes by in the output is its package's (`@langchain/core/messages` → `@langchain/core`).
/** The module `name` (a package or a subpath of one), or an `AbsentPeerError` naming its package. */
export function peer(name: string, from?: string): any {
  try {
    return from === undefined ? require(name) : require('node:module').createRequire(from)(name);
  } catch (error) {
    if (MISSING.has((error as { code?: string } | null)?.code ?? '')) throw new AbsentPeerError(packageOf(name), error);
    throw error;
  }
}

/** Where `name` resolves from here, or an `AbsentPeerError`. */
export function resolvePeer(name: string): string {
  try {
    return require.resolve(name);
  } catch (error) {
    throw new AbsentPeerError(packageOf(name), error);
  }
}

function packageOf(name: string): string {
  const parts = name.split('/');
  return name.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}
