import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What the front ends' routes on the one listener of `bankops serve` (`/mcp`, `/slack/events`,
 * `/webhooks/service`) share: reading a bounded body, a header, a short JSON answer.
 */

export type RawBody = { ok: true; body: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

export type BodyResult =
  | { ok: true; value: unknown }
  | { ok: false; reason: 'too_large' | 'invalid_json' | 'aborted' };

/** A request header's value (the first, when it was sent more than once). */
export const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The request body as bytes (a signature covers the exact bytes), at most `maxBytes`: a declared
 * length over the bound is refused before reading, and reading stops once the bound is passed.
 */
export function readRawBody(req: IncomingMessage, maxBytes: number): Promise<RawBody> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: RawBody): void => {
      if (done) return;
      done = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > maxBytes) {
        // Keep draining (and discarding) so the 413 can still be written on this connection.
        chunks.length = 0;
        finish({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => finish({ ok: true, body: Buffer.concat(chunks) }));
    // A client that goes away mid-body: nothing to answer, but the caller must not wait forever.
    req.on('close', () => finish({ ok: false, reason: 'aborted' }));
    req.on('error', () => finish({ ok: false, reason: 'aborted' }));
  });
}

/** The body parsed as JSON, at most `maxBytes`: a client cannot make the server buffer more. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const read = await readRawBody(req, maxBytes);
  if (!read.ok) return read;
  try {
    return { ok: true, value: JSON.parse(read.body.toString('utf8')) };
  } catch {
    return { ok: false, reason: 'invalid_json' };
  }
}

/** A plain answer for the routes that are not MCP: a status and a short JSON body, never echoing input. */
export function sendJson(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}
