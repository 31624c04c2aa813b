import { readFileSync } from 'node:fs';

/**
 * `version` of bankops' package.json, the number `npm` shows. The module sits two folders below the
 * package root in src/ and dist/, and two or three in the MCP bundle (its folder or chunks/), so the
 * nearest package.json named bankops is taken.
 */
export function packageVersion(): string {
  for (const relative of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === 'bankops' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not there: try the next place
    }
  }
  return '0.0.0';
}
