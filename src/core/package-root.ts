import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { internalError } from './errors.js';

/** What bankops reads of its own package.json. */
interface Manifest {
  root: string;
  version: string;
}

let found: Manifest | undefined;

/**
 * bankops' own package.json: the nearest folder above this module whose package.json is named
 * bankops. The module sits at different depths: src/core/ (sources), dist/core/ (tsc), dist/cli-bundle/
 * (the CLI's bundle), dist/mcp-bundle/ or its chunks/ (the MCP server's), and the same below
 * node_modules/bankops/ once installed. One walk up serves them all.
 */
function manifest(): Manifest | undefined {
  if (found !== undefined) return found;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === 'bankops') {
        found = { root: dir, version: typeof pkg.version === 'string' ? pkg.version : '0.0.0' };
        return found;
      }
    } catch {
      // no package.json here, or not JSON: look further up
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * A file the package ships, by its path from the package's root (`policy/default.yaml`,
 * `dist/web-assets/page.css`): the same path from the sources, the build, either bundle and an
 * installed package.
 */
export function packageFile(...parts: string[]): string {
  const root = manifest()?.root;
  if (root === undefined)
    throw internalError(`bankops cannot find its own package.json above ${fileURLToPath(import.meta.url)}`);
  return join(root, ...parts);
}

/** `version` of bankops' package.json, the number `npm` shows; 0.0.0 when it cannot be read. */
export function packageVersion(): string {
  return manifest()?.version ?? '0.0.0';
}
