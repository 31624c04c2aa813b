import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxInfo } from '../../src/app/shared-sandbox.js';

/**
 * Whether a loopback BANKOPS_BASE_URL is a bankops sandbox decides who votes at the CLI (against a
 * sandbox, `--as` names anyone; against the service, the OS account): a sandbox answering late on a
 * busy machine must still be one. The stand-in answers `/_sandbox/info` as each test sets it.
 */
let server: Server;
let url: string;
let answer = { delayMs: 0, sandbox: true };
beforeAll(async () => {
  server = createServer((_request, response) => {
    setTimeout(() => {
      if (!answer.sandbox) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ sandbox: 'bankops', stateFile: '/tmp/x' }));
    }, answer.delayMs);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('sandboxInfo: is the loopback service a bankops sandbox', () => {
  it('says so of a sandbox that answers a second and a half late', async () => {
    answer = { delayMs: 1_500, sandbox: true };
    expect(await sandboxInfo(url)).toMatchObject({ sandbox: 'bankops' });
  });

  it('says no at once of a service without the page, and of a port nobody listens on', async () => {
    answer = { delayMs: 0, sandbox: false };
    const started = performance.now();
    expect(await sandboxInfo(url)).toBeUndefined();
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await sandboxInfo(`http://127.0.0.1:${port}`)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
