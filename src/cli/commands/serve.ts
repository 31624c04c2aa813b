import { parseArgs } from 'node:util';
import { loadConfig } from '../../app/config.js';
import { createRuntime, type Runtime } from '../../app/runtime.js';
import { createLogger, type LogLevel } from '../../core/log.js';
import type { Toolset } from '../../core/toolset.js';
import { isLoopbackHost } from '../../mcp/http/host.js';
import { DEFAULT_MCP_PORT, startMcpHttp } from '../../mcp/http.js';
import { offeredTools } from '../../mcp/server.js';
import { UsageError } from '../io.js';
import { parseToolsets } from './tools.js';

export const SERVE_HELP = `Usage: bankops serve [--port <port>] [--host <host>] [--toolsets <a,b>] [--read-only]
                     [--no-confirm] [--secret-inputs] [--allowed-origin <origin>]...
                     [--allowed-host <host>]... [--allow-remote]

Runs the long-lived front ends: MCP over Streamable HTTP at http://<host>:<port>/mcp, for AI
assistants that connect over the network (docs/mcp-http.md). The policy file is watched and
reloaded on change and on SIGHUP; Ctrl-C (SIGINT) or SIGTERM ends every session and stops.

Every request needs "Authorization: Bearer <key>", where the SHA-256 of the key is listed under
mcpKeys in the policy and its name is given roles under actors. With no key listed, no client can
connect.

Options:
  --port <port>             port to listen on (default ${DEFAULT_MCP_PORT}; 0 picks a free port)
  --host <host>             address to listen on (default BANKOPS_MCP_HOST, else 127.0.0.1)
  --allow-remote            allow a non-loopback --host (BANKOPS_MCP_HOST needs no flag); put a
                            TLS-terminating reverse proxy in front
  --toolsets <list>         only these toolsets (banking, issuing_a, issuing_b, notifications, admin)
  --read-only               only tools that change nothing
  --no-confirm              run writes the policy allows without asking the user to confirm them
                            (by default a client that can show a form is asked first)
  --secret-inputs           also offer the tools whose input is a PIN, an activation or assignment
                            code or a full card number (off: it would pass through the model)
  --allowed-origin <origin> a browser origin allowed besides http://127.0.0.1:<port> and
                            http://localhost:<port> (repeatable); requests without Origin pass
  --allowed-host <host>     a Host header allowed besides loopback names, e.g. the public name a
                            TLS proxy forwards (repeatable; host or host:port); others get 403

Environment:
  BANKOPS_MCP_HOST    the address to listen on, as an explicit choice (a non-loopback one is allowed)
  BANKOPS_LOG_LEVEL   debug, info (default), warn or error; logs are JSON lines on stderr
`;

/** A long-lived front end the command runs (MCP over HTTP today; Slack joins later). */
interface Listener {
  name: string;
  /** Lines for the start-up message: where it listens, and anything the operator must fix. */
  banner: string[];
  close(): Promise<void>;
}

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
  };
}

async function startMcpListener(runtime: Runtime, options: ServeOptions): Promise<Listener> {
  const mcp = await startMcpHttp({
    runtime,
    host: options.host,
    port: options.port,
    allowRemote: options.allowRemote,
    allowedOrigins: options.allowedOrigins,
    allowedHosts: options.allowedHosts,
    ...(options.toolsets === undefined ? {} : { toolsets: options.toolsets }),
    readOnly: options.readOnly,
    secretInputs: options.secretInputs,
    confirmWrites: options.confirmWrites,
  });
  const keys = runtime.policy.current().mcpKeys.length;
  // What a client will list: the approval tools come with any toolset.
  const tools = offeredTools(runtime.registry, {
    ...(options.toolsets === undefined ? {} : { toolsets: options.toolsets }),
    readOnly: options.readOnly,
    secretInputs: options.secretInputs,
  }).length;
  const banner = [
    `MCP over HTTP on ${mcp.url} (${tools} tools${options.readOnly ? ', read-only' : ''})`,
    `  policy ${runtime.policy.path}: ${keys} MCP key${keys === 1 ? '' : 's'}`,
  ];
  if (keys === 0) {
    banner.push(
      '  warning: the policy lists no MCP key, so no client can connect; docs/mcp-http.md shows how to add one',
    );
  }
  return { name: 'mcp-http', banner, close: () => mcp.close() };
}

export async function serveCommand(args: string[]): Promise<number | 'running'> {
  const options = parseServeArgs(args);
  if (options === 'help') {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  const envLevel = process.env.BANKOPS_LOG_LEVEL as LogLevel | undefined;
  const log = createLogger(envLevel !== undefined && LOG_LEVELS.includes(envLevel) ? envLevel : 'info');
  const runtime = await createRuntime(loadConfig(), { watchPolicy: true, background: true, log });
  const listeners: Listener[] = [];

  // Installed before anything listens, so a signal that comes right after start-up still closes
  // sessions and the database. A second Ctrl-C while stopping kills at once (the handler is `once`).
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    log.info('bankops serve: stopping', { signal });
    void Promise.allSettled(listeners.map((l) => l.close()))
      .then(() => runtime.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          log.error('bankops serve: stop failed', {
            error: error instanceof Error ? error.message : String(error),
          });
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  try {
    listeners.push(await startMcpListener(runtime, options));
  } catch (error) {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await runtime.close();
    throw error;
  }
  // One write, so whoever watches stderr sees the whole message at once.
  process.stderr.write(
    `bankops serve\n${listeners.flatMap((l) => l.banner.map((line) => `  ${line}\n`)).join('')}  Ctrl-C to stop\n`,
  );
  return 'running';
}
