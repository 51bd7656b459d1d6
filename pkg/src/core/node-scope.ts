// The turn scope on Node: the runners and managers whose turn the running code is inside,
// carried across awaits by `AsyncLocalStorage`.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { TurnScope } from './host.js';

const owners = new AsyncLocalStorage<ReadonlySet<object>>();

export const nodeTurnScope: TurnScope = {
  run(owner, fn) {
    const outer = owners.getStore();
    return owners.run(new Set(outer).add(owner), fn);
  },
  inside(owner) {
    return owners.getStore()?.has(owner) === true;
  },
};
