import type { IncomingMessage, ServerResponse } from 'node:http';
import { CodedError, ErrorCode } from '../core/errors.js';
import { header, readJsonBody } from '../core/http-server.js';

/**
 * The passkey pages' HTTP: every answer carries a strict Content-Security-Policy (scripts, styles
 * and requests from bankops only; nothing inline, nothing framed), is never cached, and sends no
 * Referer (the token is in the path).
 */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CSP,
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

export function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': contentType,
    'Content-Length': String(Buffer.byteLength(body)),
    ...extra,
  });
  res.end(body);
}

export const sendHtml = (res: ServerResponse, status: number, html: string): void =>
  send(res, status, 'text/html; charset=utf-8', html);

export const sendData = (res: ServerResponse, status: number, value: unknown): void =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));

const MAX_BODY = 32 * 1024;

/** A request the pages refuse before reading it further (`usage`; `status` is the HTTP answer). */
export class BadRequest extends CodedError {
  constructor(
    readonly status: 400 | 403 | 413 | 415,
    message: string,
  ) {
    super({ code: ErrorCode.Usage, message, httpStatus: status });
    this.name = 'BadRequest';
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A state-changing request's JSON body: from our own origin, JSON, at most 32 KB, read by the
 * listener's one body reader (`readJsonBody`).
 */
export async function readJson(req: IncomingMessage, origin: string): Promise<Record<string, unknown>> {
  if (header(req, 'origin') !== origin) throw new BadRequest(403, 'requests must come from the bankops page');
  if (!/^application\/json\b/i.test(header(req, 'content-type') ?? ''))
    throw new BadRequest(415, 'send JSON');
  const body = await readJsonBody(req, MAX_BODY);
  if (!body.ok && body.reason === 'too_large') throw new BadRequest(413, 'request too large');
  // A body cut off on its way is no more an object than one that does not parse.
  if (!body.ok || !isObject(body.value)) throw new BadRequest(400, 'the body is not a JSON object');
  return body.value;
}

/**
 * A fixed window per client address: enough for a person, too little to try tokens (which are 256
 * random bits anyway). In memory: each process counts its own requests.
 */
export class RateLimit {
  readonly #hits = new Map<string, { count: number; since: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds to wait, or 0 when this request may go on. */
  take(client: string): number {
    const now = this.now();
    const entry = this.#hits.get(client);
    if (entry === undefined || now - entry.since >= this.windowMs) {
      if (this.#hits.size > 10_000) this.#hits.clear();
      this.#hits.set(client, { count: 1, since: now });
      return 0;
    }
    entry.count += 1;
    return entry.count > this.limit ? Math.ceil((entry.since + this.windowMs - now) / 1000) : 0;
  }
}

/** The path with any token cut out, for logs. */
export const loggablePath = (path: string): string =>
  path.replace(/^(\/approve\/|\/break-glass\/|\/passkeys\/enroll\/)[^/]+/, '$1…');
