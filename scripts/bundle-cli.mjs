// Bundles the `bankops` command into dist/cli.js (in place of tsc's entry) and dist/cli-bundle/
// (the program, one file run with V8's code cache, and the audit writer's thread), so a command
// neither resolves and reads hundreds of modules nor compiles them again at every start; and writes
// the shipped policy decoded from its YAML, so a command on it does not run the YAML parser
// (docs/operations.md, "How fast the CLI starts"). Runs after tsc in `npm run build` (it reads the
// tsc output in dist/).
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundleOptions } from './bundle-plugins.mjs';

const { decodePolicyText } = await import('../dist/core/policy/parse.js');
const { PREBUILT_POLICY, textDigest } = await import('../dist/core/policy/prebuilt.js');

rmSync('dist/cli-bundle', { recursive: true, force: true });

/**
 * Packages the short commands never load: Slack, the MCP SDK (`bankops mcp` runs the MCP bundle),
 * PostgreSQL, passkeys, metrics, sign-in. They stay in node_modules, loaded by whatever needs them,
 * so the program (and its memory) holds only what a command runs.
 */
const SERVER_PACKAGES = [
  '@modelcontextprotocol/node',
  '@modelcontextprotocol/server',
  '@simplewebauthn/server',
  '@slack/bolt',
  'ajv',
  'jose',
  'openid-client',
  'pg',
  'prom-client',
];

// The program: one CommonJS file, which dist/cli.js runs through V8 with a code cache
// (src/cli/code-cache.ts); an ES module cannot be given one on Node 20. Its modules that find their
// neighbours through import.meta.url get the bundle's own URL (dist/cli-bundle/, where the writer
// thread is too). The dynamic imports of its commands stay lazy: their modules are evaluated, and
// their functions compiled, only when a command needs them.
await build({
  ...bundleOptions,
  splitting: false,
  format: 'cjs',
  entryPoints: { 'cli-bundle/program': 'src/cli/program.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  external: [...bundleOptions.external, ...SERVER_PACKAGES, ...SERVER_PACKAGES.map((name) => `${name}/*`)],
  // CommonJS's wrapper is written around it here, so the loader compiles the file's text as it is
  // read, not a copy of it put together at every start.
  banner: {
    js: "(function (exports, require, module, __filename, __dirname) { 'use strict'; var __bankopsModuleUrl = require('node:url').pathToFileURL(__filename).href;",
  },
  footer: { js: '})' },
  // The licences' comments (some not ASCII, which would make V8 hold the text at two bytes a
  // character) go to program.cjs.LEGAL.txt beside it.
  legalComments: 'external',
  define: { 'import.meta.url': '__bankopsModuleUrl' },
  // What it imports at run time (the MCP bundle, packages from node_modules) by require(), which
  // loads ES modules too: a dynamic import() from code run through vm needs an experimental loader.
  supported: { 'dynamic-import': false },
  // import.meta.resolve is used from the sources only (the audit thread under tsx).
  logOverride: { 'empty-import-meta': 'silent' },
});

// The audit writer's thread (serve) loads its module by a path beside the code that starts it
// (src/core/audit/thread-writer.ts): in the bundle's folder.
await build({
  ...bundleOptions,
  splitting: false,
  entryPoints: { 'cli-bundle/writer-thread': 'src/core/audit/writer-thread.ts' },
  outdir: 'dist',
});

// dist/cli.js, the command: it sets V8's flags, then runs the program, named by its content's digest
// (the code cache's key: a cache is only ever used with the code it was made from).
const program = readFileSync('dist/cli-bundle/program.cjs');
// The loader reads it as Latin-1, and V8 holds ASCII text at one byte a character: no other byte.
const wide = program.findIndex((byte) => byte > 0x7f);
if (wide !== -1)
  throw new Error(
    `dist/cli-bundle/program.cjs is not ASCII at byte ${wide}: ${program.subarray(Math.max(0, wide - 60), wide + 20)}`,
  );
await build({
  ...bundleOptions,
  splitting: false,
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  external: ['./cli/program.js'],
  banner: {},
  define: {
    CLI_PROGRAM_DIGEST: JSON.stringify(createHash('sha256').update(program).digest('hex').slice(0, 16)),
  },
});

// The shipped policy as its YAML decodes, with the digest of that text (src/core/policy/prebuilt.ts).
const text = readFileSync('policy/default.yaml', 'utf8');
const decoded = { sha256: textDigest(text), value: decodePolicyText(text, 'policy/default.yaml') };
writeFileSync(join(...PREBUILT_POLICY), JSON.stringify(decoded));
