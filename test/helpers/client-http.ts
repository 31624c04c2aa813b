import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClientConfig } from '../../src/core/client/index.js';
import { type RunningSandbox, raw } from './sandbox.js';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A plain HTTP server on 127.0.0.1 that records every request and answers with `reply(request)`:
 * for checks of what the client puts on the wire (headers) and of answers the sandbox never gives.
 */
export async function startRecordingServer(
  reply: (request: RecordedRequest) => { status: number; body: unknown },
): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const { status, body } = reply(recorded);
      const text = JSON.stringify(body);
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Client settings for a non-sandbox server; the credentials are distinctive so leaks are easy to spot. */
export const FAKE_CONFIG: Omit<ClientConfig, 'baseUrl'> = {
  apiKey: 'fake-api-key-7f3a9c',
  productId: 'fake-product',
  userId: 'fake-user',
  companyId: 'FAKE-CO',
  maxRetries: 0,
};

/** Adds a fault to the sandbox (`POST /_sandbox/faults`). */
export async function injectFault(sandbox: RunningSandbox, fault: Record<string, unknown>): Promise<void> {
  const res = await raw(sandbox, 'POST', '/_sandbox/faults', {
    headers: { 'content-type': 'application/json' },
    body: fault,
  });
  if (res.status !== 200) throw new Error(`fault injection failed: ${JSON.stringify(res.body)}`);
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}
