import type { AuditEntry } from './schema.js';
import type { WireError } from './wire-error.js';
import type { Pending, WriteOptions } from './writer.js';

/** The database the audit writer's thread opens a connection of its own to. */
export type { ThreadData as WriterData, ThreadTarget as WriterTarget } from '../store/thread.js';

/** To the writer's thread: a batch to commit, or the end. */
export type ToWriter =
  | { type: 'commit'; id: number; batch: readonly Pending[]; options: WriteOptions }
  | { type: 'close' };

/**
 * From the writer's thread: a batch committed (each entry's fate), then on disk; or the commit
 * failed as a whole (the database's error). A batch that has nothing more to wait for once
 * committed (`onDisk`) gets no `disk` message: one message per batch, not two.
 */
export type FromWriter =
  /** The thread opened its connection and listens. */
  | { type: 'ready' }
  | {
      type: 'committed';
      id: number;
      of: 'batch' | 'unsure';
      /** `null`: a noted entry, written (nobody waits for it: nothing more is sent back). */
      results: ({ entry: AuditEntry } | { refused: WireError } | null)[];
      /** On disk already, or never waited for (a relaxed batch): no `disk` message follows. */
      onDisk?: true;
    }
  | { type: 'disk'; id: number; error?: WireError }
  | { type: 'failed'; id: number; error: WireError };
