import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { resolve } from 'node:path';

/** A process of this machine that has the database open. */
export interface Opener {
  pid: number;
  /** Its command line, as `ps` shows it. */
  command: string;
}

/**
 * The other processes of this machine that have the SQLite file (or its write-ahead log) open: a
 * `bankops serve` still writing would leave what it writes after a copy behind. Read from `/proc`
 * (Linux); elsewhere, or for processes this user may not look into, none are found.
 */
export function processesWithOpen(file: string): Opener[] {
  const paths = new Set([resolve(file), `${resolve(file)}-wal`]);
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
    if (opens) found.push({ pid: Number(pid), command: commandOf(pid) });
  }
  return found;
}

function commandOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '';
  }
}
