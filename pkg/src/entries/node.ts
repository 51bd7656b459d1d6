// `@devs/context` for Node (the `node` condition): the inlined rules, file access for
// `ContextComposer.fromProject`, and the turn scope that catches a re-entrant turn.
import { provide } from '../core/host.js';
import { readSpecFile } from '../core/node-files.js';
import { nodeTurnScope } from '../core/node-scope.js';
import { rules } from './inline-rules.js';
import { createHash } from 'node:crypto';

provide({ rules, specFiles: readSpecFile, turnScope: nodeTurnScope, sha256: (text, encoding) => createHash('sha256').update(text, encoding).digest('base64url') });

export * from '../index.js';
