import { entryHash, GENESIS_HASH } from './hash.js';
import type { AuditRow } from './rows.js';
import { auditRowSchema, rawContentOf } from './rows.js';
import type { AuditAnchor, AuditVerifyResult } from './schema.js';

interface Break {
  seq: number;
  reason: string;
}

function missing(expected: number, found: number): string {
  const which = found - 1 === expected ? `entry ${expected} is` : `entries ${expected} to ${found - 1} are`;
  return `${which} missing: seq jumps from ${expected - 1} to ${found}`;
}

/** The row if it is sound, else its first problem, given the seq and hash the chain expects there. */
function checkRow(raw: unknown, expectedSeq: number, prevHash: string): AuditRow | Break {
  const parsed = auditRowSchema.safeParse(raw);
  if (!parsed.success)
    return { seq: expectedSeq, reason: `entry ${expectedSeq}: a column has the wrong type` };
  const row = parsed.data;
  if (row.seq > expectedSeq) return { seq: expectedSeq, reason: missing(expectedSeq, row.seq) };
  if (row.seq < expectedSeq) return { seq: row.seq, reason: `entry ${row.seq}: sequence numbers start at 1` };
  if (row.prev_hash !== prevHash) {
    return {
      seq: row.seq,
      reason:
        row.seq === 1
          ? 'entry 1: prev_hash is not the genesis value (64 zeros)'
          : `entry ${row.seq}: prev_hash does not match the hash of entry ${row.seq - 1} (the chain is broken; one of the two was changed)`,
    };
  }
  let content: ReturnType<typeof rawContentOf>;
  try {
    content = rawContentOf(row);
  } catch {
    return {
      seq: row.seq,
      reason: `entry ${row.seq}: a JSON column (input or request ids) does not hold JSON`,
    };
  }
  if (entryHash(prevHash, content) !== row.hash) {
    return {
      seq: row.seq,
      reason: `entry ${row.seq}: content does not match its hash (the entry was changed)`,
    };
  }
  return row;
}

/**
 * Walks the rows in seq order, as they come (a page at a time), and reports the first break: a gap
 * in seq (a deleted entry), a prev_hash that is not the previous entry's hash (a broken link), a
 * hash that does not match the content (a changed entry), or a difference from an anchor recorded
 * outside the database.
 */
export class ChainCheck {
  #entries = 0;
  #expectedSeq = 1;
  #head = GENESIS_HASH;
  #broken: Break | undefined;

  constructor(private readonly anchor?: AuditAnchor) {}

  add(raw: unknown): void {
    this.#entries += 1;
    if (this.#broken !== undefined) return;
    const row = checkRow(raw, this.#expectedSeq, this.#head);
    if ('reason' in row) {
      this.#broken = row;
      return;
    }
    if (this.anchor !== undefined && row.seq === this.anchor.seq && row.hash !== this.anchor.hash) {
      this.#broken = {
        seq: row.seq,
        reason: `entry ${row.seq}: hash differs from the recorded anchor (the log was rewritten at or before this entry)`,
      };
      return;
    }
    this.#head = row.hash;
    this.#expectedSeq = row.seq + 1;
  }

  result(): AuditVerifyResult {
    let broken = this.#broken;
    const expectedSeq = this.#expectedSeq;
    if (broken === undefined && this.anchor !== undefined && this.anchor.seq >= expectedSeq) {
      broken = {
        seq: expectedSeq,
        reason: `the log ends at entry ${expectedSeq - 1} but entry ${this.anchor.seq} was recorded: entries were removed from the end`,
      };
    }
    const entries = this.#entries;
    if (broken !== undefined)
      return { ok: false, entries, firstBrokenSeq: broken.seq, reason: broken.reason };
    return { ok: true, entries, head: this.#head, headSeq: expectedSeq - 1 };
  }
}
