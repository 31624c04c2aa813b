import { Socket } from 'node:net';
import { COMMAND_NAMES } from './commands/table.js';
import { SHORT_COMMANDS } from './short-commands.js';

/** Whether `name` is a command of `bankops` (`help` included). */
export const isCommand = (name: string): boolean =>
  name === 'help' || (COMMAND_NAMES as readonly string[]).includes(name);

/** The `bankops` command: runs `args` and sets the process's exit status. */
export function runCli(args: string[]): void {
  // A reader that stops early (`bankops audit export | head`) closes the pipe: that ends the output,
  // it is not a failure worth a stack trace. `bankops mcp` handles its own stdout (the protocol's):
  // a closed pipe there shuts the server down in order.
  if (args[0] !== 'mcp') {
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }

  // `bankops mcp` is started by assistants, which wait for its tools/list: it loads nothing else.
  const run =
    args[0] === 'mcp'
      ? import('./commands/mcp.js').then(({ runMcpCommand }) => runMcpCommand(args.slice(1)))
      : interpreted(args[0]).then(() => import('./main.js').then(({ main }) => main(args)));

  run.then(
    (status) => {
      if (status === 'running') return;
      process.exitCode = status;
      setImmediate(exitWhenIdle);
    },
    (error: unknown) => {
      process.stderr.write(`bankops: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

/**
 * A short command checks each value once or twice: zod's parsers are interpreted, not compiled
 * per schema with `new Function` at its first use (which costs more than the checks it speeds up).
 * Set before any schema is made; the others keep compiled parsers.
 */
async function interpreted(command: string | undefined): Promise<void> {
  if (!SHORT_COMMANDS.has(command ?? '')) return;
  const { z } = await import('zod');
  z.config({ jitless: true });
}

/**
 * A command that is done ends its process at once when nothing is left to keep it alive (no
 * socket, timer, child or file operation in flight, its output written): the process would end
 * anyway, and Node would first run the garbage collection V8 left for idle time, a full one after
 * a command's start-up. A command that left work behind (a webhook still being delivered) is left
 * to finish it. The standard streams' own pipes and terminals are listed as resources, but never
 * keep a process alive once written.
 */
function exitWhenIdle(): void {
  const others = process.getActiveResourcesInfo();
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.writableLength > 0) return;
    const own = others.indexOf(stream.isTTY ? 'TTYWrap' : 'PipeWrap');
    if (stream instanceof Socket && own !== -1) others.splice(own, 1);
  }
  if (others.length === 0) process.exit();
}
