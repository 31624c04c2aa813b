import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditEntryInput } from '../../src/core/audit/index.js';

/** A fresh temporary directory; remove it with `cleanup()` in `afterAll`. */
export function tempDir(prefix = 'bankops-audit-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A clock that starts at `start` and moves 1 ms on every reading, so runs are reproducible. */
export function steppingClock(start = Date.UTC(2025, 0, 15, 9, 30, 0)): () => Date {
  let t = start;
  return () => {
    const now = new Date(t);
    t += 1;
    return now;
  };
}

/** A plausible, valid `executed` entry; `i` varies the content. */
export function sampleEntry(i: number, overrides: Partial<AuditEntryInput> = {}): AuditEntryInput {
  return {
    actor: i % 2 === 0 ? 'slack:U0ALICE' : 'mcp:ops-assistant',
    frontEnd: i % 2 === 0 ? 'slack' : 'mcp',
    tool: i % 3 === 0 ? 'create_payout' : 'list_accounts',
    input: { companyCode: 'CMP-001', amount: 100 + i, currency: 'USD', note: `entry ${i}` },
    decision: 'allow',
    event: 'executed',
    requestIds: [`req-${i}`],
    outcome: 'ok',
    durationMs: i % 50,
    ...overrides,
  };
}
