import type pg from 'pg';

/**
 * Pending approvals whose time ran out, locked for the caller's transaction (which expires them):
 * rows another replica has locked are skipped (`FOR UPDATE SKIP LOCKED`), so each expiry happens
 * once whatever the number of replicas whose timers fire together. `nowIso` is compared with the
 * stored ISO 8601 `expires_at`.
 */
export async function lockDueExpiries(client: pg.ClientBase, nowIso: string, limit = 50): Promise<string[]> {
  const rows = await client.query<{ id: string }>(
    `SELECT id FROM approvals WHERE state = 'pending' AND expires_at <= $1
     ORDER BY expires_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [nowIso, limit],
  );
  return rows.rows.map((row) => row.id);
}
