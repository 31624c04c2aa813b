// What the CLI's and the MCP server's bundles share (scripts/bundle-cli.mjs, scripts/bundle-mcp.mjs):
// esbuild's settings and the plugins that keep out code bankops never runs, so each start parses less.

/**
 * zod's `z` namespace re-exports every locale (`z.locales`, 260 KB minified), which esbuild cannot
 * shake out of a namespace used as a value. bankops speaks English only (zod registers `en` itself
 * as the default), so the bundle keeps `en` alone: 260 KB less to parse at every start.
 */
export const englishOnlyZod = {
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
export const shimWithoutAjv = {
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

/**
 * undici's index (535 KB minified) requires every part of it at load: fetch, WebSocket, cookies,
 * the mock agents, the caches. The service client (src/core/client/http.ts) takes only `Pool` and
 * `errors` from it, so our modules get those two, with the request API the index puts on every
 * dispatcher: the same code, a third of it to parse. Other packages' imports of undici are left alone.
 * Its client also loads its HTTP/2 half at once, and Node's http2 and tls with it (20 ms of a
 * start); bankops never asks for HTTP/2 (`allowH2` stays off), so that half is a stub that says so.
 */
export const undiciPoolOnly = {
  name: 'undici-pool-only',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, (args) =>
      args.importer.includes('/node_modules/') ? undefined : { path: 'undici-pool', namespace: 'bankops' },
    );
    build.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      args.importer.endsWith('/undici/lib/dispatcher/client.js')
        ? { path: 'undici-no-h2', namespace: 'bankops' }
        : undefined,
    );
    build.onLoad({ filter: /^undici-no-h2$/, namespace: 'bankops' }, () => ({
      contents:
        "module.exports = function connectH2() { throw new Error('bankops does not use HTTP/2 (allowH2 is off)'); };",
      loader: 'js',
    }));
    build.onLoad({ filter: /^undici-pool$/, namespace: 'bankops' }, () => ({
      contents: [
        "import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';",
        "import api from 'undici/lib/api/index.js';",
        "import Pool from 'undici/lib/dispatcher/pool.js';",
        "import errors from 'undici/lib/core/errors.js';",
        'Object.assign(Dispatcher.prototype, api);',
        'export { Pool, errors };',
      ].join('\n'),
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};

/** esbuild's settings for a bundle of ours: ESM for Node 20, split into chunks loaded when used. */
export const bundleOptions = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  // Native, and found by its own loader beside the package: never bundled.
  external: ['better-sqlite3'],
  // Bundled CommonJS dependencies call require(); give them one in ESM.
  banner: {
    js: "import { createRequire as __bankopsCreateRequire } from 'node:module'; const require = __bankopsCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
  plugins: [englishOnlyZod, shimWithoutAjv, undiciPoolOnly],
};
