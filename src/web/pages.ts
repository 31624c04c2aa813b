import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApprovalActionResult } from '../core/approvals/types.js';
import type { Logger } from '../core/log.js';
import { APPROVE_PATH, ENROL_PATH, PasskeyError, type PasskeyService } from '../core/passkeys/index.js';
import type { Registry } from '../core/registry.js';
import { type ApprovalAction, approvalOutcome } from '../present/approval-outcome.js';
import { approvePage } from './approve-page.js';
import { loadAssets } from './assets.js';
import { enrolPage } from './enrol-page.js';
import { ASSETS_PATH, problemPage } from './html.js';
import { BadRequest, loggablePath, RateLimit, readJson, send, sendData, sendHtml } from './http.js';

export interface PasskeyPagesOptions {
  passkeys: PasskeyService;
  registry: Registry;
  log: Logger;
  /** Requests per client address per minute on these routes (default 60). */
  ratePerMinute?: number;
}

export interface PasskeyPages {
  /** Whether this path is one of the pages' (the listener hands it over then). */
  owns(path: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
}

/** `/approve/<token>/vote` → the token and the step (`''` for the page itself). */
function split(path: string, prefix: string): { token: string; step: string } {
  const [token = '', step = '', ...rest] = path.slice(prefix.length).split('/');
  return { token, step: rest.length > 0 ? '?' : step };
}

/** The one line the CLI and Slack would say of this decision, and whether it went through. */
function answerOf(action: ApprovalAction, result: ApprovalActionResult): { ok: boolean; line: string } {
  const outcome = approvalOutcome(action, result);
  return { ok: outcome.class === 'ok' || outcome.class === 'unfinished', line: outcome.line };
}

/**
 * The two passkey pages on `bankops serve`'s listener (`/passkeys/enroll/<token>`,
 * `/approve/<token>`) and their assets. Pages are GET and change nothing; every state change is a
 * POST to the page's own path, from its own origin, with its one-time token; rate-limited per
 * client; tokens never reach a log.
 */
export function passkeyPages(options: PasskeyPagesOptions): PasskeyPages {
  const { passkeys, registry, log } = options;
  const limit = new RateLimit(options.ratePerMinute ?? 60, 60_000);

  const page = async (
    req: IncomingMessage,
    res: ServerResponse,
    render: () => string | Promise<string>,
  ): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'text/plain; charset=utf-8', 'GET only', { Allow: 'GET' });
      return;
    }
    sendHtml(res, 200, await render());
  };

  const enrol = async (
    req: IncomingMessage,
    res: ServerResponse,
    token: string,
    step: string,
  ): Promise<void> => {
    if (step === '') return page(req, res, async () => enrolPage(await passkeys.enrolPage(token)));
    const body = await readJson(req, passkeys.rp().origin);
    if (step === 'options') return sendData(res, 200, await passkeys.enrolOptions(token));
    if (step === 'finish') {
      const added = await passkeys.enrolFinish(token, body.name, body.response);
      return sendData(res, 200, {
        ok: true,
        line: `Passkey "${added.name}" registered. You can close this page: approvals that need it will ask for it.`,
      });
    }
    sendData(res, 404, { error: 'no such step' });
  };

  const approve = async (
    req: IncomingMessage,
    res: ServerResponse,
    token: string,
    step: string,
  ): Promise<void> => {
    if (step === '')
      return page(req, res, async () => approvePage(await passkeys.approvalPage(token), registry));
    const body = await readJson(req, passkeys.rp().origin);
    switch (step) {
      case 'options': {
        const attempt = typeof body.attempt === 'number' ? body.attempt : Number.NaN;
        return sendData(res, 200, await passkeys.approvalOptions(token, attempt));
      }
      case 'vote':
        return sendData(res, 200, answerOf('approve', await passkeys.approvalFinish(token, body.response)));
      case 'reject': {
        const reason = typeof body.reason === 'string' ? body.reason : '';
        return sendData(res, 200, answerOf('reject', await passkeys.rejectFinish(token, reason)));
      }
      default:
        sendData(res, 404, { error: 'no such step' });
    }
  };

  const asset = async (res: ServerResponse, name: string): Promise<void> => {
    const assets = await loadAssets();
    if (name === 'passkey-page.js') return send(res, 200, 'text/javascript; charset=utf-8', assets.script);
    if (name === 'page.css') return send(res, 200, 'text/css; charset=utf-8', assets.css);
    send(res, 404, 'text/plain; charset=utf-8', 'not found');
  };

  /** Why it could not go on, as the page or its script expects it. */
  const problem = (req: IncomingMessage, res: ServerResponse, status: number, message: string): void => {
    if (req.method === 'GET') sendHtml(res, status, problemPage('This link cannot be used', message));
    else sendData(res, status, { error: message });
  };

  return {
    owns: (path) =>
      path.startsWith(ENROL_PATH) || path.startsWith(APPROVE_PATH) || path.startsWith(ASSETS_PATH),
    async handle(req, res, path) {
      const client = req.socket.remoteAddress ?? 'unknown';
      const wait = limit.take(client);
      if (wait > 0) {
        req.resume();
        send(res, 429, 'text/plain; charset=utf-8', 'too many requests; try again shortly', {
          'Retry-After': String(wait),
        });
        return;
      }
      try {
        if (path.startsWith(ASSETS_PATH)) return await asset(res, path.slice(ASSETS_PATH.length));
        // A page is read with GET; every step of it (options, vote, reject, finish) is a POST.
        const isStep = split(path, path.startsWith(ENROL_PATH) ? ENROL_PATH : APPROVE_PATH).step !== '';
        if (isStep && req.method !== 'POST') {
          req.resume();
          return send(res, 405, 'text/plain; charset=utf-8', 'POST only', { Allow: 'POST' });
        }
        if (path.startsWith(ENROL_PATH)) {
          const { token, step } = split(path, ENROL_PATH);
          return await enrol(req, res, token, step);
        }
        const { token, step } = split(path, APPROVE_PATH);
        return await approve(req, res, token, step);
      } catch (error) {
        if (error instanceof PasskeyError || error instanceof BadRequest) {
          req.resume();
          return problem(req, res, error.status, error.message);
        }
        log.error('passkey page failed', {
          path: loggablePath(path),
          error,
        });
        problem(req, res, 500, 'bankops could not finish this; try again, or ask for a new link');
      }
    },
  };
}
