import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SERVER_URL, type TestDatabase, writeFingerprintKey } from './postgres.js';
import { type SlackTest, type SlackTestOptions, startSlackTest } from './slack-app.js';
import { TcpGate } from './tcp-gate.js';

/** `bankops serve` with Slack on PostgreSQL, reached through a port the test shuts and opens again. */
export interface GatedSlack {
  t: SlackTest;
  gate: TcpGate;
  close(): Promise<void>;
}

/** Starts the app on `database` through a new gate (call in `beforeAll`; `close` in `afterAll`). */
export async function startGatedSlack(
  database: TestDatabase,
  options: Omit<SlackTestOptions, 'database'> = {},
): Promise<GatedSlack> {
  const keys = mkdtempSync(join(tmpdir(), 'bankops-keys-'));
  const server = new URL(TEST_SERVER_URL);
  const gate = await TcpGate.open({ host: server.hostname, port: Number(server.port || 5432) });
  const url = new URL(database.url());
  url.port = String(gate.port);
  const t = await startSlackTest({
    ...options,
    database: { url: url.toString(), fingerprintKeyFile: writeFingerprintKey(keys) },
  });
  return {
    t,
    gate,
    async close() {
      await gate.open().catch(() => undefined);
      await t.close();
      await gate.shut();
      rmSync(keys, { recursive: true, force: true });
    },
  };
}
