import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** What the program's bundle exports (src/cli/program.ts). */
export interface Program {
  runCli(args: string[]): void;
  /** Whether `name` is one of its commands (a mistyped one gets no cache of its own). */
  isCommand(name: string): boolean;
}

/** The bundle's text: CommonJS's wrapper around the program's module (scripts/bundle-cli.mjs). */
type ModuleFunction = (
  exports: object,
  require: NodeJS.Require,
  module: { exports: object },
  filename: string,
  dirname: string,
) => void;

/** The cache's name for a command: its own name, or `other` for an option (`--help`, `--version`). */
const cacheName = (command: string): string => (/^[a-z]{1,20}$/.test(command) ? command : 'other');

/**
 * Where V8's code cache of the program is kept for a command: `$XDG_CACHE_HOME/bankops` (else
 * `~/.cache/bankops`), one file per build of the program, Node version and command, since V8 refuses
 * a cache made by another version and a command's cache holds the functions that command ran.
 */
function cacheFile(digest: string, command: string): { dir: string; file: string; build: string } {
  const dir = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'bankops');
  const build = `cli-${digest}-${process.version}-${process.arch}-`;
  return { dir, file: join(dir, `${build}${cacheName(command)}.v8cache`), build };
}

/** A week: the caches of another build (an earlier version of bankops) are removed after it. */
const STALE_MS = 7 * 24 * 3600_000;

/**
 * Writes the cache beside where it goes, then moves it in: a command running at once reads all or
 * nothing. Caches of other builds older than a week go at the same time.
 */
function save(where: ReturnType<typeof cacheFile>, script: Script): void {
  try {
    mkdirSync(where.dir, { recursive: true });
    const partial = `${where.file}.${process.pid}`;
    writeFileSync(partial, script.createCachedData());
    renameSync(partial, where.file);
    for (const name of readdirSync(where.dir)) {
      const file = join(where.dir, name);
      if (
        name.startsWith('cli-') &&
        !name.startsWith(where.build) &&
        Date.now() - statSync(file).mtimeMs > STALE_MS
      )
        rmSync(file, { force: true });
    }
  } catch {
    // a read-only or full disk: the next command compiles again, as without a cache
  }
}

/**
 * Runs the program's bundle (one CommonJS file, scripts/bundle-cli.mjs) through V8 with its code
 * cache: a command does not parse and compile the program's code again at every start, only once
 * per build. `digest` names the bundle's content (written into dist/cli.js at build). The cache is
 * made at the first run of a command, when it exits, with the functions that run compiled; a cache
 * V8 refuses (another Node, other flags) is made again. `undefined` when there is no bundle.
 */
export function loadProgram(bundle: string, digest: string, command: string): Program | undefined {
  let source: string;
  try {
    // ASCII only (the build checks it): read as Latin-1, a copy, not a UTF-8 decoding.
    source = readFileSync(bundle, 'latin1');
  } catch {
    return undefined;
  }
  const where = cacheFile(digest, command);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(where.file);
  } catch {
    // no cache yet: this run makes it
  }
  const script = new Script(source, {
    filename: bundle,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const module = { exports: {} };
  const run = script.runInThisContext() as ModuleFunction;
  run.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  const program = module.exports as Program;
  const known = cacheName(command) === 'other' || program.isCommand(command);
  if (known && (cachedData === undefined || script.cachedDataRejected === true))
    process.once('exit', () => save(where, script));
  return program;
}
