import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServeMetrics } from '../../../../src/app/metrics/metrics.js';
import { operationsRoutes } from '../../../../src/app/metrics/routes.js';
import { migrate } from '../../../../src/core/store/postgres/migrate.js';
import { createPgPool, type PgStore } from '../../../../src/core/store/postgres/pool.js';
import { postgresStorage } from '../../../../src/core/store/postgres/storage.js';
import { withTransaction } from '../../../../src/core/store/postgres/transaction.js';
import { postgresAvailable, useTestDatabase } from '../../../helpers/postgres.js';
import { TcpGate } from '../../../helpers/tcp-gate.js';

/**
 * A network that silently stops carrying packets to PostgreSQL (connections stay open, nothing
 * answers): a statement gives up after the pool's query timeout with the one-line error, and
 * `/healthz` and `/metrics` still answer, saying the database is down. A real server behind a
 * loopback proxy that stalls.
 */

const available = await postgresAvailable();

describe.skipIf(!available)('PostgreSQL behind a network that stops answering', () => {
  const database = useTestDatabase();
  let gate: TcpGate;
  let store: PgStore;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    gate = await TcpGate.open({ host: '127.0.0.1', port: 5432 });
    const url = new URL(database.url());
    url.port = String(gate.port);
    store = createPgPool(url.toString(), { queryTimeoutMs: 1_000, connectionTimeoutMs: 1_000, max: 2 });
    await migrate(store);
    const routes = operationsRoutes({
      metrics: new ServeMetrics(),
      storage: postgresStorage(store),
      running: () => ({ mcp: '/mcp', slack: 'off' }),
      outbox: () => undefined,
      ready: () => true,
      healthDeadlineMs: 500,
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
    await store.pool.end();
  });

  it('answers /healthz and /metrics, and a transaction gives up in one line, while nothing answers', async () => {
    // Through the proxy, before: the database is up and a connection is open in the pool.
    await withTransaction(store, (client) => client.query('SELECT 1'));
    const before = await fetch(`${base}/healthz`);
    expect(before.status).toBe(200);

    gate.stall();
    // The pool's open connection gets no answer (query timeout), a new one none either (connect timeout).
    let started = performance.now();
    await expect(withTransaction(store, (client) => client.query('SELECT 1'))).rejects.toThrow(
      `bankops cannot reach its database at 127.0.0.1:${gate.port}/${database.name} (timed out)`,
    );
    expect(performance.now() - started).toBeLessThan(4_000);

    started = performance.now();
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'unhealthy', database: 'unreachable' });
    expect(performance.now() - started).toBeLessThan(1_500);

    started = performance.now();
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^bankops_database_up 0$/m);
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});
