/**
 * Version 10: money moved or waiting to move, one row per admitted call, for running totals and
 * daily limits (statements in ../core/holds.ts; SQLite's table in ../../sqlite/holds.ts,
 * `holds/001-money-holds`). Covering indexes of the rows still counted, one per subject, so a
 * window's sum reads only that subject's rows whatever the history holds (an index-only scan: an
 * approval that ends without moving money releases its row, so no join with approvals is needed).
 */
export const HOLDS_V10: readonly string[] = [
  `CREATE TABLE money_holds (
     id text PRIMARY KEY,
     at_ms bigint NOT NULL,
     requester text NOT NULL,
     beneficiary text,
     source_account text,
     currency text NOT NULL,
     amount_minor bigint NOT NULL,
     approval_id text,
     released_at_ms bigint
   )`,
  ...['requester', 'beneficiary', 'source_account'].map(
    (column) =>
      `CREATE INDEX money_holds_${column} ON money_holds (${column}, currency, at_ms)
         INCLUDE (amount_minor) WHERE released_at_ms IS NULL`,
  ),
  `CREATE INDEX money_holds_company ON money_holds (currency, at_ms)
     INCLUDE (amount_minor) WHERE released_at_ms IS NULL`,
  'CREATE INDEX money_holds_approval ON money_holds (approval_id) WHERE approval_id IS NOT NULL',
];

/** The first key of the two-part advisory locks of running totals (`bklm`): apart from every other lock. */
const HOLDS_LOCK_CLASS = 0x626b6c6d;

/** How many starts one scan of a subject's rows sums since; ../core/holds.ts sends a query of more as several scans. */
export const STARTS_PER_SCAN = 4;

/** A scan's starts, `s1` to `s4`: plain variables, so each row compares with a value, not an array's element. */
const STARTS = Array.from({ length: STARTS_PER_SCAN }, (_, i) => `s${i + 1}`);

/** The sum of one scan since one of its starts. */
const sumSince = (start: string): string => `coalesce(sum(amount_minor) FILTER (WHERE at_ms >= ${start}), 0)`;

/** One scan's sums: the rows still counted of `where`, from its earliest start. */
const scan = (where: string): string => `
          SELECT ARRAY[${STARTS.map(sumSince).join(', ')}]
            INTO part FROM money_holds WHERE ${where} AND released_at_ms IS NULL;`;

/**
 * The subject's window as a range of its index, in row comparisons only: from (subject, currency,
 * first start) up to the last row of (subject, currency). Only that index can bound a scan by
 * them, so the plan takes it even on a table never analyzed (autovacuum off), rather than the
 * company index filtering every subject's rows of the window; and the scan starts at the window
 * (an equality on the subject would start it at the subject's first row, reading its whole history).
 */
const ofSubject = (column: string): string =>
  `(${column}, currency, at_ms) >= (subjects[q], currencies[q], first)
             AND (${column}, currency) <= (subjects[q], currencies[q])`;

/**
 * Version 15: a count of running totals in one call (../core/holds.ts). Takes the subjects' locks
 * (transaction-level, in the order of the locks themselves, so two counts never take two crosswise
 * even where keys share a hash), then sums each scan: scan `q` is `kinds[q]` (requester,
 * beneficiary, sourceAccount or company) `subjects[q]` in `currencies[q]`, summed since each of
 * its `STARTS_PER_SCAN` starts, `starts[(q - 1) × STARTS_PER_SCAN + 1 …]` (a start later than any
 * hold pads them and sums nothing). A volatile function's statements each take a new snapshot, so
 * the sums see what the locks' previous holder committed; and they are parsed once per connection,
 * their plans kept where the planner finds that as good, where a statement sent as text is parsed
 * and planned at every admission. A scan reads one subject's window: never worth
 * starting parallel workers for, which a row comparison's rough estimate on a large analyzed table
 * can make the planner do.
 */
export const HOLDS_COUNT_V15: readonly string[] = [
  `CREATE FUNCTION money_holds_count(
     lock_keys text[], kinds text[], subjects text[], currencies text[], starts bigint[]
   ) RETURNS bigint[] LANGUAGE plpgsql VOLATILE SET max_parallel_workers_per_gather = 0 AS $$
   DECLARE
     sums bigint[] := '{}';
     part bigint[];
     first bigint;
     ${STARTS.map((start) => `${start} bigint;`).join(' ')}
   BEGIN
     PERFORM pg_advisory_xact_lock(${HOLDS_LOCK_CLASS}, h) FROM unnest(lock_keys) AS k, hashtext(k) AS h ORDER BY h;
     FOR q IN 1 .. coalesce(array_length(kinds, 1), 0) LOOP
       ${STARTS.map((start, i) => `${start} := starts[(q - 1) * ${STARTS_PER_SCAN} + ${i + 1}];`).join(' ')}
       first := LEAST(${STARTS.join(', ')});
       CASE kinds[q]
         WHEN 'requester' THEN ${scan(ofSubject('requester'))}
         WHEN 'beneficiary' THEN ${scan(ofSubject('beneficiary'))}
         WHEN 'sourceAccount' THEN ${scan(ofSubject('source_account'))}
         WHEN 'company' THEN ${scan('currency = currencies[q] AND at_ms >= first')}
       END CASE;
       sums := sums || part;
     END LOOP;
     RETURN sums;
   END $$`,
];
