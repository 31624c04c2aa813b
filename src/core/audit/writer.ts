import type { Storage } from '../store/index.js';
import type { AuditEntry, AuditEntryInput } from './schema.js';
import { type Prepared, type PrepareOptions, prepareEntry } from './seal.js';

/** An entry as recorded, not yet validated nor serialized: its time is when it was recorded. */
export interface Pending {
  input: AuditEntryInput;
  options: PrepareOptions;
  /** When it was recorded, in ms since the epoch (written out as its `ts` by the writer). */
  at: number;
  /** Nobody waits for the entry itself (`AuditLog.note`): that it was written is answer enough. */
  noted?: true;
}

/**
 * What became of one entry of a batch: sealed in the chain (the entry, or only that for a noted
 * one), or refused alone (it breaks the schema).
 */
export type Written = { entry: AuditEntry } | { noted: true } | { refused: unknown };

/** One commit of a batch: each entry's fate, in order, and when the committed ones are on disk. */
export interface WriterCommit {
  /** `unsure`: the earlier batch had committed after all; `results` are its entries, nothing new. */
  of: 'batch' | 'unsure';
  results: readonly Written[];
  onDisk: Promise<void>;
}

export interface WriteOptions {
  durable: boolean;
  /** The earlier batch whose failed commit may have gone through (see `AuditAppendOptions`). */
  unsure?: readonly Pending[] | undefined;
  /** Secret values of the whole install (API keys, tokens), scrubbed from every entry. */
  secrets: readonly string[];
}

/**
 * Validates, redacts and serializes a batch, then commits the valid entries at the chain's head.
 * In the caller's thread (`inlineWriter`), or in a thread of its own (./thread-writer.ts), which
 * takes that work off the thread that answers requests.
 */
export interface AuditWriter {
  commit(batch: readonly Pending[], options: WriteOptions): Promise<WriterCommit>;
  /**
   * The log begins to close: what it still writes must not wait for anything slow to start (a
   * writer thread still loading hands its batches to the writer in this thread instead).
   */
  closing?(): void;
  close(): Promise<void>;
}

/** Each entry prepared, or the error that refuses it. */
function prepareAll(
  batch: readonly Pending[],
  secrets: readonly string[],
): (Prepared | { refused: unknown })[] {
  return batch.map((pending) => {
    try {
      return prepareEntry(pending.input, pending.options, secrets, new Date(pending.at).toISOString());
    } catch (error) {
      return { refused: error };
    }
  });
}

const isPrepared = (item: Prepared | { refused: unknown }): item is Prepared => !('refused' in item);

/** The entries of `prepared` matched with the sealed ones, refusals kept in their places. */
function resultsOf(
  prepared: readonly (Prepared | { refused: unknown })[],
  sealed: readonly AuditEntry[],
): Written[] {
  let next = 0;
  return prepared.map((item): Written => {
    if (!isPrepared(item)) return item;
    const entry = sealed[next] as AuditEntry;
    next += 1;
    return { entry };
  });
}

/** The writer over `storage` in this thread (`Storage.appendAudit`). */
export function inlineWriter(storage: Storage): AuditWriter {
  return {
    async commit(batch, options) {
      const prepared = prepareAll(batch, options.secrets);
      const valid = prepared.filter(isPrepared);
      const unsure = options.unsure === undefined ? undefined : prepareAll(options.unsure, options.secrets);
      if (valid.length === 0 && unsure === undefined)
        return { of: 'batch', results: resultsOf(prepared, []), onDisk: Promise.resolve() };
      const committed = await storage.appendAudit(valid, {
        durable: options.durable,
        unsure: unsure?.filter(isPrepared),
      });
      const results =
        committed.of === 'unsure' && unsure !== undefined
          ? resultsOf(unsure, committed.entries)
          : resultsOf(prepared, committed.entries);
      return { of: committed.of, results, onDisk: committed.onDisk };
    },
    close: async () => undefined,
  };
}
