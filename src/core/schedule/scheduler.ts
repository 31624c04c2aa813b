import type { Clock } from '../clock.js';
import { internalError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Storage } from '../store/index.js';
import { CLAIM_KEY_MAX } from './claims.js';

/** A job run on a period: it looks at what is due now and does it, each slot once across replicas. */
export interface PeriodicJob {
  /** Said in the log and the metrics (`reminders`, `digest`, `balance-alerts`). */
  name: string;
  /** Pause between the end of one run and the start of the next. */
  everyMs: number;
  /** Pause before the first run (default 0: at once). */
  firstAfterMs?: number;
  /**
   * When a job is tied to the calendar (the daily audit anchor, at UTC midnight): the pause after a
   * run that ended at `now`, instead of `everyMs`.
   */
  nextAfterMs?(now: Date): number;
  /** Does what is due at `now`; a throw is logged and the job runs again at its next period. */
  run(now: Date): Promise<void>;
}

export interface SchedulerOptions {
  storage: Storage;
  clock: Clock;
  /** Who claims (`host:pid`): said beside each claim, for whoever reads the table. */
  owner: string;
  log: Logger;
}

/**
 * The one scheduler of a long-running process (serve, the stdio MCP server): every periodic job is
 * here (approvals' recovery and the following of sent money, Slack's reminders, digest, balance
 * check and daily audit anchor, the pruning of old claims), run on the runtime's clock (tests move
 * it), never two runs of one job at once. (An approval's lease renewal and its background re-sends
 * stay with that approval, on the same clock.) When several replicas share a database each
 * runs the jobs, and what a job does is done once: it claims the slot first (`once`), and only the
 * replica whose claim went through acts, or (Slack's reminders and digest) it queues its message
 * under an outbox dedupe key, which keeps one copy. Timers do not keep the process alive.
 */
export class Scheduler {
  readonly #options: SchedulerOptions;
  readonly #jobs = new Map<
    string,
    { job: PeriodicJob; cancel?: (() => void) | undefined; running?: Promise<void> | undefined }
  >();
  #stopped = false;

  constructor(options: SchedulerOptions) {
    this.#options = options;
  }

  get clock(): Clock {
    return this.#options.clock;
  }

  /** Whether a job of this name is scheduled (a front end started twice on one runtime adds its jobs once). */
  has(name: string): boolean {
    return this.#jobs.has(name);
  }

  /** The jobs scheduled, by name. */
  names(): string[] {
    return [...this.#jobs.keys()];
  }

  /** Runs `job` now and then every `everyMs` after each run ends, until `stop`. */
  every(job: PeriodicJob): void {
    if (this.#jobs.has(job.name)) throw internalError(`a job named ${job.name} is already scheduled`);
    this.#jobs.set(job.name, { job });
    this.#arm(job.name, job.firstAfterMs ?? 0);
  }

  /** Stops one job: no run starts after this; resolves once a run in progress has ended. */
  async remove(name: string): Promise<void> {
    const entry = this.#jobs.get(name);
    if (entry === undefined) return;
    this.#jobs.delete(name);
    entry.cancel?.();
    await entry.running;
  }

  /**
   * Claims one slot of scheduled work for this process: true once, for the one replica that gets to
   * do it, false for every other caller (and for this one, again).
   */
  async once(key: string): Promise<boolean> {
    if (key.length > CLAIM_KEY_MAX)
      throw internalError(`claim key longer than ${CLAIM_KEY_MAX}: ${key.slice(0, 40)}…`);
    const { storage, owner, clock } = this.#options;
    return storage.transaction((tx) => tx.claims.claim(key, owner, clock.now()), { durable: false });
  }

  /** Runs every job once now, waiting for it (tests, after moving the clock; and a run in progress). */
  async runAll(): Promise<void> {
    for (const name of this.#jobs.keys()) await this.#run(name);
  }

  /** Waits for the runs in progress. */
  async drain(): Promise<void> {
    await Promise.all([...this.#jobs.values()].map((entry) => entry.running));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const entry of this.#jobs.values()) entry.cancel?.();
    await this.drain();
  }

  #arm(name: string, ms: number): void {
    const entry = this.#jobs.get(name);
    if (entry === undefined || this.#stopped) return;
    entry.cancel?.();
    entry.cancel = this.#options.clock.after(ms, () => {
      void this.#run(name).then(() => {
        // A job removed meanwhile (or replaced by another of its name) is not armed again.
        if (this.#jobs.get(name) !== entry) return;
        this.#arm(name, entry.job.nextAfterMs?.(this.#options.clock.now()) ?? entry.job.everyMs);
      });
    });
  }

  async #run(name: string): Promise<void> {
    const entry = this.#jobs.get(name);
    if (entry === undefined) return;
    // A run already going (the timer and `runAll` at once): wait for it rather than start a second.
    if (entry.running !== undefined) return entry.running;
    const { clock, log } = this.#options;
    entry.running = entry.job
      .run(clock.now())
      .catch((error: unknown) =>
        log.warn('scheduled job failed; it runs again at its next period', { job: name, error }),
      )
      .finally(() => {
        entry.running = undefined;
      });
    return entry.running;
  }
}
