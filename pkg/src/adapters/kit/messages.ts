// How an adapter tells a framework's message from the one it handed the manager before:
// the manager's own comparison (`ContextManager.sync`), so both agree on what is new.
export { sameMessage } from '../../context/sync.js';
