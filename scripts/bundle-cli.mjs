// Bundles the `bankops` command into dist/cli.js (in place of tsc's entry) and dist/cli-bundle/
// (its commands' chunks, each loaded when a command needs it), so a command does not pay for
// resolving and reading hundreds of modules at every start; and writes the shipped policy decoded
// from its YAML, so a command on it does not run the YAML parser (docs/operations.md, "How fast the
// CLI starts"). Runs after tsc in `npm run build` (it reads the tsc output in dist/).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundleOptions } from './bundle-plugins.mjs';

const { decodePolicyText } = await import('../dist/core/policy/parse.js');
const { PREBUILT_POLICY, textDigest } = await import('../dist/core/policy/prebuilt.js');

// Chunks are named by their hash: a previous build's would stay beside the new ones.
rmSync('dist/cli-bundle', { recursive: true, force: true });

await build({
  ...bundleOptions,
  entryPoints: {
    cli: 'src/cli.ts',
    // The audit writer's thread (serve) loads its module by a path beside the code that starts it
    // (src/core/audit/thread-writer.ts): in the bundle, beside the chunks.
    'cli-bundle/writer-thread': 'src/core/audit/writer-thread.ts',
  },
  outdir: 'dist',
  chunkNames: 'cli-bundle/[name]-[hash]',
});

// The shipped policy as its YAML decodes, with the digest of that text (src/core/policy/prebuilt.ts).
const text = readFileSync('policy/default.yaml', 'utf8');
const decoded = { sha256: textDigest(text), value: decodePolicyText(text, 'policy/default.yaml') };
writeFileSync(join(...PREBUILT_POLICY), JSON.stringify(decoded));
