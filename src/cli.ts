#!/usr/bin/env node
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { loadProgram, type Program } from './cli/code-cache.js';
import { SHORT_COMMANDS } from './cli/short-commands.js';

/** The SHA-256 of the program's bundle, written in here by scripts/bundle-cli.mjs; none from tsc. */
declare const CLI_PROGRAM_DIGEST: string | undefined;

const args = process.argv.slice(2);

// A short command (a request or two, then exit) gains nothing from V8's optimizing compilers and
// waits for them: before it exits, Node finishes the compile jobs its worker threads hold, and the
// service client's HTTP parser (undici's WebAssembly) is recompiled in the background after its
// first use, which kept every `bankops call` about 250 ms past its answer. These commands run on the
// baseline tiers; the servers (serve, mcp, sandbox) and the long checks (audit, db) keep every tier.
// Set before the program is compiled: compiled code, and its cache, belong to the flags in force.
if (SHORT_COMMANDS.has(args[0] ?? '')) setFlagsFromString('--max-opt=1 --liftoff-only');

// The built command runs its bundle with V8's code cache (src/cli/code-cache.ts); tsc's output and
// the sources run the program's modules.
const digest = typeof CLI_PROGRAM_DIGEST === 'string' ? CLI_PROGRAM_DIGEST : undefined;
const bundle = join(dirname(fileURLToPath(import.meta.url)), 'cli-bundle', 'program.cjs');
const program: Program =
  (digest === undefined ? undefined : loadProgram(bundle, digest, args[0] ?? '')) ??
  (await import('./cli/program.js'));
program.runCli(args);
