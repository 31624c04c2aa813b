#!/usr/bin/env node
import { main } from './cli/main.js';

main(process.argv.slice(2)).then((status) => {
  if (status !== 'running') process.exitCode = status;
});
