import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// DESIGN "Layout": cli → app → slack, mcp, web → present → tools → core; the sandbox depends on
// nothing of ours (it must not share a mistake with the client). Each layer lists what it may import.
// `web` is the passkey pages (server side; their browser script lives in browser/, outside src).
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const ALLOWED: Record<string, readonly string[]> = {
  core: ['core'],
  tools: ['tools', 'core'],
  present: ['present', 'tools', 'core'],
  mcp: ['mcp', 'present', 'tools', 'core'],
  slack: ['slack', 'present', 'tools', 'core'],
  web: ['web', 'present', 'tools', 'core'],
  app: ['app', 'slack', 'mcp', 'web', 'present', 'tools', 'core', 'sandbox'],
  cli: ['cli', 'app', 'slack', 'mcp', 'web', 'present', 'tools', 'core', 'sandbox'],
  sandbox: ['sandbox'],
};

/**
 * The core's public modules: what a front end (Slack, MCP, the passkey pages) may import from src/core. The rest of the
 * core (the approval engine's steps, the client's insides, policy matching, SQL) is reached through
 * these. `db.ts` and the PostgreSQL store modules only by each backend's door to a front end's own tables
 * (docs/architecture.md).
 */
const CORE_PUBLIC = new Set([
  'actors.ts',
  'alerts/index.ts',
  'approvals/follow.ts',
  'approvals/types.ts',
  'audit/index.ts',
  'canonical-json.ts',
  'cards.ts',
  'config.ts',
  'confirmation.ts',
  'errors.ts',
  'executor.ts',
  'http-server.ts',
  'input-words.ts',
  'log.ts',
  'optional.ts',
  'package-root.ts',
  'passkeys/index.ts',
  'payees.ts',
  'policy/mcp-keys.ts',
  'policy/schema.ts',
  'policy/store.ts',
  'policy/types.ts',
  'redact.ts',
  'registry.ts',
  'results.ts',
  'schedule/scheduler.ts',
  'store/backend.ts',
  'tool.ts',
  'toolset.ts',
  'unknown-fields.ts',
  'webhooks.ts',
]);
/** Each backend's one door for the front end's own tables, and the core modules it may open. */
const STORE_DOORS: Record<string, RegExp> = {
  'slack/store/sqlite/database.ts': /^(db|store\/sqlite\/file-lock)\.ts$/,
  'slack/store/postgres/database.ts': /^store\/postgres\/[a-z-]+\.ts$/,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The layer of a file under src/: its first folder (`src/cli.ts` is the CLI's entry). */
const layerOf = (file: string): string => {
  const [first] = relative(SRC, file).split('/');
  return first === 'cli.ts' ? 'cli' : (first ?? '');
};

/** Relative imports, static and dynamic, with type-only ones: a type is a dependency too. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)];
  return found.map((match) => resolve(dirname(file), match[1] ?? ''));
}

describe('layering', () => {
  const files = sourceFiles(SRC);

  it('puts every source file in a known layer', () => {
    const unknown = files.filter((file) => ALLOWED[layerOf(file)] === undefined);
    expect(unknown.map((file) => relative(SRC, file))).toEqual([]);
  });

  it('imports only along DESIGN’s arrows', () => {
    const violations = files.flatMap((file) => {
      const from = layerOf(file);
      return importsOf(file)
        .filter((target) => !(ALLOWED[from] ?? []).includes(layerOf(target)))
        .map((target) => `${relative(SRC, file)} → ${relative(SRC, target)}`);
    });
    expect(violations).toEqual([]);
  });

  it('lets the front ends (Slack, MCP, web) import only the core’s public modules', () => {
    const violations = files
      .filter((file) => ['slack', 'mcp', 'web'].includes(layerOf(file)))
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => layerOf(target) === 'core')
          .map((target) => relative(join(SRC, 'core'), target).replace(/\.js$/, '.ts'))
          .filter((module) => !CORE_PUBLIC.has(module))
          .filter((module) => !STORE_DOORS[relative(SRC, file)]?.test(module))
          .map((module) => `${relative(SRC, file)} → core/${module}`),
      );
    expect(violations).toEqual([]);
  });

  it('keeps the core free of the sandbox, the tools, the composition root, presentation and front ends', () => {
    const core = files.filter((file) => layerOf(file) === 'core');
    expect(core.length).toBeGreaterThan(50);
    const reached = new Set(core.flatMap((file) => importsOf(file).map(layerOf)));
    for (const layer of ['sandbox', 'tools', 'app', 'present', 'mcp', 'slack', 'web', 'cli']) {
      expect(reached.has(layer), `src/core imports src/${layer}`).toBe(false);
    }
  });
});
