import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, dirname, join, relative } from 'node:path';

/** The file at `path`, symlinks followed, or undefined when there is none. */
function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * How a person runs this same bankops from a shell: `bankops` when that name on PATH is this CLI
 * (`npm link`), else `node` and this CLI's file, relative to `cwd` when it is below it. Never `npx bankops`:
 * outside the project's directory npx would fetch whatever package of that name the registry has.
 */
export function invocation(env: NodeJS.ProcessEnv, cwd: string, script = process.argv[1]): string {
  const self = script === undefined ? undefined : real(script);
  if (self === undefined) return 'bankops';
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'bankops');
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    if (real(candidate) === self) return 'bankops';
  }
  // Relative only from inside the project (the CLI file below the working directory).
  const near = relative(cwd, self);
  return `node ${dirname(cwd) !== cwd && !near.startsWith('..') ? near : self}`;
}
