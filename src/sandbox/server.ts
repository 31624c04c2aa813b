import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxClock } from './clock.js';
import type { SandboxCredentials } from './credentials.js';
import { callOf, writeAnswer } from './http.js';
import { openSandbox, type SandboxService } from './service.js';

/**
 * Where a persistent sandbox keeps its state between processes (the CLI's embedded sandbox: a payout
 * requested by one command is approved by the next). `load` returns the newest saved state when it
 * is newer than `revision`; `save` stores one after every request that may have changed something.
 */
export interface SandboxPersistence {
  load(sinceRevision: number): { revision: number; state: Buffer } | undefined;
  save(state: Buffer): number;
  /**
   * Runs a request that may change the state (its load, change and save) as the only writer
   * across processes, so two at once do not lose either's change; absent: no such guard.
   */
  exclusive?<T>(work: () => Promise<T>): Promise<T>;
}

export interface SandboxOptions {
  persistence?: SandboxPersistence;
  credentials?: SandboxCredentials;
  clock?: SandboxClock;
  /** Waits between the attempts of a webhook delivery; 200 ms then 1 s (3 attempts) by default. */
  webhookBackoffMs?: readonly number[];
  /** Said about itself on `GET /_sandbox/info` (which state file it serves, say), next to `sandbox: "bankops"`. */
  info?: Readonly<Record<string, string>>;
  /**
   * Tests: called once a request has been carried out (the money moved, the state saved), before
   * its answer leaves; a promise returned holds the answer until it settles, so a test can stop a
   * caller between "done at the service" and "heard of it" (kill it there).
   */
  beforeAnswer?: (request: { operation: string; requestId: string | undefined }) => Promise<void> | undefined;
  /** Called once per handled request (for `bankops sandbox --verbose`). */
  onRequest?: (line: {
    method: string;
    path: string;
    status: number;
    operation?: string;
    ms: number;
  }) => void;
}

/** The sandbox listening on loopback; its requests may also be handed to it in this process. */
export interface RunningSandbox extends SandboxService {
  /** Base URL, `http://127.0.0.1:<port>`, to which the spec's paths are appended. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Starts the sandbox on 127.0.0.1. Port 0 picks a free port; the URL is on the returned handle.
 */
export async function startSandbox(port = 0, options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = openSandbox(options);
  const server: Server = createServer((req, res) => {
    void sandbox.handle(callOf(req, res)).then((answer) => writeAnswer(res, answer));
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;

  return {
    ...sandbox,
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
