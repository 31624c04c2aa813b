import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { serveStdio } from '../../app/mcp-stdio.js';
import { messageOf } from '../../core/errors.js';
import { packageFile } from '../../core/package-root.js';
import { parseStdioArgs, STDIO_HELP } from '../../mcp/stdio-args.js';
import { UsageError } from '../io.js';

export const MCP_HELP = STDIO_HELP;

/**
 * The stdio server from the bundle `npm run build` writes (one file, tool schemas precomputed), so
 * the built CLI's `bankops mcp` starts as fast as `node dist/mcp-bundle/bankops-mcp.mjs`; from the
 * sources (tests), or without a build, from its module.
 */
async function loadServer(): Promise<typeof serveStdio> {
  const bundle = packageFile('dist', 'mcp-bundle', 'bankops-mcp.mjs');
  if (!import.meta.url.endsWith('.ts') && existsSync(bundle)) {
    // require() loads the ES module too (Node ≥ 20.19), from the CLI's program as from tsc's output.
    return (createRequire(import.meta.url)(bundle) as { serveStdio: typeof serveStdio }).serveStdio;
  }
  return (await import('../../app/mcp-stdio.js')).serveStdio;
}

/** `bankops mcp`: the same server as `node dist/mcp-bundle/bankops-mcp.mjs`. */
export async function mcpCommand(args: string[]): Promise<number | 'running'> {
  let options: ReturnType<typeof parseStdioArgs>;
  try {
    options = parseStdioArgs(args);
  } catch (error) {
    throw new UsageError(messageOf(error), MCP_HELP);
  }
  if (options.help) {
    // Asked for instead of serving, so stdout is not the protocol's yet.
    process.stdout.write(MCP_HELP);
    return 0;
  }
  const { help: _help, ...serve } = options;
  await (await loadServer())(serve);
  return 'running';
}

/**
 * `bankops mcp` straight from the entry point: an assistant starts it and waits for tools/list, so
 * none of the other commands' modules are loaded. Usage errors are told as the CLI tells them.
 */
export async function runMcpCommand(args: string[]): Promise<number | 'running'> {
  try {
    return await mcpCommand(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`bankops: ${error.message}\n${error.help === undefined ? '' : `\n${error.help}`}`);
    return 2;
  }
}
