import { hostname } from 'node:os';

/**
 * Which process holds an executing approval: `${hostname}:${pid}`. A process on the same host can
 * tell whether the holder still runs; for another host only the lease says when to take over.
 */
export const defaultOwner = (): string => `${hostname()}:${process.pid}`;

/**
 * Approvals this process is executing right now, whatever engine instance runs them. An owner
 * string naming our own pid is alive only for these: the same string left over from an earlier
 * process that had our pid (containers restart as pid 1) belongs to a dead process.
 */
export const executingHere = new Set<string>();

function parseOwner(owner: string): { host: string; pid: number } | undefined {
  const at = owner.lastIndexOf(':');
  if (at <= 0) return undefined;
  const pid = Number(owner.slice(at + 1));
  return Number.isSafeInteger(pid) && pid > 0 ? { host: owner.slice(0, at), pid } : undefined;
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user. Only ESRCH says it is gone.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Whether the holder of an approval is gone, so another process may take it over. A lease that ran
 * out always counts as gone (a live holder that slow re-sends with the same request id anyway).
 */
export function ownerIsGone(
  row: { id: string; owner: string | null; lease_until: string | null },
  now: Date,
): boolean {
  if (row.owner === null) return true;
  if (row.lease_until !== null && row.lease_until <= now.toISOString()) return true;
  const parsed = parseOwner(row.owner);
  if (parsed === undefined || parsed.host !== hostname()) return false;
  if (parsed.pid === process.pid) return !executingHere.has(row.id);
  return !processRuns(parsed.pid);
}
