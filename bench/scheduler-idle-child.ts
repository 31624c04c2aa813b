// One serve-like process for bench/scheduler.bench.ts: the runtime with its background work, the
// shared listener with Slack on (HTTP mode, against the Web API stand-in, the outbox polling every
// second as in production), 10,000 approvals of history, one approval waiting, the morning digest
// set. `jobs`: the scheduler's jobs as serve registers them; `baseline`: the scheduler stopped.
// It sits idle for the given seconds and prints its CPU time (process.cpuUsage) as one JSON line.
// Run by the bench: node --import tsx bench/scheduler-idle-child.ts jobs|baseline [seconds] [history]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRuntime } from '../src/app/runtime.js';
import { startServe } from '../src/app/serve.js';
import { PAYOUT, pending } from '../test/helpers/approvals.js';
import { testConfig } from '../test/helpers/core.js';
import { startTestSandbox } from '../test/helpers/sandbox.js';
import { SlackApiStandIn } from '../test/helpers/slack-api.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../test/helpers/slack-app.js';
import {
  APPROVALS_CHANNEL,
  APPROVERS,
  APPROVERS_GROUP,
  approvalsPolicyYaml,
} from '../test/helpers/slack-approvals.js';

const mode = process.argv[2] === 'baseline' ? 'baseline' : 'jobs';
const SECONDS = Number(process.argv[3] ?? 60);
const HISTORY = Number(process.argv[4] ?? 10_000);

const dir = mkdtempSync(join(tmpdir(), 'bankops-scheduler-bench-'));
const sandbox = await startTestSandbox();
const api = await SlackApiStandIn.start({ token: BOT_TOKEN, groups: { [APPROVERS_GROUP]: APPROVERS } });
const policyPath = join(dir, 'policy.yaml');
writeFileSync(policyPath, approvalsPolicyYaml());
const runtime = await createRuntime(testConfig(sandbox, { dbPath: join(dir, 'bankops.db'), policyPath }), {
  background: true,
});
const serve = await startServe({
  runtime,
  host: '127.0.0.1',
  port: 0,
  settings: {
    slack: {
      enabled: true,
      config: {
        mode: 'http',
        botToken: BOT_TOKEN,
        signingSecret: SIGNING_SECRET,
        apiUrl: api.url,
        approvalsChannel: APPROVALS_CHANNEL,
        digest: { hour: (new Date().getUTCHours() + 12) % 24, minute: 0, zone: 'UTC' },
      },
    },
  },
});
try {
  // One approval waiting (its reminder is 15 minutes away), and a history in every other state.
  const model = pending(
    await runtime.executor.execute({
      tool: 'create_payout',
      input: PAYOUT,
      actor: { id: 'cli:olivia', frontEnd: 'cli', cliUser: 'olivia' },
    }),
  );
  const row = await runtime.storage.read((s) => s.approvals.byId(model.id));
  if (row === undefined) throw new Error('the model approval is not stored');
  // Final states only: `approved` and `executing` rows would be taken over and run by recovery.
  const others = ['succeeded', 'failed', 'rejected', 'expired', 'cancelled', 'unresolved'] as const;
  const started = Date.now();
  await runtime.storage.transaction(async (tx) => {
    for (let i = 1; i < HISTORY; i += 1) {
      const at = new Date(started - i * 60_000).toISOString();
      await tx.approvals.insert({
        ...row,
        id: randomUUID(),
        fingerprint: randomUUID(),
        requestId: randomUUID(),
        state: others[i % others.length] ?? 'expired',
        createdAt: at,
        updatedAt: at,
      });
    }
  });
  await serve.slack?.approvals.drain();
  if (mode === 'baseline') await runtime.scheduler.stop();
  const jobs = mode === 'baseline' ? [] : runtime.scheduler.names();
  // Start-up's garbage and JIT settle first.
  await sleep(3_000);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await sleep(SECONDS * 1000);
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - t0;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  // What one round of the jobs costs, run back to back (the idle path: nothing due).
  let roundMs: number | undefined;
  if (mode === 'jobs') {
    const rounds = 200;
    const r0 = process.cpuUsage();
    for (let i = 0; i < rounds; i += 1) await runtime.scheduler.runAll();
    const r = process.cpuUsage(r0);
    roundMs = (r.user + r.system) / 1000 / rounds;
  }
  const posted = api.callsOf('chat.postMessage').length;
  process.stdout.write(
    `${JSON.stringify({ mode, jobs, wallMs, cpuMs, percent: (cpuMs / wallMs) * 100, roundMs, posted })}\n`,
  );
} finally {
  await serve.close();
  await runtime.close();
  await sandbox.close();
  await api.close();
  rmSync(dir, { recursive: true, force: true });
}
