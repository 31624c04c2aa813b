// The sandbox in a process of its own, as the service would be: for bench/core.bench.ts, which
// compares a read through the executor with the same read by the client alone. Prints the
// sandbox's URL and credentials as one JSON line, then serves until its parent closes stdin.
import { SANDBOX_DEFAULTS, startSandbox } from '../src/sandbox/index.js';

const sandbox = await startSandbox(0, { credentials: { ...SANDBOX_DEFAULTS } });
process.stdout.write(`${JSON.stringify({ url: sandbox.url, credentials: sandbox.credentials })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void sandbox.close().then(() => process.exit(0));
});
