import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creates } from '../helpers/approvals.js';
import { createTestCore, type TestCore } from '../helpers/core.js';

// The shipped policy, and the same with conversions run directly (no approval).
const SHIPPED = readFileSync(fileURLToPath(new URL('../../policy/default.yaml', import.meta.url)), 'utf8');
const DIRECT = SHIPPED.replace(
  '    tools: [create_conversion, transfer_wallet_funds]\n    allow: [operator]\n    approval: { approvers: 1, role: approver }\n',
  '    tools: [create_conversion, transfer_wallet_funds]\n    allow: [operator]\n',
);

let core: TestCore;
beforeAll(async () => {
  expect(DIRECT).not.toBe(SHIPPED);
  core = await createTestCore({ policyYaml: DIRECT });
});
afterAll(() => core.close());

const conversion = { sourceAssetCode: 'USD', targetAssetCode: 'EUR', amount: 1000, side: 'SOURCE' } as const;

describe('an idempotency key across a policy change', () => {
  it('answers a keyed retry of a conversion already made with the first result, not a second conversion', async () => {
    const first = await core.executor.execute({
      tool: 'create_conversion',
      input: conversion,
      actor: core.operator,
      idempotencyKey: 'conv-2026-11-23',
    });
    expect(first.status).toBe('ok');
    // Treasury now wants an approver for conversions; the assistant retries its call, same key.
    writeFileSync(core.policy.path, SHIPPED);
    expect(core.policy.reload()).toEqual({ ok: true });
    const retry = await core.executor.execute({
      tool: 'create_conversion',
      input: conversion,
      actor: core.operator,
      idempotencyKey: 'conv-2026-11-23',
    });
    if (retry.status === 'pending_approval') {
      // Were an approval opened, its approval would make a second conversion at the service.
      await core.executor.approve(retry.approvalId, core.approver);
    }
    expect({ status: retry.status, conversionsCreated: creates(core, 'conversions.create') }).toEqual({
      status: 'ok',
      conversionsCreated: 1,
    });
    // On record: asked again, answered with the first run's result and request id.
    const [last] = await core.audit.list({ tool: 'create_conversion', order: 'desc', limit: 1 });
    expect(last).toMatchObject({
      event: 'requested',
      decision: 'allow',
      outcome: 'ok',
      requestIds: [first.status === 'ok' ? first.requestId : ''],
    });
  });

  it('answers a keyed retry whose approval still waits with that approval, on record as pending', async () => {
    // The shipped policy: a conversion waits for an approver.
    const keyed = () =>
      core.executor.execute({
        tool: 'create_conversion',
        input: { ...conversion, amount: 2000 },
        actor: core.operator,
        idempotencyKey: 'conv-waiting',
      });
    const opened = await keyed();
    expect(opened.status).toBe('pending_approval');
    if (opened.status !== 'pending_approval') return;
    // Then conversions run directly: the key's approval is still the answer, and nothing runs.
    writeFileSync(core.policy.path, DIRECT);
    expect(core.policy.reload()).toEqual({ ok: true });
    const before = creates(core, 'conversions.create');
    const retry = await keyed();
    expect(retry).toMatchObject({ status: 'pending_approval', approvalId: opened.approvalId });
    expect(creates(core, 'conversions.create')).toBe(before);
    const [last] = await core.audit.list({ tool: 'create_conversion', order: 'desc', limit: 1 });
    expect(last).toMatchObject({
      event: 'requested',
      decision: 'approval_required',
      approvalId: opened.approvalId,
      outcome: 'pending',
    });
  });
});
