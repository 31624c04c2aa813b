import { AsyncLocalStorage } from 'node:async_hooks';

interface Frame {
  scope: AsyncScope<unknown>;
  value: unknown;
  parent: Frame | undefined;
}

/** The one AsyncLocalStorage under every scope of the process. */
const frames = new AsyncLocalStorage<Frame>();

/**
 * A value bound to an async call chain (the transaction a store has open, the policy a decision
 * reads), one scope per owner, all on one AsyncLocalStorage. Node visits every AsyncLocalStorage
 * ever entered each time a promise is made, so one per store or policy would slow every promise of
 * a process that opens many (a worker running test files one after another) a little more each time.
 */
export class AsyncScope<T> {
  /** The value of the innermost `run` of this scope around the caller, if any. */
  get(): T | undefined {
    for (let frame = frames.getStore(); frame !== undefined; frame = frame.parent)
      if (frame.scope === this) return frame.value as T;
    return undefined;
  }

  /** Runs `fn` with `value` bound to this scope for everything it awaits and starts. */
  run<R>(value: T, fn: () => R): R {
    return frames.run({ scope: this as AsyncScope<unknown>, value, parent: frames.getStore() }, fn);
  }
}
