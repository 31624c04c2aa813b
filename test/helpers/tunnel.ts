import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request that went through the tunnel, with what the server behind it answered. */
export interface Passed {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

/**
 * A stand-in for the proxy or tunnel in front of `bankops serve` (`BANKOPS_PUBLIC_URL`): it forwards
 * every request to the target set once serve listens, and records what passed, so a test can
 * replay a delivery exactly as the service sent it.
 */
export class Tunnel {
  readonly passed: Passed[] = [];
  target = '';
  #server: Server | undefined;
  #url = '';

  static async start(): Promise<Tunnel> {
    const tunnel = new Tunnel();
    tunnel.#server = createServer((req, res) => {
      void tunnel.#forward(req).then(
        ({ status, text }) => res.writeHead(status, { 'content-type': 'application/json' }).end(text),
        () => res.writeHead(502).end(),
      );
    });
    await new Promise<void>((resolve) => tunnel.#server?.listen(0, '127.0.0.1', resolve));
    tunnel.#url = `http://127.0.0.1:${(tunnel.#server.address() as AddressInfo).port}`;
    return tunnel;
  }

  get url(): string {
    return this.#url;
  }

  /** Sends a request through the tunnel as the service would (a replay, a forged key). */
  send(path: string, headers: Record<string, string>, body: string): Promise<Response> {
    return fetch(`${this.#url}${path}`, { method: 'POST', headers, body });
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#server?.close(() => resolve());
      this.#server?.closeAllConnections();
    });
  }

  async #forward(req: IncomingMessage): Promise<{ status: number; text: string }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && name !== 'host' && name !== 'content-length' && name !== 'connection') {
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
    }
    const method = req.method ?? 'GET';
    const response = await fetch(`${this.target}${req.url ?? '/'}`, {
      method,
      headers,
      ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
    });
    const text = await response.text();
    this.passed.push({ method, path: req.url ?? '/', headers, body, status: response.status });
    return { status: response.status, text };
  }
}
