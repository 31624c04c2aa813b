import type { IncomingMessage, ServerResponse } from 'node:http';

export type RawBody = { ok: true; body: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

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
        chunks.length = 0;
        finish({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => finish({ ok: true, body: Buffer.concat(chunks) }));
    req.on('close', () => finish({ ok: false, reason: 'aborted' }));
    req.on('error', () => finish({ ok: false, reason: 'aborted' }));
  });
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
