import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { usageError } from '../core/errors.js';
import { sendJson } from '../core/http-server.js';
import { optional } from '../core/optional.js';
import { createMcpHttpHandler, type McpHttpHandlerOptions } from '../mcp/http/handler.js';
import { isLoopbackHost, urlHost } from '../mcp/http/host.js';
import { OAuthResource, PROTECTED_RESOURCE_PATH } from '../mcp/http/oauth.js';
import { MCP_PATH } from '../mcp/http.js';
import type { SlackAppOptions, SlackFrontEnd } from '../slack/app.js';
import { SLACK_OFF_HINT, type SlackConfig } from '../slack/config.js';
import { localWorkspaceSetting } from '../try/availability.js';
import type { LocalWorkspace } from '../try/workspace.js';
import { loggablePath } from '../web/http.js';
import { PasskeyPages } from '../web/pages.js';
import type { ServeSettings } from './config.js';
import { ServeMetrics } from './metrics/metrics.js';
import { HEALTH_PATH, LIVE_PATH, METRICS_PATH, operationsRoutes, READY_PATH } from './metrics/routes.js';
import type { Runtime } from './runtime.js';

export const SLACK_EVENTS_PATH = '/slack/events';
export const WEBHOOKS_PATH = '/webhooks/service';
export { HEALTH_PATH, LIVE_PATH, METRICS_PATH, READY_PATH } from './metrics/routes.js';

export interface ServeOptions {
  runtime: Runtime;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The explicit consent to listen on a non-loopback address. */
  allowRemote?: boolean;
  /** MCP's own options (toolsets, read-only, confirmation, hosts and origins, limits). */
  mcp?: Omit<McpHttpHandlerOptions, 'runtime'>;
  settings: ServeSettings;
  /** Said after the MCP address in the banner (`17 tools, read-only`). */
  mcpSummary?: string;
  /** The process's metrics, also handed to `createRuntime` so calls are counted (a fresh set otherwise). */
  metrics?: ServeMetrics;
  /** Options of the Slack app the environment does not carry (tests). */
  slack?: Partial<Omit<SlackAppOptions, 'config' | 'runtime' | 'stores' | 'defaults'>>;
  /** The local Slack workspace (`/try/slack`) where it may run; false: `--no-try`. */
  try?: boolean;
}

export interface RunningServe {
  /** `http://127.0.0.1:<port>`, the base of every route. */
  url: string;
  port: number;
  slack?: SlackFrontEnd;
  /** The local Slack workspace the Slack app runs against, when there is no real one. */
  workspace?: LocalWorkspace;
  /** Where the service delivers events (`BANKOPS_PUBLIC_URL`, or this listener for the embedded sandbox). */
  publicUrl?: string;
  /** The start-up message: what runs where and what to set next. */
  banner: string[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const pathOf = (req: IncomingMessage): string => new URL(req.url ?? '/', 'http://localhost').pathname;

async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/**
 * `bankops serve` (DESIGN decision 12): every long-lived front end on one HTTP listener. `/mcp` is
 * MCP over Streamable HTTP with its own Host, Origin and bearer-key checks; `/slack/events` is Slack's
 * Request URL, each request checked against the signing secret; `/webhooks/service` takes the
 * service's deliveries, each checked against the keys bankops made; `/healthz` says what runs.
 * Slack and the service reach it through `BANKOPS_PUBLIC_URL` (a proxy or tunnel); the listener
 * itself stays on loopback unless told otherwise.
 */
export async function startServe(options: ServeOptions): Promise<RunningServe> {
  const { runtime, settings } = options;
  const { log } = runtime;
  if (!isLoopbackHost(options.host) && options.allowRemote !== true) {
    throw usageError(
      `refusing to listen on ${options.host}: serve listens on loopback unless told otherwise explicitly`,
    );
  }
  const oauth =
    options.mcp?.oauth ??
    (settings.oidc === undefined || settings.publicUrl === undefined
      ? undefined
      : new OAuthResource({ settings: settings.oidc, publicUrl: settings.publicUrl }));
  const mcp = createMcpHttpHandler({ runtime, ...options.mcp, ...optional('oauth', oauth) });
  const local = localWorkspaceSetting({
    wanted: options.try !== false,
    slackConfigured: settings.slack.enabled,
    sandboxUrl: runtime.sandboxUrl,
    loopback: isLoopbackHost(options.host),
    sharedDatabase: runtime.config.databaseUrl !== undefined,
  });
  // Loaded only when Slack is on: a server without it does not pay for Bolt.
  const slackModule =
    settings.slack.enabled || local.on
      ? {
          ...(await import('../slack/app.js')),
          // Its stores on the runtime's backend, made before listening: nothing awaits once requests come.
          stores: await runtime.backend.storesOf((await import('../slack/store/backend.js')).slackStores),
        }
      : undefined;
  const tryModule = local.on ? await import('../try/workspace.js') : undefined;
  let slack: SlackFrontEnd | undefined;
  let workspace: LocalWorkspace | undefined;
  let ready = false;
  const metrics = options.metrics ?? new ServeMetrics();

  const routes: Record<string, Handler> = {
    [MCP_PATH]: mcp.handle,
    // RFC 9728: path-aware for `/mcp`, and the bare well-known path answers the same.
    ...(oauth === undefined
      ? {}
      : {
          [`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`]: oauth.serveMetadata,
          [PROTECTED_RESOURCE_PATH]: oauth.serveMetadata,
        }),
    ...operationsRoutes({
      metrics,
      storage: runtime.storage,
      ...optional('metricsKey', settings.metricsKey),
      running: () => ({ mcp: MCP_PATH, slack: slack === undefined ? 'off' : slack.config.mode }),
      outbox: () => slack?.outbox,
      auditWaiting: () => runtime.audit.waiting,
      ready: () => ready,
      schema: () => runtime.backend.schemaState(),
      // PostgreSQL is asked by a round trip behind none of this process's transactions (which may
      // hold the storage's lock for seconds), dropped at the deadline; SQLite's read never waits on a network.
      ...optional('databaseUp', runtime.backend.ping?.bind(runtime.backend)),
    }),
    [SLACK_EVENTS_PATH]: async (req, res) => {
      if (slack?.events !== undefined) return slack.events(req, res);
      req.resume();
      sendJson(res, 404, {
        error: slack === undefined ? 'Slack is off on this server' : 'Slack runs in Socket Mode here',
      });
    },
    // Browsers ask for it beside every page (the passkey pages, /try/slack): no icon, and no 404 in the log.
    '/favicon.ico': async (req, res) => {
      req.resume();
      res.writeHead(204, { 'Cache-Control': 'public, max-age=86400' }).end();
    },
    [WEBHOOKS_PATH]: async (req, res) => {
      if (slack !== undefined) return slack.webhooks(req, res);
      req.resume();
      // 503, not 200: the service retries, and nothing is recorded that Slack would then miss.
      sendJson(res, 503, { error: 'Slack is off on this server, so deliveries have nowhere to go' });
    },
  };
  // The passkey pages (`/passkeys/enroll/<token>`, `/approve/<token>`, `/break-glass/<token>`):
  // their paths hold a token.
  const pages = new PasskeyPages({ passkeys: runtime.passkeys, registry: runtime.registry, log });
  const server = createServer((req, res) => {
    const path = pathOf(req);
    const tryRoute = workspace?.owns(path) === true ? workspace : undefined;
    const route = pages.owns(path)
      ? (rq: IncomingMessage, rs: ServerResponse) => pages.handle(rq, rs, path)
      : tryRoute !== undefined
        ? (rq: IncomingMessage, rs: ServerResponse) => tryRoute.handle(rq, rs, path)
        : routes[path];
    if (route === undefined) {
      req.resume();
      sendJson(res, 404, { error: `not found; the routes are ${Object.keys(routes).join(', ')}` });
      return;
    }
    route(req, res).catch((error: unknown) => {
      log.error('serve: request failed', {
        path: loggablePath(path),
        error,
      });
      sendJson(res, 500, { error: 'internal error' });
    });
  });
  // MCP's SSE streams stay open for a long time; Node's default request timeout would cut them.
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  const port = await listen(server, options.port, options.host);
  const url = `http://${urlHost(options.host)}:${port}`;
  // The embedded sandbox runs on this machine: it can deliver to this listener directly.
  const publicUrl = settings.publicUrl ?? (runtime.embedded?.current()?.own === undefined ? undefined : url);
  if (publicUrl !== undefined) runtime.webhooks.servedAt(publicUrl);
  // Built once the address is known, before any request is read (nothing awaits in between).
  if (tryModule !== undefined && local.on) {
    workspace = tryModule.startLocalWorkspace({
      url,
      sandboxUrl: local.sandboxUrl,
      registry: runtime.registry,
      log,
    });
    runtime.policy.addActors(workspace.actors);
  }
  const slackConfig: SlackConfig | undefined = settings.slack.enabled
    ? settings.slack.config
    : workspace === undefined
      ? undefined
      : { mode: 'http', ...workspace.slack };
  if (slackModule !== undefined && slackConfig !== undefined) {
    slack = slackModule.createSlackApp({
      config: slackConfig,
      runtime,
      stores: slackModule.stores,
      defaults: runtime.config.defaults,
      ...optional('publicUrl', publicUrl),
      onWebApiCall: metrics.slackCall,
      ...options.slack,
    });
  }
  await slack?.start();
  // Ready once the approvals' feed has been read to its head (migrations ran in `createRuntime`).
  void (slack?.approvals.drain() ?? Promise.resolve()).then(() => {
    ready = true;
  });

  const banner = [
    `listening on ${url}`,
    `MCP over HTTP on ${url}${MCP_PATH}${options.mcpSummary === undefined ? '' : ` (${options.mcpSummary})`}`,
    ...(oauth === undefined
      ? []
      : [
          `MCP takes access tokens for ${oauth.resource} from ${settings.oidc?.issuers.join(', ') ?? 'the issuer'} (${oauth.metadataUrl})`,
        ]),
    ...(workspace !== undefined
      ? workspace.banner()
      : slack === undefined
        ? [`Slack is off (${settings.slack.enabled ? '' : settings.slack.why}): ${SLACK_OFF_HINT}`]
        : slack.banner(url)),
    ...(local.on || settings.slack.enabled ? [] : [`no local Slack workspace at /try/slack: ${local.why}`]),
    publicUrl === undefined
      ? `service events: set BANKOPS_PUBLIC_URL to the address the service reaches ${WEBHOOKS_PATH} at`
      : `service events delivered to ${publicUrl}${WEBHOOKS_PATH}`,
    `probes on ${url}${LIVE_PATH} (alive), ${READY_PATH} (ready to serve) and ${HEALTH_PATH}, metrics on ${url}${METRICS_PATH}${settings.metricsKey === undefined ? ' (loopback clients only)' : ' (bearer key)'}`,
    runtime.config.publicUrl === undefined
      ? 'passkey pages: set BANKOPS_PUBLIC_URL (https) for approvals confirmed with a passkey'
      : `passkey pages on ${runtime.config.publicUrl}/passkeys/enroll/…, /approve/… and /break-glass/…`,
  ];
  return {
    url,
    port,
    ...optional('slack', slack),
    ...optional('workspace', workspace),
    ...optional('publicUrl', publicUrl),
    banner,
    close: async () => {
      await mcp.close();
      await slack?.stop();
      workspace?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
