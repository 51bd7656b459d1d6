// Loads the rules' wasm once, when the package is first imported. The bytes are inlined,
// so `require`, `import` and bundles (an esbuild-built VSCode extension with no
// `node_modules`) all instantiate them synchronously with no file lookup and no `init()`.
import wasmBase64 from '../dist/wasm/devs_context_bg.wasm';
import * as glue from '../dist/wasm/devs_context.js';
import { decodeBase64 } from './base64.js';

glue.initSync({ module: decodeBase64(wasmBase64) });

/** The wasm exports: plain data in, plain data out; nothing in them calls the host. */
export const rules = glue;
