import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { CodedError } from '../core/errors.js';
import { header, readJsonBody, sendJson } from '../core/http-server.js';
import { isLoopback } from '../core/loopback.js';
import type { Outcome, WorkspaceActions } from './actions.js';
import { TRY_PATH } from './availability.js';
import type { SandboxClockControl } from './clock.js';
import { PAGE_CSS, PAGE_SCRIPT } from './page/assets.generated.js';
import { pageHtml } from './page/page.js';
import { type Person, personById, REQUESTER } from './people.js';
import type { ResponseUrls } from './response-urls.js';
import type { PageStreams } from './stream.js';
import { type WebApiDeps, webApiRoute } from './web-api.js';

/**
 * The workspace's routes under `/try/slack`: the page and its assets, the events it follows, what
 * people do on it (`ui/…`), and the two doors the app uses (`api/<method>`, `respond/<id>`). Only
 * for this machine: the Host must be a loopback name (a page elsewhere that points its own name at
 * 127.0.0.1 is refused), and what the page posts must come from its own origin, as JSON.
 */

/** The passkey pages' policy (src/web): bankops's own script, style and requests; nothing inline, nothing framed. */
const HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    ...HEADERS,
    'Content-Type': type,
    'Content-Length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

export interface RoutesDeps {
  actions: WorkspaceActions;
  streams: PageStreams;
  snapshot(user: string): Promise<unknown>;
  clock: SandboxClockControl;
  webApi: WebApiDeps;
  responses: ResponseUrls;
}

/** A person of the workspace, by Slack user id (the user switcher's choice). */
const who = z.string().transform((id, ctx): Person => {
  const person = personById(id);
  if (person === undefined) {
    ctx.addIssue({ code: 'custom', message: 'not a person of this workspace' });
    return z.NEVER;
  }
  return person;
});
const path = z.string().max(64);
const BODIES = {
  command: z.object({ user: who, channel: z.string(), text: z.string().max(4000) }),
  message: z.object({ user: who, channel: z.string(), text: z.string().max(4000) }),
  click: z.object({
    user: who,
    path,
    channel: z.string().optional(),
    ts: z.string().optional(),
    view: z.string().optional(),
    option: z.string().optional(),
  }),
  submit: z.object({ user: who, view: z.string(), values: z.record(z.string(), z.string().max(4000)) }),
  close: z.object({ user: who, view: z.string() }),
  home: z.object({ user: who }),
  clock: z.object({ seconds: z.number() }),
};

async function doUi(
  d: RoutesDeps,
  what: keyof typeof BODIES,
  value: unknown,
): Promise<Outcome | { ok: true; clock: unknown }> {
  const { actions } = d;
  switch (what) {
    case 'command': {
      const b = BODIES.command.parse(value);
      return actions.command(b.user, b.channel, b.text);
    }
    case 'message': {
      const b = BODIES.message.parse(value);
      return actions.message(b.user, b.channel, b.text);
    }
    case 'click': {
      const b = BODIES.click.parse(value);
      if (b.view !== undefined) return actions.clickInView(b.user, b.view, b.path, b.option);
      return actions.clickInMessage(b.user, b.channel ?? '', b.ts ?? '', b.path, b.option);
    }
    case 'submit': {
      const b = BODIES.submit.parse(value);
      return actions.submit(b.user, b.view, b.values);
    }
    case 'close': {
      const b = BODIES.close.parse(value);
      return actions.close(b.user, b.view);
    }
    case 'home':
      return actions.openHome(BODIES.home.parse(value).user);
    case 'clock': {
      const time = await d.clock.advance(BODIES.clock.parse(value).seconds);
      d.streams.send('clock', time);
      return { ok: true, clock: time };
    }
  }
}

/** A post of the page: from its own origin (no other site can make a browser send it), as JSON. */
async function ui(d: RoutesDeps, req: IncomingMessage, res: ServerResponse, what: string): Promise<void> {
  const host = header(req, 'host');
  if (req.method !== 'POST' || !(what in BODIES)) {
    req.resume();
    sendJson(res, 404, { ok: false, problem: 'no such action' });
    return;
  }
  if (
    header(req, 'origin') !== `http://${host}` ||
    !/^application\/json\b/.test(header(req, 'content-type') ?? '')
  ) {
    req.resume();
    sendJson(res, 403, { ok: false, problem: 'only the workspace page may do this' });
    return;
  }
  const body = await readJsonBody(req, 64 * 1024);
  if (!body.ok) {
    sendJson(res, 400, { ok: false, problem: 'the body is not JSON' });
    return;
  }
  try {
    sendJson(res, 200, await doUi(d, what as keyof typeof BODIES, body.value));
  } catch (error) {
    if (error instanceof z.ZodError) sendJson(res, 400, { ok: false, problem: 'malformed request' });
    else if (error instanceof CodedError && error.code !== 'internal')
      sendJson(res, 200, { ok: false, problem: error.message });
    else throw error;
  }
}

/** A Host header naming this machine (`127.0.0.1:8765`, `localhost:8765`, `[::1]:8765`). */
function loopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    return isLoopback(`http://${host}`);
  } catch {
    return false;
  }
}

export function workspaceRoutes(d: RoutesDeps) {
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (!loopbackHost(header(req, 'host'))) {
      req.resume();
      sendJson(res, 403, {
        error: 'the local workspace answers only at a loopback address (127.0.0.1, localhost)',
      });
      return;
    }
    const rest = path.slice(TRY_PATH.length);
    if (rest.startsWith('/api/')) return webApiRoute(d.webApi, req, res, rest.slice('/api/'.length));
    if (rest.startsWith('/respond/') && req.method === 'POST')
      return d.responses.route(req, res, rest.slice('/respond/'.length));
    if (rest.startsWith('/ui/')) return ui(d, req, res, rest.slice('/ui/'.length));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      req.resume();
      return send(res, 405, 'text/plain; charset=utf-8', 'GET only');
    }
    switch (rest) {
      case '':
      case '/':
        return send(res, 200, 'text/html; charset=utf-8', pageHtml());
      case '/page.js':
        return send(res, 200, 'text/javascript; charset=utf-8', PAGE_SCRIPT);
      case '/page.css':
        return send(res, 200, 'text/css; charset=utf-8', PAGE_CSS);
      case '/events': {
        const user = new URL(req.url ?? '/', 'http://localhost').searchParams.get('user') ?? '';
        const person = personById(user) ?? REQUESTER;
        d.streams.open(person.id, res, { event: 'snapshot', data: await d.snapshot(person.id) });
        return;
      }
      default:
        send(res, 404, 'text/plain; charset=utf-8', 'not found');
    }
  };
}
