// Bundles the stdio MCP server into dist/mcp-bundle/ (one file plus lazily loaded chunks), so an
// assistant's spawn-to-tools/list does not pay for resolving hundreds of modules, and writes every
// tool's advertised JSON Schemas next to it, so start-up does not convert them again. Runs after
// tsc in `npm run build` (it reads the tsc output in dist/). better-sqlite3 is native: external.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const { createRegistry } = await import('../dist/tools/index.js');
const { mcpSchemas, PREBUILT_SCHEMAS_FILE } = await import('../dist/mcp/schemas.js');

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
});

const schemas = Object.fromEntries(
  createRegistry()
    .list()
    .map((tool) => {
      const { inputSchema, outputSchema } = mcpSchemas(tool);
      return [tool.name, { inputSchema, outputSchema }];
    }),
);
writeFileSync(`dist/mcp-bundle/${PREBUILT_SCHEMAS_FILE}`, JSON.stringify(schemas));
