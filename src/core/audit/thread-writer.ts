import { Worker } from 'node:worker_threads';
import { internalError } from '../errors.js';
import type { Logger } from '../log.js';
import { redact } from '../redact.js';
import { threadStart } from '../store/thread.js';
import { fromWire } from './wire-error.js';
import type { AuditWriter, Pending, WriteOptions, WriterCommit, Written } from './writer.js';
import type { FromWriter, ToWriter, WriterData, WriterTarget } from './writer-messages.js';

export type { WriterTarget } from './writer-messages.js';

/** A noted entry the thread wrote. */
const NOTED: Written = { noted: true };

/** A batch the thread said is on disk as it committed. */
const ON_DISK: Promise<void> = Promise.resolve();

/** How long `close` waits for the thread to finish what it holds and close its connection. */
const CLOSE_TIMEOUT_MS = 5_000;
/** How long a new thread may take to load and open its connection before it is given up. */
const START_TIMEOUT_MS = 10_000;

export interface ThreadWriterOptions {
  /** Where a thread that stopped with batches in flight is reported. */
  log?: Pick<Logger, 'error'>;
  /** Told of each thread started (tests stop one). */
  onThread?: (thread: Worker) => void;
  /**
   * Where batches go when a thread does not start within 10 s (it hangs loading), or has not
   * started when the log begins to close: this thread's own writer, from then on. Without it such
   * a batch fails, as when the database is away.
   */
  fallback?: AuditWriter;
  /** Starts the thread (tests give one that never says it is ready); by default ./writer-thread.ts. */
  start?: (data: WriterData) => Worker;
}

interface Call {
  committed: { resolve: (commit: WriterCommit) => void; reject: (error: unknown) => void };
  disk?: { resolve: () => void; reject: (error: unknown) => void };
}

/**
 * The thread's code: the compiled module beside this one (tsc's dist/core/audit/, or the CLI's bundle,
 * which writes it beside its chunks: scripts/bundle-cli.mjs); from the sources (tests, `tsx`), the
 * TypeScript module loaded through tsx's loader, registered in that thread first.
 */
function startThread(workerData: WriterData): Worker {
  const source = import.meta.url.endsWith('.ts');
  const entry = new URL(source ? './writer-thread.ts' : './writer-thread.js', import.meta.url);
  if (!source) return new Worker(entry, { workerData });
  // Resolved here, beside this module: an evaluated thread resolves a bare name from the working
  // directory, which need not be the project's.
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
}

/**
 * The audit writer in a thread of its own: the group commit's batches are validated, redacted,
 * serialized, chained and committed there, over the thread's own connection, so none of that work
 * (nor SQLite's synchronous commit) runs on the thread that answers requests. Batches keep their
 * order: the group commit hands over one at a time. The thread starts on the first batch, and again
 * on the next one if it stopped; while no batch is in flight it does not keep the process alive.
 */
export class ThreadWriter implements AuditWriter {
  readonly #target: WriterTarget;
  readonly #log: Pick<Logger, 'error'> | undefined;
  readonly #onThread: ((thread: Worker) => void) | undefined;
  readonly #fallback: AuditWriter | undefined;
  readonly #start: (data: WriterData) => Worker;
  #worker: Worker | undefined;
  /** Resolves true once the current thread is ready, false if it did not start in time. */
  #ready: Promise<boolean> | undefined;
  /** Settles `#ready` at once: false when the log closes before the thread is ready. */
  #giveUpStart: (() => void) | undefined;
  #fellBack = false;
  #next = 0;
  readonly #calls = new Map<number, Call>();

  constructor(target: WriterTarget, options: ThreadWriterOptions = {}) {
    this.#target = target;
    this.#log = options.log;
    this.#onThread = options.onThread;
    this.#fallback = options.fallback;
    this.#start = options.start ?? startThread;
  }

  async commit(batch: readonly Pending[], options: WriteOptions): Promise<WriterCommit> {
    if (this.#fellBack && this.#fallback !== undefined) return this.#fallback.commit(batch, options);
    const worker = this.#started();
    worker.ref();
    if (!(await this.#ready)) {
      this.#worker = undefined;
      void worker.terminate();
      if (this.#fallback === undefined)
        throw internalError(`the audit writer's thread did not start within ${START_TIMEOUT_MS / 1000} s`);
      // Already given up by `closing`: said nowhere, the writer in this thread takes what is left.
      if (!this.#fellBack)
        this.#log?.error(
          "the audit writer's thread did not start; the audit log is written from this thread instead",
          { seconds: START_TIMEOUT_MS / 1000 },
        );
      this.#fellBack = true;
      return this.#fallback.commit(batch, options);
    }
    return this.#send(worker, batch, options);
  }

  /**
   * Closing does not wait for a thread still loading (a busy host takes seconds), nor starts one:
   * the writer in this thread writes what is left, rather than the log giving it up at its
   * deadline. A thread already running keeps its batches.
   */
  closing(): void {
    if (this.#fallback === undefined) return;
    if (this.#worker !== undefined && this.#giveUpStart === undefined) return;
    this.#fellBack = true;
    this.#giveUpStart?.();
  }

  #send(worker: Worker, batch: readonly Pending[], options: WriteOptions): Promise<WriterCommit> {
    this.#next += 1;
    const id = this.#next;
    const sent = new Promise<WriterCommit>((resolve, reject) => {
      this.#calls.set(id, { committed: { resolve, reject } });
    });
    worker.ref();
    try {
      worker.postMessage({ type: 'commit', id, batch, options } satisfies ToWriter);
      return sent;
    } catch (error) {
      // Nothing was sent: an entry holds what cannot be copied to the thread (a function).
      if (!(error instanceof DOMException && error.name === 'DataCloneError')) {
        this.#done(id);
        throw error;
      }
    }
    // The earlier batch looked for (`unsure`) goes as it went then: it may hold the same value.
    const own = cloneable(batch);
    const unsure = options.unsure === undefined ? undefined : cloneable(options.unsure);
    try {
      worker.postMessage({
        type: 'commit',
        id,
        batch: own.sendable,
        options: { ...options, unsure: unsure?.sendable },
      } satisfies ToWriter);
    } catch (error) {
      this.#done(id);
      throw error;
    }
    return sent.then((commit) =>
      commit.of === 'unsure' && unsure !== undefined
        ? withRefused(commit, options.unsure?.length ?? 0, unsure.refused)
        : withRefused(commit, batch.length, own.refused),
    );
  }

  async close(): Promise<void> {
    await this.#fallback?.close();
    const worker = this.#worker;
    if (worker === undefined) return;
    worker.ref();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'close' } satisfies ToWriter);
    const timer = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  #started(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    // What the thread holds in this process (SQLite's lock between threads) is freed when it ends.
    const start = threadStart(this.#target);
    const worker = this.#start(start.data);
    const { threadId } = worker;
    worker.once('exit', () => start.exited(threadId));
    worker.unref();
    this.#ready = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), START_TIMEOUT_MS);
      timer.unref();
      const settle = (ready: boolean) => {
        clearTimeout(timer);
        this.#giveUpStart = undefined;
        resolve(ready);
      };
      this.#giveUpStart = () => settle(false);
      worker.on('message', (message: FromWriter) => {
        if (message.type === 'ready') settle(true);
      });
      worker.once('exit', () => settle(false));
    });
    worker.on('message', (message: FromWriter) => this.#heard(message));
    worker.on('error', (error) => this.#stopped(worker, error));
    worker.on('exit', (code) =>
      this.#stopped(worker, internalError(`the audit writer's thread exited (${code})`)),
    );
    this.#worker = worker;
    this.#onThread?.(worker);
    return worker;
  }

  #heard(message: FromWriter): void {
    if (message.type === 'ready') return;
    const call = this.#calls.get(message.id);
    if (call === undefined) return;
    if (message.type === 'failed') {
      this.#done(message.id);
      call.committed.reject(fromWire(message.error));
    } else if (message.type === 'committed') {
      let onDisk = ON_DISK;
      if (message.onDisk === true) this.#done(message.id);
      else {
        onDisk = new Promise<void>((resolve, reject) => {
          call.disk = { resolve, reject };
        });
      }
      const results = message.results.map((result): Written => {
        if (result === null) return NOTED;
        return 'refused' in result ? { refused: fromWire(result.refused) } : result;
      });
      call.committed.resolve({ of: message.of, results, onDisk });
    } else {
      this.#done(message.id);
      if (message.error === undefined) call.disk?.resolve();
      else call.disk?.reject(fromWire(message.error));
    }
  }

  #done(id: number): void {
    this.#calls.delete(id);
    if (this.#calls.size === 0) this.#worker?.unref();
  }

  /** The thread is gone: what it held fails (the group commit tries it again, on a new thread). */
  #stopped(worker: Worker, error: unknown): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    if (this.#calls.size > 0) this.#log?.error('the audit writer thread stopped', { error });
    for (const call of this.#calls.values()) {
      call.committed.reject(error);
      call.disk?.reject(error);
    }
    this.#calls.clear();
  }
}

/**
 * The entries as they can go to the thread: an input holding what cannot be copied there (a
 * function) goes as its JSON copy, which is all the writer would keep of it; an entry that still
 * cannot be copied is refused alone, as the writer refuses one that breaks the schema.
 */
function cloneable(batch: readonly Pending[]): {
  sendable: readonly Pending[];
  refused: Map<number, unknown>;
} {
  const refused = new Map<number, unknown>();
  const sendable: Pending[] = [];
  for (const [i, pending] of batch.entries()) {
    const copied: Pending = { ...pending, input: { ...pending.input, input: redact(pending.input.input) } };
    try {
      structuredClone(copied);
      sendable.push(copied);
    } catch (error) {
      refused.set(i, new TypeError(`an audit entry holds a value that cannot be stored: ${String(error)}`));
    }
  }
  return { sendable, refused };
}

/** The thread's results with the refused entries put back in their places. */
function withRefused(commit: WriterCommit, size: number, refused: Map<number, unknown>): WriterCommit {
  const results: Written[] = [];
  let next = 0;
  for (let i = 0; i < size; i += 1) {
    const reason = refused.get(i);
    if (reason !== undefined) results.push({ refused: reason });
    else {
      results.push(commit.results[next] as Written);
      next += 1;
    }
  }
  return { ...commit, results };
}
