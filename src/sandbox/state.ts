import { randomBytes } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import { z } from 'zod';
import { SANDBOX_AREAS } from './areas/index.js';
import { WEBHOOK_BACKOFF_MS } from './areas/notifications/webhook.js';
import type { SandboxClock } from './clock.js';
import type { SandboxCredentials } from './credentials.js';
import { EventBus } from './events.js';
import { type Fault, FaultSchema, FaultTable } from './faults.js';
import { IdempotencyStore } from './idempotency.js';
import { type CompiledRoute, compileRoute } from './routes.js';
import type { SandboxOptions } from './server.js';
import { TokenIssuer } from './tokens.js';
import type { SandboxContext } from './types.js';
import { parseInput } from './validate.js';

const ClockBody = z
  .object({
    advanceSeconds: z
      .number()
      .min(0)
      .max(10 * 365 * 86400),
  })
  .strict();

interface Snapshot {
  version: 1;
  clockOffsetSeconds: number;
  idempotency: ReturnType<IdempotencyStore['snapshot']>;
  areas: Record<string, unknown>;
  /** Injected faults, so `bankops sandbox faults` reaches the next command's sandbox (absent in older saves). */
  faults?: ReturnType<FaultTable['snapshot']>;
}

/**
 * Everything the sandbox holds: its areas and their routes, the clock, tokens, remembered requests,
 * injected faults and request counts; saved after a change and picked up again when another process
 * saved (a persistent sandbox), and reset to the seed on request.
 */
export class SandboxState {
  readonly clock: SandboxClock;
  readonly credentials: SandboxCredentials;
  readonly tokens: TokenIssuer;
  readonly idempotency = new IdempotencyStore();
  readonly faults = new FaultTable();
  readonly counts: Record<string, number> = {};
  /** Most literal first: `/accounts/balances` before `/accounts/:accountId`. */
  readonly routes: CompiledRoute[];
  readonly #areas: ReturnType<(typeof SANDBOX_AREAS)[number]>[];
  readonly #options: SandboxOptions;
  #revision = 0;
  /** The state as saved at `#revision` (serialized here), while this process has it unchanged. */
  #stored: Buffer | undefined;

  constructor(clock: SandboxClock, credentials: SandboxCredentials, options: SandboxOptions) {
    this.clock = clock;
    this.credentials = credentials;
    this.#options = options;
    this.tokens = new TokenIssuer(clock);
    const ctx: SandboxContext = {
      credentials,
      clock,
      events: new EventBus(),
      tokens: this.tokens,
      newId: (prefix) => `${prefix}_${randomBytes(8).toString('hex')}`,
      webhookBackoffMs: options.webhookBackoffMs ?? WEBHOOK_BACKOFF_MS,
    };
    this.#areas = SANDBOX_AREAS.map((install) => install(ctx));
    this.routes = this.#areas.flatMap((area) => area.routes.map(compileRoute));
    this.routes.sort((a, b) => b.literalSegments - a.literalSegments);
  }

  #serialized(): Buffer {
    const snapshot: Snapshot = {
      version: 1,
      clockOffsetSeconds: this.clock.offsetSeconds,
      idempotency: this.idempotency.snapshot(),
      areas: Object.fromEntries(this.#areas.map((area) => [area.name, area.snapshot()])),
      faults: this.faults.snapshot(),
    };
    return serialize(snapshot);
  }

  /**
   * Saves the state for the other processes (a persistent sandbox only). A request that changed
   * nothing (a token, a refusal) saves nothing: the stored state is already this one, and another
   * process's newer save, if any, stays.
   */
  persist(): void {
    const persistence = this.#options.persistence;
    if (persistence === undefined) return;
    const state = this.#serialized();
    if (this.#stored?.equals(state)) return;
    this.#revision = persistence.save(state);
    this.#stored = state;
  }

  /** Picks up what another process saved since this one last looked. */
  refresh(): void {
    const saved = this.#options.persistence?.load(this.#revision);
    if (saved === undefined) return;
    const snapshot = deserialize(saved.state) as Snapshot;
    if (snapshot.version !== 1) return;
    this.clock.setOffsetSeconds(snapshot.clockOffsetSeconds);
    this.idempotency.restore(snapshot.idempotency);
    this.faults.restore(snapshot.faults ?? []);
    for (const area of this.#areas) if (area.name in snapshot.areas) area.restore(snapshot.areas[area.name]);
    this.#revision = saved.revision;
    // Serialized again from what was restored (V8's encoding of one state is not always the same
    // bytes after a round trip), so `persist` compares like with like.
    this.#stored = this.#serialized();
  }

  reset(): void {
    this.idempotency.clear();
    this.faults.clear();
    for (const area of this.#areas) area.reseed();
  }

  /** `/_sandbox/…`: reset, the clock, faults, stats, info; undefined for any other path. */
  control(method: string, path: string, body: unknown): unknown {
    const { clock, faults } = this;
    if (method === 'POST' && path === '/_sandbox/reset') {
      this.reset();
      return { status: 'success', message: 'sandbox state restored to the seed' };
    }
    if (method === 'GET' && path === '/_sandbox/clock') {
      return { now: clock.now().toISOString(), offsetSeconds: clock.offsetSeconds };
    }
    if (method === 'POST' && path === '/_sandbox/clock') {
      const { advanceSeconds } = parseInput(ClockBody, body);
      clock.advance(advanceSeconds);
      return { now: clock.now().toISOString(), offsetSeconds: clock.offsetSeconds };
    }
    if (method === 'GET' && path === '/_sandbox/faults') return { faults: faults.list() };
    if (method === 'POST' && path === '/_sandbox/faults') {
      const fault: Fault = parseInput(FaultSchema, body);
      return { id: faults.add(fault), fault };
    }
    if (method === 'DELETE' && path === '/_sandbox/faults') {
      faults.clear();
      return { faults: [] };
    }
    if (method === 'GET' && path === '/_sandbox/stats') return { requests: { ...this.counts } };
    if (method === 'GET' && path === '/_sandbox/info') {
      return {
        sandbox: 'bankops',
        persistent: this.#options.persistence !== undefined,
        pid: process.pid,
        ...this.#options.info,
      };
    }
    return undefined;
  }
}
