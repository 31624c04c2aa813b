import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES, type SandboxAnswer, type SandboxCall, tooLarge } from './exchange.js';

/**
 * The sandbox's listener side: a request read from Node's HTTP server as a `SandboxCall`, and an
 * answer written back (its own copy of what a service does: the sandbox shares nothing).
 */

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(tooLarge());
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The request as the handler takes it; its signal is aborted when the connection closes. */
export function callOf(req: IncomingMessage, res: ServerResponse): SandboxCall {
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  return {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    headers: req.headers,
    readBody: () => readBody(req),
    signal: gone.signal,
  };
}

/** Writes the answer, or drops the connection when there is none; nothing once the caller has gone. */
export function writeAnswer(res: ServerResponse, answer: SandboxAnswer): void {
  if ('hangUp' in answer) {
    res.destroy();
    return;
  }
  if (res.headersSent || res.destroyed) return;
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}
