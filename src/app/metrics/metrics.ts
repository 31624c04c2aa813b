import { APPROVAL_STATES } from '../../core/approvals/view-schema.js';
import type { ResponseEvent } from '../../core/client/index.js';
import type { ToolCall } from '../../core/observe.js';
import type { Storage } from '../../core/store/index.js';
import { within } from '../../core/within.js';
import type { RuntimeObserver } from '../runtime.js';
import { createInstruments, type Instruments } from './instruments.js';
import { operationLabel, serviceStatusLabel, slackMethodLabel } from './labels.js';

/** What a scrape reads at its moment: the database through the storage, and Slack's outbox. */
export interface ScrapeSources {
  storage: Storage;
  /** Messages not yet sent to Slack (absent when Slack is off). */
  outboxBacklog?: () => Promise<number>;
  /** Audit entries waiting for their commit (the audit log's queue; it grows while the database is away). */
  auditWaiting?: () => number;
  now?: () => Date;
  /** How long the database's numbers are waited for; without an answer by then it is said down. */
  databaseDeadlineMs?: number;
}

export interface Scrape {
  contentType: string;
  body: string;
}

/**
 * The metrics of one `bankops serve` process. Counters move as things happen (the runtime's
 * observer, the client's response events, Slack's Web API calls); the database's numbers
 * (approvals, feed lag, outbox) are read at scrape time, in one read of a few indexed queries.
 */
export class ServeMetrics {
  readonly #m: Instruments = createInstruments();
  /** The last Web API result, for `/healthz`. */
  #slackLast: { method: string; ok: boolean; at: string } | undefined;

  /** Hand to `createRuntime` (`observe`): calls through the executor and the audit log's writes. */
  readonly observe: RuntimeObserver = {
    toolCall: (call: ToolCall) => {
      this.#m.toolCalls.inc({ tool: call.tool, front_end: call.frontEnd, outcome: call.outcome });
      this.#m.toolSeconds.observe({ tool: call.tool, front_end: call.frontEnd }, call.seconds);
    },
    auditWritten: (count: number) => this.#m.auditWritten.inc(count),
    auditVerified: (at: Date) => this.#m.lastVerify.set(at.getTime() / 1000),
    executionTakenOver: () => this.#m.takenOver.inc(),
  };

  /** Hand to `createRuntime` (`onServiceCall`): every attempt at the service. */
  readonly serviceCall = (event: ResponseEvent): void => {
    const operation = operationLabel(event.operation);
    this.#m.serviceCalls.inc({ operation, status: serviceStatusLabel(event.httpStatus, event.errorKind) });
    this.#m.serviceSeconds.observe({ operation }, event.ms / 1000);
  };

  /** Hand to the Slack app (`onWebApiCall`): every Web API call and whether Slack accepted it. */
  readonly slackCall = (method: string, ok: boolean): void => {
    const label = slackMethodLabel(method);
    this.#m.slackCalls.inc({ method: label, result: ok ? 'ok' : 'error' });
    this.#slackLast = { method: label, ok, at: new Date().toISOString() };
  };

  get slackLast(): { method: string; ok: boolean; at: string } | undefined {
    return this.#slackLast;
  }

  /** The Prometheus text of everything, the database's numbers read now. */
  async scrape(sources: ScrapeSources): Promise<Scrape> {
    await this.#readDatabase(sources);
    return { contentType: this.#m.registry.contentType, body: await this.#m.registry.metrics() };
  }

  /** Every metric's name and type (docs/operations.md lists exactly these). */
  async registryJson(): Promise<{ name: string; type: string }[]> {
    return (await this.#m.registry.getMetricsAsJSON()).map(({ name, type }) => ({
      name,
      type: String(type),
    }));
  }

  async #readDatabase(sources: ScrapeSources): Promise<void> {
    const m = this.#m;
    // Read first: it matters most when the database does not answer.
    if (sources.auditWaiting !== undefined) m.auditWaiting.set(sources.auditWaiting());
    try {
      const reading = async () => ({
        ...(await sources.storage.read(async (stores) => ({
          census: await stores.approvals.census(),
          head: await stores.feed.head(),
          cursors: await stores.feed.cursors(),
        }))),
        backlog: await sources.outboxBacklog?.(),
      });
      const read = await within(reading(), sources.databaseDeadlineMs ?? Number.POSITIVE_INFINITY);
      // No answer in time: said down, as for a failed read.
      if (read === undefined) {
        m.up.set(0);
        return;
      }
      const { census, head, cursors, backlog } = read.value;
      const counts = new Map(census.byState.map((row) => [row.state, row.count]));
      for (const state of APPROVAL_STATES) m.approvals.set({ state }, counts.get(state) ?? 0);
      m.pending.set(counts.get('pending') ?? 0);
      m.unresolved.set(counts.get('unresolved') ?? 0);
      const now = (sources.now ?? (() => new Date()))().getTime();
      const oldest = census.oldestPendingAt === undefined ? now : Date.parse(census.oldestPendingAt);
      m.oldestPending.set(Math.max(0, (now - oldest) / 1000));
      m.feedLag.reset();
      for (const { consumer, seq } of cursors) m.feedLag.set({ consumer }, Math.max(0, head - seq));
      if (backlog !== undefined) m.outbox.set(backlog);
      m.up.set(1);
    } catch {
      // The scrape still answers (process metrics, counters); the alert on `bankops_database_up` says why.
      m.up.set(0);
    }
  }
}
