#!/usr/bin/env node
const args = process.argv.slice(2);

// A short command (a request or two, then exit) gains nothing from V8's optimizing compilers and
// waits for them: before it exits, Node finishes the compile jobs its worker threads hold, and the
// service client's HTTP parser (undici's WebAssembly) is recompiled in the background after its
// first use, which kept every `bankops call` about 250 ms past its answer. These commands run on the
// baseline tiers; the servers (serve, mcp, sandbox) and the long checks (audit, db) keep every tier.
const SHORT = new Set(['call', 'approvals', 'alerts', 'people', 'tools', 'config', 'help', 'completion']);
if (SHORT.has(args[0] ?? '')) (await import('node:v8')).setFlagsFromString('--max-opt=1 --liftoff-only');

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
    ? import('./cli/commands/mcp.js').then(({ runMcpCommand }) => runMcpCommand(args.slice(1)))
    : import('./cli/main.js').then(({ main }) => main(args));

run.then(
  (status) => {
    if (status !== 'running') process.exitCode = status;
  },
  (error: unknown) => {
    process.stderr.write(`bankops: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
