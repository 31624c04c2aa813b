/**
 * Balance alerts as the database keeps them: what to watch (a currency's available balance under a
 * threshold, in minor units) and where to say so, with the state of the last check, so a restart
 * or another replica does not post a crossing again.
 */
export interface BalanceAlert {
  /** `alr_` and 10 characters, made by bankops. */
  id: string;
  /** ISO 4217, upper case. */
  currency: string;
  /** Posted when the available balance is under this many minor units (2,000,000 for 20,000.00 EUR). */
  thresholdMinor: number;
  /** Slack channel id the alert posts to. */
  channel: string;
  /** Actor id of whoever added it. */
  createdBy: string;
  createdAt: string;
  /** Where the balance was at the last check: `unknown` until the first one. */
  level: AlertLevel;
  /** Whether the last read of the balance failed (said once in the channel). */
  readFailing: boolean;
  /** Posts made so far: the next post's dedupe key is built from it, and a change expects it. */
  posts: number;
  checkedAt: string | null;
}

export type AlertLevel = 'unknown' | 'above' | 'below';

/** What a check changes: the state, and the post count it was computed from (compare-and-set). */
export interface AlertChange {
  level: AlertLevel;
  readFailing: boolean;
  posts: number;
  checkedAt: string;
}

/** The alerts of one database; every method runs inside the caller's transaction. */
export interface AlertStore {
  add(alert: BalanceAlert): Promise<void>;
  list(): Promise<BalanceAlert[]>;
  get(id: string): Promise<BalanceAlert | undefined>;
  /** Whether it was there. */
  remove(id: string): Promise<boolean>;
  /** Applies a check's change only if nobody changed the alert since `expectedPosts` was read. */
  update(id: string, expectedPosts: number, change: AlertChange): Promise<boolean>;
}

/** The table's columns, in order: both backends and `bankops db copy` use this list. */
export const ALERT_COLUMNS = [
  'id',
  'currency',
  'threshold_minor',
  'channel',
  'created_by',
  'created_at',
  'level',
  'read_failing',
  'posts',
  'checked_at',
] as const;

export interface AlertRow {
  id: string;
  currency: string;
  threshold_minor: number | string;
  channel: string;
  created_by: string;
  created_at: string;
  level: string;
  read_failing: number | boolean;
  posts: number | string;
  checked_at: string | null;
}

const LEVELS: readonly AlertLevel[] = ['unknown', 'above', 'below'];

/** A row of either backend as a record (PostgreSQL returns bigint as text, SQLite booleans as 0/1). */
export function alertOf(row: AlertRow): BalanceAlert {
  const level = LEVELS.find((l) => l === row.level) ?? 'unknown';
  return {
    id: row.id,
    currency: row.currency,
    thresholdMinor: Number(row.threshold_minor),
    channel: row.channel,
    createdBy: row.created_by,
    createdAt: row.created_at,
    level,
    readFailing: row.read_failing === true || row.read_failing === 1,
    posts: Number(row.posts),
    checkedAt: row.checked_at,
  };
}
