// The rules' wasm, inlined: its bytes are instantiated synchronously as the entry loads,
// so `require`, `import` and bundles (an esbuild-built VSCode extension with no
// `node_modules`) all work the same, with no file lookup and no `init()`.
import wasmBase64 from '../../dist/wasm/devs_context_bg.wasm';
import * as glue from '../../dist/wasm/devs_context.js';
import { decodeBase64 } from '../core/base64.js';

glue.initSync({ module: decodeBase64(wasmBase64) });

export const rules = glue;
