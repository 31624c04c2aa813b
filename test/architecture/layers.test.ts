import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// DESIGN "Layout": cli → app → slack, mcp, web → present → tools → core; the sandbox depends on
// nothing of ours (it must not share a mistake with the client). Each layer lists what it may import.
// `web` is the passkey pages (server side; their browser script lives in browser/, outside src).
// `try` is the local Slack workspace of `serve` (a stand-in for Slack that the Slack app talks to,
// and its page): a front end of its own beside the Slack app, which it may read (its short forms,
// its tools) but which never imports it.
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const ALLOWED: Record<string, readonly string[]> = {
  core: ['core'],
  tools: ['tools', 'core'],
  present: ['present', 'tools', 'core'],
  mcp: ['mcp', 'present', 'tools', 'core'],
  slack: ['slack', 'present', 'tools', 'core'],
  web: ['web', 'present', 'tools', 'core'],
  try: ['try', 'slack', 'present', 'tools', 'core'],
  app: ['app', 'try', 'slack', 'mcp', 'web', 'present', 'tools', 'core', 'sandbox'],
  cli: ['cli', 'app', 'try', 'slack', 'mcp', 'web', 'present', 'tools', 'core', 'sandbox'],
  sandbox: ['sandbox'],
};

/**
 * The core's public modules: what a front end (Slack, MCP, the passkey pages) may import from src/core. The rest of the
 * core (the approval engine's steps, the client's insides, policy matching, SQL) is reached through
 * these. The backends' modules only by each backend's door to a front end's own tables
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
  'loopback.ts',
  'oidc/index.ts',
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
  'zone-clock.ts',
]);
/** Each backend's one door for the front end's own tables, and the core modules it may open. */
const STORE_DOORS: Record<string, RegExp> = {
  'slack/store/sqlite/database.ts': /^store\/sqlite\/(database|file-lock|json|slack-schema)\.ts$/,
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

/**
 * What loading a module loads at once: its static imports that are not type-only (an `import type`
 * is erased), relative ones resolved to their file and packages by name. A dynamic `import()` waits
 * until it runs.
 */
function loadsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/^(?:import|export)(?!\s+type\s)[^;]*?\sfrom\s+['"]([^'"]+)['"]/gms)];
  return found.map((match) => {
    const spec = match[1] ?? '';
    return spec.startsWith('.') ? resolve(dirname(file), spec).replace(/\.js$/, '.ts') : spec;
  });
}

/** A module of a backend: its SQL, its driver, its connection (`src/core/store/sqlite/`, `…/postgres/`). */
const backendModule = (target: string): boolean =>
  /^core\/store\/(sqlite|postgres)\//.test(relative(SRC, target)) ||
  ['pg', 'better-sqlite3'].includes(target);

/** Packages and relative imports alike, for the backend rule. */
function everyImportOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)];
  return found.map((match) => {
    const spec = match[1] ?? '';
    return spec.startsWith('.') ? resolve(dirname(file), spec) : spec;
  });
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

  it('lets the front ends (Slack, MCP, web, the local workspace) import only the core’s public modules', () => {
    const violations = files
      .filter((file) => ['slack', 'mcp', 'web', 'try'].includes(layerOf(file)))
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

  it('keeps every backend module behind the store: the CLI and the front ends import none', () => {
    // The composition root chooses the backend (src/app/database.ts); a feature's own stores
    // (src/slack/store/<backend>/) reach theirs through one door each. The core's configuration
    // reads a PostgreSQL URL's form (`store/postgres/url.ts`, no driver).
    const allowed = (file: string, target: string): boolean =>
      layerOf(file) === 'app' ||
      relative(SRC, file).startsWith('core/store/') ||
      /^[a-z]+\/store\/(sqlite|postgres)\//.test(relative(SRC, file)) ||
      (relative(SRC, file) === 'core/config.ts' && relative(SRC, target) === 'core/store/postgres/url.js');
    const violations = files.flatMap((file) =>
      everyImportOf(file)
        .filter((target) => backendModule(target) && !allowed(file, target))
        .map(
          (target) => `${relative(SRC, file)} → ${target.startsWith('/') ? relative(SRC, target) : target}`,
        ),
    );
    expect(violations).toEqual([]);
  });

  it('loads PostgreSQL’s modules and driver only when a PostgreSQL URL is configured (a dynamic import)', () => {
    const loaded = new Set<string>();
    const visit = (file: string): void => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const target of loadsOf(file)) if (target.startsWith('/')) visit(target);
    };
    for (const entry of ['cli.ts', 'app/mcp-stdio.ts', 'app/runtime.ts', 'app/serve.ts', 'slack/app.ts'])
      visit(join(SRC, entry));
    const postgres = [...loaded].filter(
      (file) =>
        (relative(SRC, file).startsWith('core/store/postgres/') &&
          relative(SRC, file) !== 'core/store/postgres/url.ts') ||
        loadsOf(file).includes('pg'),
    );
    expect(loaded.size).toBeGreaterThan(100);
    expect(postgres.map((file) => relative(SRC, file))).toEqual([]);
  });

  it('keeps the core free of the sandbox, the tools, the composition root, presentation and front ends', () => {
    const core = files.filter((file) => layerOf(file) === 'core');
    expect(core.length).toBeGreaterThan(50);
    const reached = new Set(core.flatMap((file) => importsOf(file).map(layerOf)));
    for (const layer of ['sandbox', 'tools', 'app', 'present', 'mcp', 'slack', 'web', 'try', 'cli']) {
      expect(reached.has(layer), `src/core imports src/${layer}`).toBe(false);
    }
  });
});
