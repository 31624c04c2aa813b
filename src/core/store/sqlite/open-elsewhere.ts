import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';

/** A process of this machine that has the database open. */
export interface Opener {
  pid: number;
  /** Its program's name (`/proc/<pid>/comm`): never its arguments, which may hold a password. */
  name: string;
}

/**
 * The other processes that have the SQLite file (or its write-ahead log) open, as far as this user
 * can see them: a `bankops serve` still writing would leave what it writes after a copy behind.
 * Read from `/proc` (Linux): processes of other users (unless run as root), in other containers or
 * hidden by `hidepid`, and every process on other systems, are not found.
 */
export function processesWithOpen(file: string): Opener[] {
  // The links in /proc name the file's real path: through a symlink the setting may not.
  const real = realpathSync(file);
  const paths = new Set([real, `${real}-wal`]);
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid);
  } catch {
    return [];
  }
  const found: Opener[] = [];
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or not ours to look into
    }
    const opens = fds.some((fd) => {
      try {
        return paths.has(readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        return false;
      }
    });
    if (opens) found.push({ pid: Number(pid), name: nameOf(pid) });
  }
  return found;
}

function nameOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}
