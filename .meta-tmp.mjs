import { build } from 'esbuild';

const r = await build({
  entryPoints: { 'bankops-mcp': 'src/app/mcp-stdio.ts' },
  outdir: '/tmp/mcp2/metaout',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  external: ['better-sqlite3'],
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  metafile: true,
  logLevel: 'warning',
  write: false,
});
for (const [out, info] of Object.entries(r.metafile.outputs)) {
  if (!out.includes('chunk-') && !out.includes('bankops-mcp.mjs')) continue;
  const rows = Object.entries(info.inputs)
    .filter(([k]) => k.includes(process.argv[2]))
    .map(([k, v]) => [v.bytesInOutput, k])
    .sort((a, b) => b[0] - a[0]);
  let tot = 0;
  for (const [b] of rows) tot += b;
  console.log(out, tot);
  for (const r of rows.slice(0, 25)) console.log(String(r[0]).padStart(7), r[1]);
}
