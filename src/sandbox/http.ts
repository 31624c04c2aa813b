import type { IncomingMessage, ServerResponse } from 'node:http';
import { invalid } from './errors.js';
import { optional } from './optional.js';

/** Reading a request and writing an answer, as the service does (its own copy: the sandbox shares nothing). */

export const MAX_BODY_BYTES = 1_000_000;
export const HANG_LIMIT_MS = 120_000;
export const IDENTITY_HEADERS = [
  'x-cardholder-id',
  'x-wallet-id',
  'x-card-id',
  'x-cardholderhash-id',
  'agent-code',
  'subagent-code',
  'x-agent-code',
  'x-subagent-code',
];

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(invalid(`request body larger than ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function send(res: ServerResponse, status: number, body: unknown, requestId?: string): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...optional('x-request-id', requestId),
  });
  res.end(text);
}

/** The body as JSON (undefined when empty); anything but JSON is the caller's error. */
export async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const raw = await readBody(req);
  if (raw.trim() === '') return undefined;
  const contentType = req.headers['content-type'];
  if (contentType === undefined || !contentType.toLowerCase().includes('application/json')) {
    throw invalid('Content-Type must be application/json');
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw invalid('request body is not valid JSON');
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
