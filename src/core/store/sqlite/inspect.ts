import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { DatabaseCheck } from '../backend.js';

/**
 * Whether this user may read and write the SQLite file and its directory (`bankops config check`).
 * The file is not opened: a read-only open would still leave the write-ahead log's files beside it.
 */
export function checkSqlite(file: string): DatabaseCheck {
  const json = { backend: 'sqlite' as const, where: file, reachable: true };
  if (file === ':memory:')
    return { json, lines: [{ label: 'SQLite', text: 'in memory, this process only' }], warnings: [] };
  const path = resolve(file);
  const exists = existsSync(path);
  // SQLite writes beside the file (its write-ahead log), so the directory must be writable too.
  const missing = [
    ...(exists ? unusable(path, constants.R_OK | constants.W_OK, 'read and write') : []),
    ...unusable(nearestDirectory(dirname(path)), constants.W_OK | constants.X_OK, 'write in'),
  ];
  const size = exists ? `, ${(statSync(path).size / 1024 / 1024).toFixed(1)} MB` : '';
  const check: DatabaseCheck = {
    json: { ...json, exists },
    lines: [{ label: 'SQLite', text: exists ? `${file}${size}` : `${file}: made at first use` }],
    warnings: [],
  };
  if (missing.length > 0) {
    check.json.reachable = false;
    check.blocking = `this user cannot ${missing.join(', nor ')}: bankops needs to read and write the database and create files beside it`;
  }
  return check;
}

/** What this user may not do to `path` (`how` in words), or nothing. */
function unusable(path: string, mode: number, how: string): string[] {
  try {
    accessSync(path, mode);
    return [];
  } catch {
    return [`${how} ${path}`];
  }
}

/** The directory itself, or the nearest one above it that exists (the others are made at first use). */
function nearestDirectory(dir: string): string {
  let current = dir;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}
