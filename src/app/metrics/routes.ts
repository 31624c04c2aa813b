import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../../core/http-server.js';
import { optional } from '../../core/optional.js';
import type { SchemaState } from '../../core/store/backend.js';
import type { Storage } from '../../core/store/index.js';
import { within } from '../../core/within.js';
import { bearerKey, CHALLENGE } from '../../mcp/http/auth.js';
import { isLoopbackHost } from '../../mcp/http/host.js';
import type { ServeMetrics } from './metrics.js';

export const METRICS_PATH = '/metrics';
export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const LIVE_PATH = '/livez';

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface OperationsOptions {
  metrics: ServeMetrics;
  storage: Storage;
  /** `BANKOPS_METRICS_KEY`: when set, `/metrics` wants it as a bearer key from any client. */
  metricsKey?: string;
  /** What runs, read at each request (Slack starts after the listener). */
  running: () => { mcp: string; slack: 'off' | 'http' | 'socket' };
  /** Slack's outbox, when Slack runs. */
  outbox: () => { pending(): Promise<number> } | undefined;
  /** The audit log's entries waiting for their commit. */
  auditWaiting?: () => number;
  /** Migrations done and the first catch-up of the approval feed behind us. */
  ready: () => boolean;
  /** The database's schema against this bankops (`/readyz`), asked of the database at each probe. */
  schema: () => Promise<SchemaState>;
  /** How long `/healthz`, `/readyz` and `/metrics` wait for the database (default `HEALTH_DEADLINE_MS`). */
  healthDeadlineMs?: number;
  /**
   * Whether the database answers within the deadline, asked of the database itself (PostgreSQL:
   * a round trip on the pool, behind none of this process's transactions). By default a read
   * through the storage (SQLite: it never waits for a network).
   */
  databaseUp?: (deadlineMs: number) => Promise<boolean>;
}

const digest = (key: string): Buffer => createHash('sha256').update(key).digest();

/** A client on this machine (`127.0.0.0/8`, `::1`, and IPv4 loopback mapped into IPv6). */
function fromLoopback(req: IncomingMessage): boolean {
  const address = (req.socket.remoteAddress ?? '').replace(/^::ffff:/i, '');
  return address !== '' && isLoopbackHost(address);
}

/** The bearer check of `/mcp` (RFC 6750 challenges), against the one metrics key, in constant time. */
function allowed(req: IncomingMessage, res: ServerResponse, key: string | undefined): boolean {
  if (key === undefined) {
    if (fromLoopback(req)) return true;
    sendJson(res, 403, { error: 'metrics answer loopback clients only; set BANKOPS_METRICS_KEY for others' });
    return false;
  }
  const given = bearerKey(req);
  if (given !== undefined && timingSafeEqual(digest(given), digest(key))) return true;
  res.setHeader('WWW-Authenticate', given === undefined ? CHALLENGE.missing : CHALLENGE.invalid);
  sendJson(res, 401, { error: 'a bearer key is required: Authorization: Bearer <BANKOPS_METRICS_KEY>' });
  return false;
}

/**
 * How long `/healthz`, `/readyz` and a scrape of `/metrics` wait for the database: they must answer even when
 * the network to it silently stops carrying packets (a statement then waits for the pool's query
 * timeout): the database is then said down.
 */
const HEALTH_DEADLINE_MS = 2_000;

/** The storage answers a cheap read (the feed's head: one indexed read). */
function storageReads(storage: Storage): Promise<boolean> {
  return storage
    .read((stores) => stores.feed.head())
    .then(
      () => true,
      () => false,
    );
}

/** Whether `asked` says yes within `deadlineMs` (a check that has not answered by then is a no). */
async function answersWithin(asked: Promise<boolean>, deadlineMs: number): Promise<boolean> {
  return (
    (
      await within(
        asked.catch(() => false),
        deadlineMs,
      )
    )?.value ?? false
  );
}

/**
 * `/metrics`, `/livez`, `/readyz` and `/healthz` of `bankops serve` (docs/operations.md), by the
 * names Kubernetes gives its own: `/livez` says the process answers and never asks the database (a
 * liveness probe there does not restart replicas during a database outage); `/readyz` says it can
 * serve; `/healthz` keeps what it said before `/livez` and `/readyz` took these meanings.
 */
export function operationsRoutes(options: OperationsOptions): Record<string, Handler> {
  const { metrics, storage } = options;
  const deadline = options.healthDeadlineMs ?? HEALTH_DEADLINE_MS;
  const databaseUp = (): Promise<boolean> =>
    answersWithin(options.databaseUp?.(deadline) ?? storageReads(storage), deadline);
  return {
    [METRICS_PATH]: async (req, res) => {
      req.resume();
      if (!allowed(req, res, options.metricsKey)) return;
      const outbox = options.outbox();
      const scrape = await metrics.scrape({
        storage,
        databaseDeadlineMs: options.healthDeadlineMs ?? HEALTH_DEADLINE_MS,
        ...optional('outboxBacklog', outbox && (() => outbox.pending())),
        ...optional('auditWaiting', options.auditWaiting),
      });
      res.writeHead(200, { 'Content-Type': scrape.contentType, 'Cache-Control': 'no-store' });
      res.end(scrape.body);
    },
    [HEALTH_PATH]: async (req, res) => {
      req.resume();
      const running = options.running();
      const up = await databaseUp();
      const last = metrics.slackLast;
      sendJson(res, up ? 200 : 503, {
        status: up ? 'ok' : 'unhealthy',
        ...running,
        metrics: METRICS_PATH,
        database: up ? 'ok' : 'unreachable',
        slackWebApi:
          running.slack === 'off'
            ? 'off'
            : {
                token: 'configured',
                ...(last === undefined ? {} : { last: last.ok ? 'ok' : 'error', lastAt: last.at }),
              },
      });
    },
    [LIVE_PATH]: async (req, res) => {
      req.resume();
      sendJson(res, 200, { alive: true });
    },
    [READY_PATH]: async (req, res) => {
      req.resume();
      const started = options.ready();
      const [up, schema] = await Promise.all([
        databaseUp(),
        within(options.schema(), deadline).then(
          (answered) => answered?.value ?? 'unknown',
          () => 'unknown' as const,
        ),
      ]);
      const ready = started && up && schema === 'current';
      sendJson(res, ready ? 200 : 503, {
        ready,
        started,
        database: up ? 'ok' : 'unreachable',
        schema,
      });
    },
  };
}
