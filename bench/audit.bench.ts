// Appends per second of the audit log on this machine, with each `synchronous` setting.
// Run: npx tsx bench/audit.bench.ts [count]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditLog } from '../src/core/audit/index.js';
import { openDatabase } from '../src/core/db.js';

const count = Number(process.argv[2] ?? 2000);
const dir = mkdtempSync(join(tmpdir(), 'bankops-audit-bench-'));

try {
  for (const synchronous of ['FULL', 'NORMAL'] as const) {
    const db = openDatabase(join(dir, `${synchronous}.db`), { synchronous });
    const log = new AuditLog(db);
    const started = process.hrtime.bigint();
    for (let i = 0; i < count; i += 1) {
      log.append({
        actor: 'slack:U0BENCH',
        frontEnd: 'slack',
        tool: 'create_payout',
        input: { companyCode: 'CMP-001', quoteId: `q-${i}`, purposeCode: 'WAGES_SALARY', pin: '4931' },
        decision: 'allow',
        event: 'executed',
        requestIds: [`req-${i}`],
        outcome: 'ok',
        durationMs: 12,
      });
    }
    const appendMs = Number(process.hrtime.bigint() - started) / 1e6;
    const verifyStarted = process.hrtime.bigint();
    const result = log.verify();
    const verifyMs = Number(process.hrtime.bigint() - verifyStarted) / 1e6;
    db.close();
    console.log(
      `synchronous=${synchronous}: ${count} appends in ${appendMs.toFixed(0)} ms = ` +
        `${Math.round((count / appendMs) * 1000)} appends/s; verify ${verifyMs.toFixed(0)} ms (ok=${result.ok})`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
