// What the shell takes from the entry that loaded it: the rules' wasm exports and, where
// the host has them, its files. The shell is built once per module format and shared by
// every entry (Node, browsers, slim); each entry provides these once, at load
// (`entries/*.ts`). Nothing in the shell may use them while it loads.
import type * as Glue from '../../dist/wasm/devs_context.js';
import { guard } from './guard.js';

// The shell's side of surviving a trap lives here, in the one module every entry shares:
// a copy bundled into the shell would hold managers the entry's guard never sees.
export { adopt, watch } from './guard.js';

export type Rules = typeof Glue;

/** Reads `relative` under `root` as text: `ContextComposer.fromProject`'s files. */
export type SpecFiles = (root: string, relative: string) => Promise<string>;

export let rules: Rules = new Proxy({} as Rules, {
  get(_target, name) {
    throw Object.assign(new Error(`@devs/context: the rules are not loaded yet (asked for ${String(name)}); with @devs/context/slim, call \`await init()\` once first`), { code: 'ERR_NOT_INITIALIZED' });
  },
});

export let specFiles: SpecFiles | undefined;

/**
 * Which objects' turns the running code is inside, across awaits (`AsyncLocalStorage` on
 * Node): a runner's callback that awaits that runner's next turn would wait for itself.
 */
export interface TurnScope {
  run<T>(owner: object, fn: () => T): T;
  inside(owner: object): boolean;
}

export let turnScope: TurnScope | undefined;

/** SHA-256 of a string's UTF-8 (`'utf8'`, a well-formed one) or UTF-16 units (`'utf16le'`), base64url, at once (Node's): Web Crypto's is async, and slower for short texts. */
export type Sha256 = (text: string, encoding: 'utf8' | 'utf16le') => string;

export let sha256: Sha256 | undefined;

/** Called by an entry, once, as it loads. */
export function provide(api: { rules?: Rules; specFiles?: SpecFiles; turnScope?: TurnScope; sha256?: Sha256 }): void {
  // Guarded: a trap in the rules is survived (`guard.ts`).
  if (api.rules) rules = guard(api.rules);
  if (api.specFiles) specFiles = api.specFiles;
  if (api.turnScope) turnScope = api.turnScope;
  if (api.sha256) sha256 = api.sha256;
}
