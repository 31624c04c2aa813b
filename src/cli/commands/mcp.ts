import { parseStdioArgs, STDIO_HELP } from '../../mcp/stdio-args.js';
import { UsageError } from '../io.js';

export const MCP_HELP = STDIO_HELP;

/** `bankops mcp`: the same server as `node dist/mcp-bundle/bankops-mcp.mjs`, which assistants start faster. */
export async function mcpCommand(args: string[]): Promise<number | 'running'> {
  let options: ReturnType<typeof parseStdioArgs>;
  try {
    options = parseStdioArgs(args);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), MCP_HELP);
  }
  if (options.help) {
    // Asked for instead of serving, so stdout is not the protocol's yet.
    process.stdout.write(MCP_HELP);
    return 0;
  }
  const { help: _help, ...serve } = options;
  // Loaded here, not at the top: every other command would pay for loading the MCP SDK.
  const { serveStdio } = await import('../../app/mcp-stdio.js');
  await serveStdio(serve);
  return 'running';
}
