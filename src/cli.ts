#!/usr/bin/env node
import { main } from './cli/main.js';

const args = process.argv.slice(2);

// A reader that stops early (`bankops audit export | head`) closes the pipe: that ends the output,
// it is not a failure worth a stack trace. `bankops mcp` handles its own stdout (the protocol's):
// a closed pipe there shuts the server down in order.
if (args[0] !== 'mcp') {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

main(args).then((status) => {
  if (status !== 'running') process.exitCode = status;
});
