import { z } from 'zod';

/**
 * Injected latency and failures, per path, switched on and off through `/_sandbox/faults`, so the
 * rest of bankops can be tested against a slow or failing service.
 */
export const FaultSchema = z
  .object({
    /** Exact path, or a prefix ending in `*` (`/svc/banking/*`). */
    path: z.string().min(1),
    /** Only this method; all methods when absent. */
    method: z.enum(['GET', 'POST', 'PATCH', 'DELETE', 'PUT']).optional(),
    /** Delay before the request is handled. */
    latencyMs: z.number().int().min(0).max(120_000).optional(),
    /**
     * Answer with this status and an error envelope instead of handling the request: a 5xx for a
     * service in trouble, a 4xx for a refusal the sandbox's own rules would not give.
     */
    status: z.number().int().min(400).max(599).optional(),
    /** Never answer: the connection stays open until the caller gives up (or 120 s pass). */
    timeout: z.boolean().optional(),
    /** Answer 200 with a body that is not valid JSON. */
    malformed: z.boolean().optional(),
    /** Apply to this many matching requests, then switch off; forever when absent. */
    times: z.number().int().min(1).optional(),
  })
  .strict();

export type Fault = z.infer<typeof FaultSchema>;

interface ActiveFault {
  id: number;
  fault: Fault;
  remaining: number;
}

export class FaultTable {
  private readonly active: ActiveFault[] = [];
  private nextId = 1;

  add(fault: Fault): number {
    const id = this.nextId++;
    this.active.push({ id, fault, remaining: fault.times ?? Number.POSITIVE_INFINITY });
    return id;
  }

  list(): { id: number; fault: Fault; remaining: number | null }[] {
    return this.active.map((a) => ({
      id: a.id,
      fault: a.fault,
      remaining: Number.isFinite(a.remaining) ? a.remaining : null,
    }));
  }

  clear(): void {
    this.active.length = 0;
  }

  /** The faults in force, for a persistent sandbox's saved state. */
  snapshot(): { id: number; fault: Fault; remaining: number | null }[] {
    return this.list();
  }

  restore(saved: readonly { id: number; fault: Fault; remaining: number | null }[]): void {
    this.active.length = 0;
    for (const { id, fault, remaining } of saved) {
      this.active.push({ id, fault, remaining: remaining ?? Number.POSITIVE_INFINITY });
      this.nextId = Math.max(this.nextId, id + 1);
    }
  }

  /** The first fault matching this request, consumed once. */
  take(method: string, path: string): Fault | undefined {
    const index = this.active.findIndex(
      (a) =>
        (a.fault.method === undefined || a.fault.method === method) &&
        (a.fault.path.endsWith('*') ? path.startsWith(a.fault.path.slice(0, -1)) : a.fault.path === path),
    );
    const hit = this.active[index];
    if (hit === undefined) return undefined;
    hit.remaining -= 1;
    if (hit.remaining <= 0) this.active.splice(index, 1);
    return hit.fault;
  }
}
