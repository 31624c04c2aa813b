import { parseArgs } from 'node:util';
import { loadConfig, loadServeSettings } from '../../app/config.js';
import { servedFrom } from '../../app/database.js';
import { ServeMetrics } from '../../app/metrics/metrics.js';
import { createRuntime, type Runtime } from '../../app/runtime.js';
import { type RunningServe, startServe } from '../../app/serve.js';
import { sandboxDatabasePath } from '../../app/shared-sandbox.js';
import { createLogger, type LogLevel } from '../../core/log.js';
import { optional } from '../../core/optional.js';
import type { Toolset } from '../../core/toolset.js';
import { isLoopbackHost } from '../../mcp/http/host.js';
import { DEFAULT_MCP_PORT } from '../../mcp/http.js';
import { offeredTools } from '../../mcp/server.js';
import { slackSecrets } from '../../slack/config.js';
import { invocation } from '../invocation.js';
import { UsageError } from '../io.js';
import { wrapLine } from '../render/text.js';
import { parseToolsets } from './tools.js';

export const SERVE_HELP = `Usage: bankops serve [--port <port>] [--host <host>] [--toolsets <a,b>] [--read-only]
                     [--no-confirm] [--secret-inputs] [--allowed-origin <origin>]...
                     [--allowed-host <host>]... [--allow-remote] [--no-try]

Runs every long-lived front end on one HTTP listener (default http://127.0.0.1:${DEFAULT_MCP_PORT}):
  /mcp               MCP over Streamable HTTP for AI assistants (docs/mcp-http.md); every request
                     needs "Authorization: Bearer <key>" with the key's SHA-256 under mcpKeys in the
                     policy and its name given roles under actors
  /slack/events      the Slack app's Request URL (slash commands, interactivity, events), each
                     request checked against the signing secret (docs/slack.md)
  /webhooks/service  the service's event deliveries, posted to the Slack channels that subscribed
  /livez             200 while the process answers; never asks the database (liveness probe)
  /readyz            200 when it can serve: started, the approvals' feed caught up, the database
                     reachable and its schema this version's; 503 saying which is not (readiness)
  /healthz           what runs, the database's and Slack's state (503 when the database fails)
  /metrics           Prometheus metrics (docs/operations.md): loopback clients only, or any client
                     with "Authorization: Bearer <BANKOPS_METRICS_KEY>"
  /try/slack         with no Slack credentials, on the sandbox and a loopback address: a local
                     Slack workspace in the browser to try the Slack app in (docs/try-slack.md)
The policy file is watched and reloaded on change and on SIGHUP; Ctrl-C (SIGINT) or SIGTERM ends
every session and stops.

Options:
  --port <port>             port to listen on (default ${DEFAULT_MCP_PORT}; 0 picks a free port)
  --host <host>             address to listen on (default BANKOPS_MCP_HOST, else 127.0.0.1)
  --allow-remote            allow a non-loopback --host (BANKOPS_MCP_HOST needs no flag); put a
                            TLS-terminating reverse proxy in front
  --toolsets <list>         only these toolsets (banking, issuing_a, issuing_b, notifications,
                            admin)
  --read-only               only tools that change nothing
  --no-confirm              run writes the policy allows without asking the user to confirm them
                            (by default a client that can show a form is asked first)
  --secret-inputs           also offer over MCP the tools whose input is a PIN, an activation or
                            assignment code or a full card number (off: it would pass through the
                            model; never offered in Slack)
  --allowed-origin <origin> a browser origin allowed besides http://127.0.0.1:<port> and
                            http://localhost:<port> (repeatable); requests without Origin pass
  --allowed-host <host>     a Host header allowed on /mcp besides loopback names, e.g. the public
                            name a TLS proxy forwards (repeatable; host or host:port); others
                            get 403
  --no-try                  no local Slack workspace at /try/slack

Environment:
  BANKOPS_MCP_HOST    the address to listen on, as an explicit choice (non-loopback allowed)
  BANKOPS_LOG_LEVEL   debug, info (default), warn or error; logs are JSON lines on stderr
  SLACK_BOT_TOKEN     the Slack app's bot token (xoxb-…); Slack is off without it
  SLACK_SIGNING_SECRET  HTTP mode: the app's signing secret
  SLACK_APP_TOKEN     Socket Mode: an app-level token (xapp-…); no public URL needed
  SLACK_API_URL       the Slack Web API base (default https://slack.com/api/)
  BANKOPS_SLACK_AUDIT_CHANNEL  a channel id that gets the audit log's head every day
  BANKOPS_SLACK_APPROVALS_CHANNEL  a channel id where approvals are posted with Approve and Reject
                      (a policy rule's slackChannel wins)
  BANKOPS_SLACK_DIGEST  when each approvals channel gets a morning digest of what waits,
                      expired, failed or is unresolved, e.g. "09:00 Europe/Berlin"
  BANKOPS_PUBLIC_URL  where Slack and the service reach this server (a proxy or tunnel)
`;

interface ServeOptions {
  port: number;
  host: string;
  allowRemote: boolean;
  toolsets: Toolset[] | undefined;
  readOnly: boolean;
  confirmWrites: boolean;
  secretInputs: boolean;
  allowedOrigins: string[];
  allowedHosts: string[];
  /** The local Slack workspace where it may run (`--no-try` turns it off). */
  localWorkspace: boolean;
}

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

function parseServeArgs(args: string[]): ServeOptions | 'help' {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: String(DEFAULT_MCP_PORT) },
      host: { type: 'string' },
      'allow-remote': { type: 'boolean' },
      toolsets: { type: 'string' },
      'read-only': { type: 'boolean' },
      'no-confirm': { type: 'boolean' },
      'secret-inputs': { type: 'boolean' },
      'allowed-origin': { type: 'string', multiple: true },
      'allowed-host': { type: 'string', multiple: true },
      'no-try': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be an integer between 0 and 65535, got '${values.port}'`, SERVE_HELP);
  }
  const fromEnv = process.env.BANKOPS_MCP_HOST?.trim() || undefined;
  const host = values.host ?? fromEnv ?? '127.0.0.1';
  // The environment variable is a deployment's deliberate choice; a flag alone could be a slip.
  const allowRemote = values['allow-remote'] === true || (values.host === undefined && fromEnv !== undefined);
  if (!isLoopbackHost(host) && !allowRemote) {
    throw new UsageError(
      `--host ${host} is not a loopback address: add --allow-remote (or set BANKOPS_MCP_HOST) and put a TLS-terminating reverse proxy in front (docs/mcp-http.md)`,
    );
  }
  const allowedOrigins = values['allowed-origin'] ?? [];
  for (const origin of allowedOrigins) {
    if (!/^https?:\/\/[^/\s]+\/?$/i.test(origin)) {
      throw new UsageError(`--allowed-origin must be scheme://host[:port], got '${origin}'`, SERVE_HELP);
    }
  }
  return {
    port,
    host,
    allowRemote,
    toolsets: parseToolsets(values.toolsets),
    readOnly: values['read-only'] === true,
    confirmWrites: values['no-confirm'] !== true,
    secretInputs: values['secret-inputs'] === true,
    allowedOrigins,
    allowedHosts: values['allowed-host'] ?? [],
    localWorkspace: values['no-try'] !== true,
  };
}

/** What the banner says of MCP's tools: how many, and those held back (secret inputs, read-only). */
function toolsSummary(runtime: Runtime, options: ServeOptions): string {
  const offered = (secretInputs: boolean) =>
    offeredTools(runtime.registry, {
      ...optional('toolsets', options.toolsets),
      readOnly: options.readOnly,
      secretInputs,
    }).length;
  const count = offered(options.secretInputs === true);
  const held = offered(true) - count;
  return [
    `${count} tools`,
    ...(held === 0 ? [] : [`${held} whose input is a secret only with --secret-inputs`]),
    ...(options.readOnly ? ['read-only'] : []),
  ].join(', ');
}

/** What the banner says about MCP keys: how many, and whether any client can connect. */
function keyLines(runtime: Runtime): string[] {
  const keys = runtime.policy.current().mcpKeys.length;
  const lines = [`policy ${runtime.policy.path}: ${keys} MCP key${keys === 1 ? '' : 's'}`];
  if (keys === 0) {
    lines.push(
      'warning: the policy lists no MCP key, so no client can connect; docs/mcp-http.md shows how to add one',
    );
  }
  return lines;
}

export async function serveCommand(args: string[]): Promise<number | 'running'> {
  const options = parseServeArgs(args);
  if (options === 'help') {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  const envLevel = process.env.BANKOPS_LOG_LEVEL as LogLevel | undefined;
  const log = createLogger(envLevel !== undefined && LOG_LEVELS.includes(envLevel) ? envLevel : 'info');
  const settings = loadServeSettings();
  const metrics = new ServeMetrics();
  const runtime = await createRuntime(loadConfig(), {
    watchPolicy: true,
    background: true,
    log,
    observe: metrics.observe,
    onServiceCall: metrics.serviceCall,
    ...(settings.slack.enabled ? { secrets: slackSecrets(settings.slack.config) } : {}),
  });
  let running: RunningServe | undefined;

  // Installed before anything listens, so a signal that comes right after start-up still closes
  // sessions and the database. A second Ctrl-C while stopping kills at once (the handler is `once`).
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    log.info('bankops serve: stopping', { signal });
    void Promise.allSettled([running?.close()])
      .then(() => runtime.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          log.error('bankops serve: stop failed', {
            error,
          });
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  try {
    running = await startServe({
      runtime,
      host: options.host,
      port: options.port,
      allowRemote: options.allowRemote,
      try: options.localWorkspace,
      settings,
      metrics,
      mcpSummary: toolsSummary(runtime, options),
      mcp: {
        allowedOrigins: options.allowedOrigins,
        allowedHosts: options.allowedHosts,
        secretInputs: options.secretInputs,
        ...optional('toolsets', options.toolsets),
        readOnly: options.readOnly,
        confirmWrites: options.confirmWrites,
      },
    });
  } catch (error) {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await runtime.close();
    throw error;
  }
  if (!isLoopbackHost(options.host)) {
    log.warn('serve: listening on a non-loopback address; terminate TLS in a reverse proxy in front', {
      host: options.host,
    });
  }
  const stored = await servedFrom(runtime.config, runtime.backend);
  if (stored.guard !== undefined) log.warn(stored.guard);
  const embedded = runtime.embedded?.current();
  const sandbox =
    embedded?.own === undefined
      ? []
      : [
          `embedded sandbox of the service on ${embedded.url} (no BANKOPS_BASE_URL), its state in ${sandboxDatabasePath(runtime.config.databasePath)}`,
          ...(stored.sandboxNote === undefined ? [] : [stored.sandboxNote]),
        ];
  const { files } = stored;
  const bankops = invocation(process.env, process.cwd());
  const next = [
    `next, in another terminal: ${bankops} call get_balances (then ${bankops} help for the rest; ${bankops} config check says what each front end still needs)`,
  ];
  // One write, so whoever watches stderr sees the whole message at once; no line wider than 100.
  const lines = [...running.banner, ...keyLines(runtime), ...sandbox, ...files, ...next, 'Ctrl-C to stop'];
  const shown = lines.flatMap((line) => wrapLine(`  ${line}`, 100, '    '));
  process.stderr.write(`bankops serve\n${shown.join('\n')}\n`);
  return 'running';
}
