// Bundles the stdio MCP server into dist/mcp-bundle/ (one file plus lazily loaded chunks), so an
// assistant's spawn-to-tools/list does not pay for resolving hundreds of modules, and writes every
// tool's listing next to it, so start-up neither loads the tools nor converts their schemas. Runs after
// tsc in `npm run build` (it reads the tsc output in dist/). better-sqlite3 is native: external.
import { rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const { createRegistry } = await import('../dist/tools/index.js');
const { listingOf, LISTINGS_FILE } = await import('../dist/mcp/listing.js');

/**
 * zod's `z` namespace re-exports every locale (`z.locales`, 260 KB minified), which esbuild cannot
 * shake out of a namespace used as a value. bankops speaks English only (zod registers `en` itself
 * as the default), so the bundle keeps `en` alone: 260 KB less to parse at every start.
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.resolveDir.includes('/zod/v4/')
        ? { path: 'zod-locales', namespace: 'bankops', pluginData: args.resolveDir }
        : undefined,
    );
    build.onLoad({ filter: /^zod-locales$/, namespace: 'bankops' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js';",
      resolveDir: args.pluginData,
      loader: 'js',
    }));
  },
};

/**
 * The SDK's Node shim (`@modelcontextprotocol/server/_shims`) imports Ajv (150 KB minified) for its
 * default JSON Schema validator. createMcpServer passes the SDK's own Cloudflare Workers validator
 * instead (src/mcp/server.ts; it checks the one form bankops sends, a confirmation), so the default
 * is never built: the bundle takes the shim as the SDK's workerd build does, without Ajv.
 */
const shimWithoutAjv = {
  name: 'sdk-shim-without-ajv',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({
      path: 'sdk-shims',
      namespace: 'bankops',
    }));
    build.onLoad({ filter: /^sdk-shims$/, namespace: 'bankops' }, () => ({
      contents:
        "export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';\n" +
        "export { default as process } from 'node:process';",
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};

// Chunks are named by their hash: a previous build's would stay beside the new ones.
rmSync('dist/mcp-bundle', { recursive: true, force: true });

await build({
  entryPoints: { 'bankops-mcp': 'src/app/mcp-stdio.ts' },
  outdir: 'dist/mcp-bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  external: ['better-sqlite3'],
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  // Bundled CommonJS dependencies call require(); give them one in ESM.
  banner: {
    js: "import { createRequire as __bankopsCreateRequire } from 'node:module'; const require = __bankopsCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
  plugins: [englishOnlyZod, shimWithoutAjv],
});

// Every tool's listing (what tools/list says of it, its schemas compacted), so the bundle lists the
// tools without loading them: their zod schemas load with the runtime, at the first call.
const listings = createRegistry().list().map(listingOf);
writeFileSync(`dist/mcp-bundle/${LISTINGS_FILE}`, JSON.stringify(listings));
