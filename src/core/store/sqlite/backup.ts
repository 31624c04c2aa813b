import { openDatabase } from './database.js';

/** Pages copied per step: between steps bankops's other connections write as usual. */
const PAGES_PER_STEP = 1024;
/** Everything left, in one step. */
const ALL_PAGES = 0x7fffffff;

/**
 * Writes a consistent copy of the SQLite file `source` into `file` with SQLite's online backup,
 * while other connections go on using it: the copy is the database as it was at one moment, never
 * half of a change. `progress` hears the pages done of the total after each step.
 */
export async function onlineBackup(
  source: string,
  file: string,
  progress: (done: number, total: number) => void,
): Promise<{ pages: number }> {
  const db = openDatabase(source);
  try {
    let left = Number.POSITIVE_INFINITY;
    const done = await db.backup(file, {
      progress: ({ totalPages, remainingPages }) => {
        progress(totalPages - remainingPages, totalPages);
        // A write by another connection between steps starts the copy over. Once that happened,
        // the rest goes in one step, in one read transaction: a busy database is copied all the same.
        const restarted = remainingPages >= left;
        left = remainingPages;
        return restarted ? ALL_PAGES : PAGES_PER_STEP;
      },
    });
    return { pages: done.totalPages };
  } finally {
    db.close();
  }
}
