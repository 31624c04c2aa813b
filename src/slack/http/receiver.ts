import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App, Receiver, ReceiverEvent } from '@slack/bolt';
import { internalError } from '../../core/errors.js';
import { header, readRawBody, sendJson } from '../../core/http-server.js';
import type { Logger } from '../../core/log.js';
import { verifySlackSignature } from './verify.js';

export interface SharedReceiverOptions {
  signingSecret: string;
  log: Logger;
  /**
   * Answer only after the listener finished (tests, for deterministic assertions). In production
   * the answer goes out as soon as the listener acknowledges, so Slack's 3-second limit holds.
   */
  processBeforeResponse?: boolean;
  /** Largest body accepted (default 1 MiB; Slack's payloads are a few KB). */
  maxBodyBytes?: number;
  now?: () => number;
}

type Body = Record<string, unknown>;

/** Slash commands are form fields; interactivity is a form field `payload` holding JSON; events are JSON. */
function parseBody(raw: Buffer, contentType: string | undefined): Body {
  const text = raw.toString('utf8');
  if (contentType?.startsWith('application/json')) return JSON.parse(text) as Body;
  const form = Object.fromEntries(new URLSearchParams(text));
  return typeof form.payload === 'string' ? (JSON.parse(form.payload) as Body) : form;
}

/** How long a listener may take to acknowledge before the request is answered anyway. */
const ACK_DEADLINE_MS = 3_000;

/**
 * A Bolt receiver without a server of its own: `handle` serves `/slack/events` on the shared
 * listener of `bankops serve`. It checks the signature and the 5-minute window before anything is
 * parsed, answers Slack's SSL check and URL verification, and hands the rest to the app with an
 * `ack` that writes the HTTP answer (at once, or after the listener with `processBeforeResponse`).
 */
export class SharedReceiver implements Receiver {
  #app: App | undefined;
  readonly #options: SharedReceiverOptions;

  constructor(options: SharedReceiverOptions) {
    this.#options = options;
  }

  init(app: App): void {
    this.#app = app;
  }

  // The shared listener is started and stopped by `bankops serve`, not by Bolt.
  start(): Promise<void> {
    return Promise.resolve();
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }

  readonly handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { log } = this.#options;
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      sendJson(res, 405, { error: 'Slack sends POST requests here' });
      return;
    }
    const read = await readRawBody(req, this.#options.maxBodyBytes ?? 1024 * 1024);
    if (!read.ok) {
      if (read.reason === 'too_large') sendJson(res, 413, { error: 'request body too large' });
      return;
    }
    const now = this.#options.now?.() ?? Date.now();
    const verified = verifySlackSignature(
      this.#options.signingSecret,
      { timestamp: header(req, 'x-slack-request-timestamp'), signature: header(req, 'x-slack-signature') },
      read.body,
      now,
    );
    if (!verified.ok) {
      log.warn('slack: request refused', { reason: verified.reason, remote: req.socket.remoteAddress });
      sendJson(res, 401, { error: 'invalid Slack signature' });
      return;
    }
    let body: Body;
    try {
      body = parseBody(read.body, header(req, 'content-type'));
    } catch {
      sendJson(res, 400, { error: 'malformed body' });
      return;
    }
    if (body.ssl_check === '1') {
      sendJson(res, 200, {});
      return;
    }
    if (body.type === 'url_verification' && typeof body.challenge === 'string') {
      sendJson(res, 200, { challenge: body.challenge });
      return;
    }
    await this.#dispatch(req, res, body);
  };

  async #dispatch(req: IncomingMessage, res: ServerResponse, body: Body): Promise<void> {
    const { log } = this.#options;
    const beforeResponse = this.#options.processBeforeResponse === true;
    let acked = false;
    let stored: unknown;
    const write = (response: unknown): void => {
      if (res.headersSent) return;
      if (response === undefined || response === '') {
        res.writeHead(200).end();
      } else if (typeof response === 'string') {
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end(response);
      } else {
        const text = JSON.stringify(response);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(text);
      }
    };
    const ack = async (response?: unknown): Promise<void> => {
      if (acked) return;
      acked = true;
      if (beforeResponse) stored = response;
      else write(response);
    };
    // A listener that never acknowledges still gets the request answered before Slack gives up.
    const deadline = setTimeout(() => {
      if (acked) return;
      log.warn('slack: a request was not acknowledged within 3 s; answered empty', { type: body.type });
      void ack();
      if (beforeResponse) write(stored);
    }, ACK_DEADLINE_MS);
    const retry = header(req, 'x-slack-retry-num');
    const event: ReceiverEvent = {
      body,
      ack,
      ...(retry === undefined ? {} : { retryNum: Number(retry) }),
      ...(header(req, 'x-slack-retry-reason') === undefined
        ? {}
        : { retryReason: header(req, 'x-slack-retry-reason') as string }),
    };
    try {
      if (this.#app === undefined) throw internalError('the receiver was not initialised by an app');
      await this.#app.processEvent(event);
      if (!acked) await ack();
      if (beforeResponse) write(stored);
    } catch (error) {
      log.error('slack: handling a request failed', {
        type: body.type,
        error,
      });
      if (!acked) sendJson(res, 500, { error: 'internal error' });
      else if (beforeResponse) write(stored);
    } finally {
      clearTimeout(deadline);
    }
  }
}
