// `@devs/context` for every host but Node (the `browser` condition, and the default): the
// inlined rules, and no file access, so that no bundler ever meets a `node:` import.
import { provide } from '../core/host.js';
import { rules } from './inline-rules.js';

provide({ rules });

export * from '../index.js';
