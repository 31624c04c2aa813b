import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApprovalActionResult } from '../core/approvals/types.js';
import type { Logger } from '../core/log.js';
import {
  APPROVE_PATH,
  BREAK_GLASS_PATH,
  ENROL_PATH,
  PasskeyError,
  type PasskeyService,
} from '../core/passkeys/index.js';
import type { Registry } from '../core/registry.js';
import { type ApprovalAction, approvalOutcome } from '../present/approval-outcome.js';
import { statusLine } from '../present/approval-words.js';
import { approvePage } from './approve-page.js';
import { loadAssets } from './assets.js';
import { breakGlassPage } from './break-glass-page.js';
import { enrolPage } from './enrol-page.js';
import { ASK_AGAIN, ASSETS_PATH, problemPage } from './html.js';
import { BadRequest, loggablePath, RateLimit, readJson, send, sendData, sendHtml } from './http.js';

export interface PasskeyPagesOptions {
  passkeys: PasskeyService;
  registry: Registry;
  log: Logger;
  /** Requests per client address per minute on these routes (default 60). */
  ratePerMinute?: number;
}

/** A POST step of a page: its JSON answer, from the link's token and the request's body. */
type Step = (passkeys: PasskeyService, token: string, body: Record<string, unknown>) => Promise<unknown>;

/** The one line the CLI and Slack would say of this decision, and whether it went through. */
/**
 * A vote's or rejection's answer: the line, and where the approval stands now (`state`), which the
 * page puts in its header in place of the "Waiting for…" it was loaded with.
 */
function answerOf(
  action: ApprovalAction,
  result: ApprovalActionResult,
): { ok: boolean; line: string; state?: string } {
  const outcome = approvalOutcome(action, result);
  const ok = outcome.class === 'ok' || outcome.class === 'unfinished';
  const approval = result.status === 'not_found' ? undefined : result.approval;
  return approval === undefined
    ? { ok, line: outcome.line }
    : { ok, line: outcome.line, state: statusLine(approval) };
}

const ENROL_STEPS: Readonly<Record<string, Step>> = {
  options: (passkeys, token) => passkeys.enrolOptions(token),
  finish: async (passkeys, token, body) => {
    const added = await passkeys.enrolFinish(token, body.name, body.response);
    return {
      ok: true,
      line: `Passkey "${added.name}" registered. You can close this page: approvals that need it will ask for it.`,
    };
  },
};

const APPROVE_STEPS: Readonly<Record<string, Step>> = {
  options: (passkeys, token, body) =>
    passkeys.approvalOptions(token, typeof body.attempt === 'number' ? body.attempt : Number.NaN),
  vote: async (passkeys, token, body) =>
    answerOf('approve', await passkeys.approvalFinish(token, body.response)),
  reject: async (passkeys, token, body) =>
    answerOf(
      'reject',
      await passkeys.rejectFinish(token, typeof body.reason === 'string' ? body.reason : ''),
    ),
};

const BREAK_GLASS_STEPS: Readonly<Record<string, Step>> = {
  options: (passkeys, token, body) =>
    passkeys.breakGlassOptions(token, typeof body.attempt === 'number' ? body.attempt : Number.NaN),
  confirm: async (passkeys, token, body) =>
    answerOf('approve', await passkeys.breakGlassFinish(token, body.response)),
};

/** Each page: where it lives, how it renders (GET), and its steps (POST to `<page>/<step>`). */
const PAGES = [
  {
    prefix: ENROL_PATH,
    again: ASK_AGAIN,
    render: async (pages: PasskeyPagesOptions, token: string) =>
      enrolPage(await pages.passkeys.enrolPage(token)),
    steps: ENROL_STEPS,
  },
  {
    prefix: APPROVE_PATH,
    again: ASK_AGAIN,
    render: async (pages: PasskeyPagesOptions, token: string) =>
      approvePage(await pages.passkeys.approvalPage(token), pages.registry),
    steps: APPROVE_STEPS,
  },
  {
    prefix: BREAK_GLASS_PATH,
    // Break-glass is a command of the CLI only.
    again: 'Ask for a new link: the same <code>bankops approvals break-glass</code> command.',
    render: async (pages: PasskeyPagesOptions, token: string) =>
      breakGlassPage(await pages.passkeys.breakGlassPage(token), pages.registry),
    steps: BREAK_GLASS_STEPS,
  },
] as const;

type Page = (typeof PAGES)[number];

/** The page a path is under (`/approve/<token>/vote` is the approval page's), if any. */
const pageOf = (path: string): Page | undefined => PAGES.find((p) => path.startsWith(p.prefix));

/** `/approve/<token>/vote` → the token and the step (`''` for the page itself). */
function split(path: string, prefix: string): { token: string; step: string } {
  const [token = '', step = '', ...rest] = path.slice(prefix.length).split('/');
  return { token, step: rest.length > 0 ? '?' : step };
}

/** A page is read with GET (or HEAD) and changes nothing. */
async function showPage(
  pages: PasskeyPagesOptions,
  page: Page,
  token: string,
  req: IncomingMessage,
  res: ServerResponse,
) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'text/plain; charset=utf-8', 'GET only', { Allow: 'GET' });
    return;
  }
  sendHtml(res, 200, await page.render(pages, token));
}

/** A step is a POST from the page's own origin, with a JSON body; an unknown step is a 404. */
async function runStep(
  pages: PasskeyPagesOptions,
  page: Page,
  { token, step }: { token: string; step: string },
  req: IncomingMessage,
  res: ServerResponse,
) {
  const body = await readJson(req, pages.passkeys.rp().origin);
  const run = Object.hasOwn(page.steps, step) ? page.steps[step] : undefined;
  if (run === undefined) sendData(res, 404, { error: 'no such step' });
  else sendData(res, 200, await run(pages.passkeys, token, body));
}

async function sendAsset(res: ServerResponse, name: string): Promise<void> {
  const assets = await loadAssets();
  if (name === 'passkey-page.js') send(res, 200, 'text/javascript; charset=utf-8', assets.script);
  else if (name === 'page.css') send(res, 200, 'text/css; charset=utf-8', assets.css);
  else send(res, 404, 'text/plain; charset=utf-8', 'not found');
}

/** Why it could not go on, as the page or its script expects it. */
function problem(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  status: number,
  message: string,
): void {
  const again = pageOf(path)?.again;
  if (req.method === 'GET') sendHtml(res, status, problemPage('This link cannot be used', message, again));
  else sendData(res, status, { error: message });
}

/** One request to a path of the pages, once the rate limit let it through. */
async function route(
  pages: PasskeyPagesOptions,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  if (path.startsWith(ASSETS_PATH)) return sendAsset(res, path.slice(ASSETS_PATH.length));
  const page = pageOf(path) ?? PAGES[1];
  const at = split(path, page.prefix);
  if (at.step === '') return showPage(pages, page, at.token, req, res);
  // Every step of a page (options, vote, reject, finish, confirm) is a POST.
  if (req.method !== 'POST') {
    req.resume();
    return send(res, 405, 'text/plain; charset=utf-8', 'POST only', { Allow: 'POST' });
  }
  return runStep(pages, page, at, req, res);
}

/**
 * The passkey pages on `bankops serve`'s listener (`/passkeys/enroll/<token>`, `/approve/<token>`,
 * `/break-glass/<token>`) and their assets. Pages are GET and change nothing; every state change is a
 * POST to the page's own path, from its own origin, with its one-time token; rate-limited per
 * client; tokens never reach a log.
 */
export class PasskeyPages {
  readonly #limit: RateLimit;

  constructor(private readonly options: PasskeyPagesOptions) {
    this.#limit = new RateLimit(options.ratePerMinute ?? 60, 60_000);
  }

  /** Whether this path is one of the pages' (the listener hands it over then). */
  owns(path: string): boolean {
    return path.startsWith(ASSETS_PATH) || pageOf(path) !== undefined;
  }

  async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const wait = this.#limit.take(req.socket.remoteAddress ?? 'unknown');
    if (wait > 0) {
      req.resume();
      send(res, 429, 'text/plain; charset=utf-8', 'too many requests; try again shortly', {
        'Retry-After': String(wait),
      });
      return;
    }
    try {
      await route(this.options, req, res, path);
    } catch (error) {
      if (error instanceof PasskeyError || error instanceof BadRequest) {
        req.resume();
        return problem(req, res, path, error.status, error.message);
      }
      this.options.log.error('passkey page failed', { path: loggablePath(path), error });
      problem(req, res, path, 500, 'bankops could not finish this; try again, or ask for a new link');
    }
  }
}
