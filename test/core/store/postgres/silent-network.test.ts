import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServeMetrics } from '../../../../src/app/metrics/metrics.js';
import { operationsRoutes } from '../../../../src/app/metrics/routes.js';
import { migrate, schemaState } from '../../../../src/core/store/postgres/migrate.js';
import { createPgPool, type PgStore, ping } from '../../../../src/core/store/postgres/pool.js';
import { postgresStorage } from '../../../../src/core/store/postgres/storage.js';
import { withTransaction } from '../../../../src/core/store/postgres/transaction.js';
import { postgresAvailable, useTestDatabase } from '../../../helpers/postgres.js';
import { TcpGate } from '../../../helpers/tcp-gate.js';

/**
 * A network that silently stops carrying packets to PostgreSQL (connections stay open, nothing
 * answers): a transaction gives up after one query timeout with the one-line error (no retry on
 * the next dead connection, no ROLLBACK waiting behind the stuck statement), and `/healthz` says
 * the database is down at its deadline, asking the pool directly (not behind this process's own
 * transactions), and so does `/readyz`, while `/livez` never asks it. A real server behind a
 * loopback proxy that stalls.
 */

const available = await postgresAvailable();

describe.skipIf(!available)('PostgreSQL behind a network that stops answering', () => {
  const database = useTestDatabase();
  let gate: TcpGate;
  /** Statements give up after 1 s. */
  let quick: PgStore;
  /** Statements would wait 20 s: only `/healthz`'s own deadline answers in time. */
  let patient: PgStore;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    gate = await TcpGate.open({ host: '127.0.0.1', port: 5432 });
    const url = new URL(database.url());
    url.port = String(gate.port);
    quick = createPgPool(url.toString(), { queryTimeoutMs: 1_000, connectionTimeoutMs: 1_000, max: 4 });
    patient = createPgPool(url.toString(), { queryTimeoutMs: 20_000, max: 4 });
    await migrate(patient);
    const routes = operationsRoutes({
      metrics: new ServeMetrics(),
      storage: postgresStorage(patient),
      running: () => ({ mcp: '/mcp', slack: 'off' }),
      outbox: () => undefined,
      ready: () => true,
      schema: () => schemaState(patient),
      healthDeadlineMs: 500,
      databaseUp: (deadlineMs) => ping(patient, deadlineMs),
    });
    server = createServer((req, res) => {
      const route = routes[req.url ?? ''];
      if (route === undefined) res.writeHead(404).end();
      else void route(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await gate.shut();
    await Promise.all([quick.pool.end(), patient.pool.end()]);
  });

  it('answers /healthz from the pool while this process holds a long transaction', async () => {
    let release = (): void => {};
    const holding = postgresStorage(patient).transaction(
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    let ended = false;
    void holding.then(() => {
      ended = true;
    });
    try {
      // Answered while the transaction is still open (it ends only when released below).
      const health = await fetch(`${base}/healthz`);
      expect(health.status).toBe(200);
      expect(ended).toBe(false);
      const ready = await fetch(`${base}/readyz`);
      expect(await ready.json()).toEqual({ ready: true, started: true, database: 'ok', schema: 'current' });
    } finally {
      release();
      await holding;
    }
  });

  it('gives up a transaction after one query timeout, and says the database is down on /healthz in time', async () => {
    // Open connections in both pools, idle, before the network goes quiet.
    await Promise.all([
      withTransaction(quick, (client) => client.query('SELECT 1')),
      ...[1, 2, 3].map(() => withTransaction(quick, (client) => client.query('SELECT pg_sleep(0.05)'))),
      ping(patient),
    ]);
    gate.stall();

    // One query timeout (1 s): neither a retry on the next dead connection nor a ROLLBACK behind it.
    let started = performance.now();
    await expect(withTransaction(quick, (client) => client.query('SELECT 1'))).rejects.toThrow(
      `bankops cannot reach its database at 127.0.0.1:${gate.port}/${database.name} (timed out)`,
    );
    expect(performance.now() - started).toBeLessThan(1_800);

    // The pool's idle connection gets no answer: the health check's own deadline (500 ms) answers.
    started = performance.now();
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'unhealthy', database: 'unreachable' });
    expect(performance.now() - started).toBeLessThan(1_200);

    // Not ready, said at the same deadline; alive all the same: a liveness probe restarts nothing.
    started = performance.now();
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      ready: false,
      started: true,
      database: 'unreachable',
      schema: 'unknown',
    });
    expect(performance.now() - started).toBeLessThan(1_200);
    const live = await fetch(`${base}/livez`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ alive: true });

    started = performance.now();
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^bankops_database_up 0$/m);
    expect(performance.now() - started).toBeLessThan(1_200);
  });
});
