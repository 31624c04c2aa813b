import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One HTTP request the receiver got. */
export interface Delivery {
  method: string;
  /** Path and query as requested. */
  path: string;
  /** Lower-case header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  rawBody: string;
  /** The status code the receiver answered with. */
  status: number;
}

export interface WebhookReceiverOptions {
  /**
   * Status code to answer request number `index` (0-based) with; default 200 for every request.
   * E.g. `(i) => (i < 2 ? 500 : 200)` fails twice, then accepts.
   */
  respond?: (index: number, delivery: Omit<Delivery, 'status'>) => number;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/webhook`; any path on the port is recorded. */
  readonly url: string;
  /** Every request so far, in arrival order (failed attempts included). */
  readonly received: Delivery[];
  /** Resolves with `received` once at least `n` requests arrived; rejects after `timeoutMs`. */
  waitFor(n: number, timeoutMs?: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

function readText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** A loopback HTTP server that records what is POSTed to it, for webhook delivery tests. */
export async function startWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const received: Delivery[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];

  const server = createServer((req, res) => {
    void readText(req).then((rawBody) => {
      let body: unknown = rawBody;
      try {
        body = JSON.parse(rawBody);
      } catch {
        // keep the text: the test will say what arrived
      }
      const request = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: flatHeaders(req),
        body,
        rawBody,
      };
      const status = options.respond?.(received.length, request) ?? 200;
      received.push({ ...request, status });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ received: true }));
      for (const waiter of [...waiters]) {
        if (received.length >= waiter.n) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/webhook`,
    received,
    waitFor: (n, timeoutMs = 5000) => {
      if (received.length >= n) return Promise.resolve(received);
      return new Promise<Delivery[]>((resolve, reject) => {
        const waiter = {
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(
            new Error(
              `webhook receiver: expected ${n} request(s) within ${timeoutMs} ms, got ${received.length}`,
            ),
          );
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
