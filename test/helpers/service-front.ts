import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback front for a sandbox that does not say it is one (its `/_sandbox/*` control surface is
 * not there): how a real service on loopback (a tunnel, a local proxy) looks to bankops.
 */
export async function serviceFront(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if ((req.url ?? '').startsWith('/_sandbox')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"status":"error","message":"not found"}');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      );
      delete headers.host;
      delete headers['content-length'];
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      fetch(`${target}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body === undefined ? {} : { body }),
      })
        .then(async (answer) => {
          res.writeHead(answer.status, {
            'content-type': answer.headers.get('content-type') ?? 'application/json',
          });
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
