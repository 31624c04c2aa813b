#!/usr/bin/env node
import { main } from './cli/main.js';

// A reader that stops early (`bankops audit export | head`) closes the pipe: that ends the output,
// it is not a failure worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main(process.argv.slice(2)).then((status) => {
  if (status !== 'running') process.exitCode = status;
});
