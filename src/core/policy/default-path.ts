import { fileURLToPath } from 'node:url';

/**
 * The shipped `policy/default.yaml`. This module sits at `src/core/policy/` when run from source
 * and at `dist/core/policy/` when built (tsconfig.build.json maps src → dist), the same depth
 * below the package root either way, so one relative URL serves both layouts.
 */
export function defaultPolicyPath(): string {
  return fileURLToPath(new URL('../../../policy/default.yaml', import.meta.url));
}
