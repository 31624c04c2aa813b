import { COMMAND_NAMES } from './commands/table.js';

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
      : import('./main.js').then(({ main }) => main(args));

  run.then(
    (status) => {
      if (status !== 'running') process.exitCode = status;
    },
    (error: unknown) => {
      process.stderr.write(`bankops: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
