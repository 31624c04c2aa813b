import type { IncomingMessage } from 'node:http';

export type BodyResult =
  | { ok: true; value: unknown }
  | { ok: false; reason: 'too_large' }
  | { ok: false; reason: 'invalid_json' }
  | { ok: false; reason: 'aborted' };

/**
 * Reads and parses a JSON request body of at most `maxBytes`. A declared Content-Length over the
 * bound is refused before reading; otherwise reading stops as soon as the bound is passed, so a
 * client cannot make the server buffer more than that.
 */
export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyResult): void => {
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
    req.on('end', () => {
      if (done) return;
      try {
        finish({ ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch {
        finish({ ok: false, reason: 'invalid_json' });
      }
    });
    // A client that goes away mid-body: nothing to answer, but the caller must not wait forever.
    req.on('close', () => finish({ ok: false, reason: 'aborted' }));
    req.on('error', (error) => {
      if (!done) {
        done = true;
        reject(error);
      }
    });
  });
}
