import { createServer } from 'node:net';

/**
 * A loopback port free right now: for a listener that must know its port before it starts (the
 * public URL names it), or as a port nothing listens on (an unreachable server).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}
