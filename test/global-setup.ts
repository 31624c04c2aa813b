import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Before any test: dist/ is built again when it is older than its sources (scripts/build-if-stale.mjs),
 * so a test of the binary or the MCP bundle never runs yesterday's code.
 */
export default function setup(): void {
  const root = join(import.meta.dirname, '..');
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'build-if-stale.mjs')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (run.status !== 0) throw new Error('building dist/ failed: see the output above');
}
