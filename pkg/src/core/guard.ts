// A trap in the rules' WebAssembly survived. The release build aborts on a panic
// (`unreachable`), and every object of the module shares its one instance: after a trap
// nothing in that instance can be trusted (a borrow flag stays set, a change is half
// made), so one bad call would otherwise fail every later call of every manager.
//
// The entry's glue is wrapped once, as it is provided (`host.ts`): a trap is caught where
// it surfaces, the instance is replaced by a fresh one of the same module, every live
// context manager is made again from what it committed (`Engine.recover`), and the call
// that trapped fails as an internal error naming its operation. The glue's own part of
// this (a fresh instance, objects that know theirs, a pointer moved into an old object) is
// added by the build (`scripts/recoverable-glue.mjs`). An object of a dead instance that
// is not a manager (a seed's counter, a composer) refuses its calls: make it again.
import type { Rules } from './host.js';

/** The glue, with what the build adds to it. */
type Glue = Rules & {
  __devs_reset?: () => unknown;
  __devs_instance?: () => unknown;
  __devs_adopt?: (to: object, from: object) => void;
};

/** What can be made again after a trap: a manager's engine. */
export interface Recoverable {
  /** Makes its rules again in the live instance; throws when it cannot. */
  recover(): void;
}

/** Every object of the glue's classes remembers the instance it lives in. */
type Native = { __wbg_wasm?: unknown; __wbg_ptr?: number };

const live = new Set<WeakRef<Recoverable>>();
const gone = typeof FinalizationRegistry === 'undefined' ? undefined : new FinalizationRegistry<WeakRef<Recoverable>>((ref) => live.delete(ref));
let glue: Glue | undefined;
/** The live instance, as the glue's objects name theirs (`__wbg_wasm`). */
let instance: unknown;
/** A trap while managers are made again is not survived twice over. */
let restarting = false;

/** Made again after a trap, while it lives (a host without `WeakRef` gets no recovery). */
export function watch(r: Recoverable): void {
  if (typeof WeakRef === 'undefined') return;
  const ref = new WeakRef(r);
  live.add(ref);
  gone?.register(r, ref);
}

/** Object `to` of a dead instance takes over `from`'s rules, made in the live one. */
export function adopt(to: object, from: object): void {
  glue?.__devs_adopt?.(to, from);
}

/** The error of a call on an object whose instance was replaced. */
function lost(op: string): Error {
  return Object.assign(new Error(`@devs/context: ${op} was called on an object whose rules were lost to an internal error in an earlier call `
    + '(their WebAssembly instance trapped and was replaced); context managers are made again by themselves, other objects must be made again by the host'), { code: 'ERR_INTERNAL', operation: op });
}

/** Starts over after a trap in `op`: the error the call then throws. */
function restart(g: Glue, op: string, trap: Error): Error {
  const error = Object.assign(new Error(`@devs/context: an internal error in ${op}: the rules' WebAssembly trapped (${trap.message}). `
    + 'The call failed and changed nothing; the rules started over, each context manager from its last committed state. Please report it, with the input that caused it'),
  { code: 'ERR_INTERNAL', operation: op, cause: trap });
  if (restarting) return error;
  restarting = true;
  try {
    g.__devs_reset!();
    instance = g.__devs_instance!();
    for (const ref of [...live]) {
      const r = ref.deref();
      if (!r) {
        live.delete(ref);
        continue;
      }
      try {
        r.recover();
      } catch {
        // It could not be made again: its own calls say it was lost.
      }
    }
  } finally {
    restarting = false;
  }
  return error;
}

/**
 * What a call that threw `thrown` throws: a trap (a panic, `unreachable`, or the stack
 * running out inside the module, which stops it as midway) restarts the rules; anything
 * else is thrown as it is. The wrappers below catch inline rather than through a closure:
 * every crossing of a turn goes through one, and a closure per call costs more than the call.
 */
function rethrown(g: Glue, op: string, thrown: unknown): unknown {
  if (thrown instanceof WebAssembly.RuntimeError || (thrown instanceof RangeError && /call stack/i.test(thrown.message))) return restart(g, op, thrown);
  return thrown;
}

/** `fn` called on `self`, a trap in it survived. */
function guardedFunction(g: Glue, op: string, fn: (...args: unknown[]) => unknown, self: unknown): (...args: unknown[]) => unknown {
  return (...args: unknown[]) => {
    try {
      return fn.apply(self, args);
    } catch (thrown) {
      throw rethrown(g, op, thrown);
    }
  };
}

const isClass = (f: unknown): f is new (...args: unknown[]) => object => typeof f === 'function' && /^class\b/.test(Function.prototype.toString.call(f));
/** The glue's own members of a class, not the rules'. */
const PLUMBING = new Set(['constructor', '__destroy_into_raw', '__wrap', '__unwrap']);

/** Every method and getter of class `name`, guarded in place (objects the glue makes itself are its instances too). */
function guardClass(g: Glue, name: string, cls: { prototype: object }): void {
  const proto = cls.prototype as Record<PropertyKey, unknown>;
  for (const key of Reflect.ownKeys(proto)) {
    if (typeof key !== 'string' || PLUMBING.has(key)) continue;
    const d = Object.getOwnPropertyDescriptor(proto, key)!;
    const op = `${name}.${key}`;
    if (key === 'free') {
      const free = d.value as (this: Native) => void;
      // Freeing an object of a dead instance frees nothing of the live one.
      d.value = function (this: Native) {
        if (this.__wbg_wasm !== undefined && this.__wbg_wasm !== instance) this.__wbg_ptr = 0;
        else free.call(this);
      };
    } else if (typeof d.value === 'function') {
      const method = d.value as (...args: unknown[]) => unknown;
      d.value = function (this: Native, ...args: unknown[]) {
        if (this.__wbg_wasm !== undefined && this.__wbg_wasm !== instance) throw lost(op);
        try {
          return method.apply(this, args);
        } catch (thrown) {
          throw rethrown(g, op, thrown);
        }
      };
    } else if (d.get) {
      const get = d.get;
      d.get = function (this: Native) {
        if (this.__wbg_wasm !== undefined && this.__wbg_wasm !== instance) throw lost(op);
        try {
          return get.call(this);
        } catch (thrown) {
          throw rethrown(g, op, thrown);
        }
      };
    } else continue;
    Object.defineProperty(proto, key, d);
  }
}

/** The glue's exports, each guarded; a glue the build did not make recoverable is used as it is. */
export function guard(rules: Rules): Rules {
  const g = rules as Glue;
  if (typeof g.__devs_reset !== 'function') return rules;
  glue = g;
  instance = g.__devs_instance!();
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(g)) {
    if (name.startsWith('__devs_') || name === 'initSync' || name === 'default' || typeof value !== 'function') {
      out[name] = value;
    } else if (isClass(value)) {
      guardClass(g, name, value);
      // A static member is wrapped once, not on every read.
      const statics = new Map<string, [unknown, unknown]>();
      out[name] = new Proxy(value, {
        construct: (target, args, newTarget) => {
          try {
            return Reflect.construct(target, args, newTarget);
          } catch (thrown) {
            throw rethrown(g, `new ${name}`, thrown);
          }
        },
        get: (target, key, receiver) => {
          const member = Reflect.get(target, key, receiver) as unknown;
          if (typeof member !== 'function' || typeof key !== 'string' || PLUMBING.has(key)) return member;
          const known = statics.get(key);
          if (known && known[0] === member) return known[1];
          const wrapped = guardedFunction(g, `${name}.${key}`, member as (...a: unknown[]) => unknown, target);
          statics.set(key, [member, wrapped]);
          return wrapped;
        },
      });
    } else {
      out[name] = guardedFunction(g, name, value as (...args: unknown[]) => unknown, undefined);
    }
  }
  return out as unknown as Rules;
}
