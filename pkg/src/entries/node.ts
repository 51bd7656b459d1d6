// `@devs/context` for Node (the `node` condition): the inlined rules, and file access for
// `ContextComposer.fromProject`.
import { provide } from '../host.js';
import { readSpecFile } from '../node-files.js';
import { rules } from './inline-rules.js';

provide({ rules, specFiles: readSpecFile });

export * from '../index.js';
