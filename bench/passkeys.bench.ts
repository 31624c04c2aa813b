// What a passkey adds to a vote (step-up): the same first vote of a two-approver payout, plain
// through the executor and signed through the approval page's path (link spent, assertion checked
// against the hash of what would run, counter moved forward with the vote), in interleaved rounds
// against the sandbox on loopback. Signing happens in the browser, before: prepared untimed here.
// The figure is the difference of medians in the same run; the target is at most 5 ms.
// Run: npm run bench (or npx tsx bench/passkeys.bench.ts [votes per round])
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/app/config.js';
import { createRuntime, type Runtime } from '../src/app/runtime.js';
import { cliActor } from '../src/core/actors.js';
import { optional } from '../src/core/optional.js';
import { SANDBOX_DEFAULTS, startSandbox } from '../src/sandbox/index.js';
import { serviceEnv } from '../test/helpers/sandbox.js';
import { SoftPasskey } from '../test/helpers/soft-passkey.js';
import { stepUpPolicyYaml } from '../test/helpers/step-up.js';
import { median } from './stats.js';

const ROUNDS = 7;
const VOTES = Number(process.argv[2] ?? 40);
const ORIGIN = 'http://localhost:4997';
/** At or above the large-payouts threshold: two approvers, so the first vote executes nothing. */
const PAYOUT = {
  beneficiaryId: 'ben_de_swift_0001',
  sourceAccountId: 'acc_usd_0001',
  sourceAssetCode: 'USD',
  destinationRail: 'SWIFT',
  amount: 50_000,
  side: 'SOURCE',
  purposeCode: 'GOODS_PURCHASED',
};

const dir = mkdtempSync(join(tmpdir(), 'bankops-bench-passkeys-'));
const sandbox = await startSandbox(0, { credentials: { ...SANDBOX_DEFAULTS } });
const c = sandbox.credentials;

async function runtimeWith(name: string, policy: string | undefined): Promise<Runtime> {
  let policyPath: string | undefined;
  if (policy !== undefined) {
    policyPath = join(dir, `${name}.yaml`);
    writeFileSync(policyPath, policy);
  }
  return createRuntime(
    loadConfig({
      ...serviceEnv(sandbox.url, c),
      BANKOPS_DB: join(dir, `${name}.db`),
      BANKOPS_PUBLIC_URL: ORIGIN,
      ...optional('BANKOPS_POLICY', policyPath),
    }),
    { recover: false },
  );
}

const plain = await runtimeWith('plain', undefined);
const signed = await runtimeWith('signed', stepUpPolicyYaml());
const operator = cliActor('bench-operator');
const approver = cliActor('bench-approver');
const key = new SoftPasskey(ORIGIN);
const tokenOf = (url: string): string => url.slice(url.lastIndexOf('/') + 1);

async function open(runtime: Runtime, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const result = await runtime.executor.execute({
      tool: 'create_payout',
      input: { ...PAYOUT, reference: `bench ${Date.now()} ${i}` },
      actor: operator,
    });
    if (result.status !== 'pending_approval') throw new Error(`not pending: ${JSON.stringify(result)}`);
    ids.push(result.approvalId);
  }
  return ids;
}

try {
  const enrol = tokenOf((await signed.passkeys.enrolLink('cli:bench-approver', operator)).url);
  const creation = (await signed.passkeys.enrolOptions(enrol)) as { challenge: string };
  await signed.passkeys.enrolFinish(enrol, 'bench', key.register(creation));

  const plainMs: number[] = [];
  const signedMs: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const plainIds = await open(plain, VOTES);
    const signedIds = await open(signed, VOTES);
    // What the browser did before the vote: the page's options, the passkey's signature.
    const ready: { token: string; response: Record<string, unknown> }[] = [];
    for (const id of signedIds) {
      const token = tokenOf((await signed.passkeys.approvalLink(id, approver)).url);
      const options = (await signed.passkeys.approvalOptions(token, 1)) as { challenge: string };
      ready.push({ token, response: key.sign(options) });
    }
    let started = performance.now();
    for (const id of plainIds) {
      const result = await plain.executor.approve(id, approver);
      if (result.status !== 'ok') throw new Error(`plain vote: ${JSON.stringify(result)}`);
    }
    plainMs.push((performance.now() - started) / VOTES);
    started = performance.now();
    for (const { token, response } of ready) {
      const result = await signed.passkeys.approvalFinish(token, response);
      if (result.status !== 'ok') throw new Error(`signed vote: ${JSON.stringify(result)}`);
    }
    signedMs.push((performance.now() - started) / VOTES);
  }
  const p = median(plainMs);
  const s = median(signedMs);
  console.log(
    `vote on a two-approver payout: plain ${p.toFixed(2)} ms, confirmed with a passkey ${s.toFixed(2)} ms ` +
      `(+${(s - p).toFixed(2)} ms, ${(s / p).toFixed(2)}x; target: at most +5 ms) — ${ROUNDS} rounds of ${VOTES} votes, medians`,
  );
} finally {
  await plain.close();
  await signed.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
