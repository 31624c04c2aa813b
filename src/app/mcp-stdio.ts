#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { serveStdio as serveMcpStdio } from '@modelcontextprotocol/server/stdio';
import { mcpStdioActor } from '../core/actors.js';
import type { Config } from '../core/config.js';
import { internalError, messageOf } from '../core/errors.js';
import type { Executor } from '../core/executor.js';
import { createLogger, type Logger } from '../core/log.js';
import { optional } from '../core/optional.js';
import type { Registry } from '../core/registry.js';
import { prebuiltListings, type ToolCatalog } from '../mcp/listing.js';
import { createMcpServer, offeredTools } from '../mcp/server.js';
import { parseStdioArgs, STDIO_HELP, type StdioOptions } from '../mcp/stdio-args.js';
import { loadConfig } from './config.js';
import { databaseNamed } from './database.js';
import type { Runtime } from './runtime.js';

/**
 * The runtime, built at the first call that needs it and once only, however many calls arrive
 * together. A failed build is forgotten, so the next call tries again (and reports why).
 */
function lazyRuntime(config: Config, log: Logger): { get(): Promise<Runtime>; close(): Promise<void> } {
  let building: Promise<Runtime> | undefined;
  return {
    get() {
      building ??= import('./runtime.js')
        // One assistant's calls: too few for an audit writer thread to pay for its start (and this
        // server runs from a bundle, which carries no thread module beside it).
        .then(({ createRuntime }) =>
          createRuntime(config, { log, watchPolicy: true, background: true, auditThread: false }),
        )
        .then(
          (runtime) => {
            log.info('bankops runtime ready', {
              mode: config.mode,
              database: databaseNamed(config),
            });
            return runtime;
          },
          (error: unknown) => {
            building = undefined;
            log.error('bankops runtime failed to start', {
              error,
            });
            throw error;
          },
        );
      return building;
    },
    async close() {
      const pending = building;
      building = undefined;
      if (pending === undefined) return;
      const runtime = await pending.catch(() => undefined);
      await runtime?.close();
    },
  };
}

/**
 * The tools as the stdio server sees them. From the bundle: the build's listings, the tools
 * themselves (their zod schemas, a quarter of a start) loaded with the runtime at the first call.
 * Elsewhere (tsc output, tests): the registry.
 */
async function stdioTools(runtime: { get(): Promise<Runtime> }): Promise<Registry | ToolCatalog> {
  const listings = prebuiltListings();
  if (listings === undefined) return (await import('../tools/index.js')).createRegistry();
  return {
    listings,
    async tool(name) {
      const tool = (await runtime.get()).registry.get(name);
      if (tool === undefined) throw internalError(`no tool ${name} in this build`);
      return tool;
    },
  };
}

/**
 * Serves MCP on stdio until stdin closes, to 2026-07-28 clients and 2025-era ones alike (the SDK's
 * `serveStdio` settles the era with the first message and builds the server for it). Start-up reads
 * the configuration and the tools' listings only: the tools themselves, SQLite, the client and the
 * embedded sandbox wait for the first tools/call (modules included, loaded then), so an
 * assistant's tools/list is answered at once.
 */
export async function serveStdio(options: StdioOptions = {}): Promise<void> {
  const log = createLogger(process.env.BANKOPS_LOG_LEVEL === 'debug' ? 'debug' : 'info');
  const config = loadConfig();
  const runtime = lazyRuntime(config, log);
  const registry = await stdioTools(runtime);
  const getExecutor = async (): Promise<Executor> => (await runtime.get()).executor;
  const actor = mcpStdioActor();
  let handle: { close(): Promise<void> } | undefined;

  let closing: Promise<void> | undefined;
  const shutdown = (why: string): Promise<void> => {
    closing ??= (async () => {
      log.info('bankops mcp stopping', { why });
      await handle?.close().catch(() => {});
      await runtime.close();
      log.info('bankops mcp stopped');
      // Everything is closed, so the process ends by itself; should a stray handle keep it alive,
      // this ends it (our SIGTERM handler replaced Node's default, so a signal alone would not).
      setTimeout(() => process.exit(), 500).unref();
    })();
    return closing;
  };
  // The assistant closing our stdin is the normal end of a stdio server; closing its end of our
  // stdout (EPIPE on the next write) means it is gone too.
  process.stdin.once('end', () => void shutdown('stdin closed'));
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') void shutdown('stdout closed');
    else log.error('bankops mcp: stdout failed', { error: error.message });
  });
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  handle = serveMcpStdio(() => createMcpServer({ registry, getExecutor, actor, ...options }), {
    onerror: (error) => log.debug('bankops mcp: protocol', { error: error.message }),
  });
  log.info('bankops mcp serving on stdio', {
    tools: offeredTools(registry, options).length,
    ...optional('toolsets', options.toolsets),
    readOnly: options.readOnly === true,
    mode: config.mode,
  });
}

/** `node dist/app/mcp-stdio.js [...]`: the entry assistants start, without the CLI's other commands. */
async function main(argv: readonly string[]): Promise<void> {
  try {
    const options = parseStdioArgs(argv);
    if (options.help) {
      process.stderr.write(STDIO_HELP);
      return;
    }
    const { help: _help, ...serve } = options;
    await serveStdio(serve);
  } catch (error) {
    // stdout is the protocol's: even a start-up failure is told on stderr.
    const message = messageOf(error);
    process.stderr.write(`bankops mcp: ${message}\n`);
    process.exitCode = 2;
  }
}

/** Whether Node runs this module as its main script: npm's bin is a symlink to it, so compared resolved. */
function isMain(script: string | undefined): boolean {
  if (script === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (isMain(process.argv[1])) void main(process.argv.slice(2));
