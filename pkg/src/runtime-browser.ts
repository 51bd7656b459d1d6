// The runtime of the builds for hosts other than Node: the `browser` export condition,
// the default for hosts that match neither `browser` nor `node`, and the slim entry. The
// clock and the byte count are runtime.ts's own, which work on any host; file access is
// left out, so that no bundler ever meets a `node:` import. pkg/scripts/build.mjs puts
// this file in place of runtime.ts for those builds.

export { clockNs, utf8Length } from './runtime.js';

/** `ContextComposer.fromProject` reads files, which these builds cannot: it rejects. */
export async function readSpecFile(_root: string, _relative: string): Promise<string> {
  throw new Error('ContextComposer.fromProject needs Node.js file access, which this build of @devs/context ' +
    '(for browsers and other hosts without it) leaves out; pass `specs` to new ContextComposer() instead');
}
