// The rules' wasm exports, as the entry that loaded the shell provided them (`host.ts`):
// plain data in, plain data out; nothing in them calls the host.
export { rules, turnScope } from './host.js';
