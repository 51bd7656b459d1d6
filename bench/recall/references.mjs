// References, as the eval defines them (@devs/context/eval, pkg/src/eval/references.ts):
// one definition for bench/recall.mjs, bench/frameworks.mjs and `devs-context eval`.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../pkg/package.json', import.meta.url));
export const { isWord, messageTexts, namedIds, occurrences, references, sessionReferences } = require('@devs/context/eval');
