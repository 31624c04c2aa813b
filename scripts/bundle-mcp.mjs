// Bundles the stdio MCP server into dist/mcp-bundle/ (one file plus lazily loaded chunks), so an
// assistant's spawn-to-tools/list does not pay for resolving hundreds of modules, and writes every
// tool's listing next to it, so start-up neither loads the tools nor converts their schemas. Runs after
// tsc in `npm run build` (it reads the tsc output in dist/).
import { rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { bundleOptions } from './bundle-plugins.mjs';

const { createRegistry } = await import('../dist/tools/index.js');
const { listingOf, LISTINGS_FILE } = await import('../dist/mcp/listing.js');

// Chunks are named by their hash: a previous build's would stay beside the new ones.
rmSync('dist/mcp-bundle', { recursive: true, force: true });

await build({
  ...bundleOptions,
  entryPoints: { 'bankops-mcp': 'src/app/mcp-stdio.ts' },
  outdir: 'dist/mcp-bundle',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
});

// Every tool's listing (what tools/list says of it, its schemas compacted), so the bundle lists the
// tools without loading them: their zod schemas load with the runtime, at the first call.
const listings = createRegistry().list().map(listingOf);
writeFileSync(`dist/mcp-bundle/${LISTINGS_FILE}`, JSON.stringify(listings));
