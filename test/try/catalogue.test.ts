import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { slackActor } from '../../src/core/actors.js';
import {
  APPROVAL_EVENT_KINDS,
  type ApprovalEvent,
  type ApprovalView,
} from '../../src/core/approvals/index.js';
import type { ExecuteResult } from '../../src/core/results.js';
import type { AnyTool } from '../../src/core/tool.js';
import { placeholders, toolExample } from '../../src/present/examples.js';
import { policyView } from '../../src/present/policy-view.js';
import { TOOL_GROUPS } from '../../src/present/tool-groups.js';
import { alertListMessage } from '../../src/slack/alerts/messages.js';
import { withButtons } from '../../src/slack/answers/output.js';
import { homeBlocks } from '../../src/slack/approvals/home.js';
import { APPROVAL_ACTIONS } from '../../src/slack/approvals/ids.js';
import { approvalMessage } from '../../src/slack/approvals/messages/approval.js';
import { approvalsMessages } from '../../src/slack/approvals/messages/approvals-list.js';
import { digestMessage } from '../../src/slack/approvals/messages/digest.js';
import { reminderMessage } from '../../src/slack/approvals/messages/reminder.js';
import { requestedMessage } from '../../src/slack/approvals/messages/requested.js';
import { requesterNotice } from '../../src/slack/approvals/messages/requester-notice.js';
import { threadReply } from '../../src/slack/approvals/messages/thread-reply.js';
import { reconcileReasonModal } from '../../src/slack/approvals/reconcile-modal.js';
import { rejectReasonModal } from '../../src/slack/approvals/reject-modal.js';
import { anchorMessage } from '../../src/slack/audit-anchor.js';
import {
  groupHelpMessage,
  helpMessage,
  secretInputMessage,
  shortFormHelp,
  toolHelpMessage,
} from '../../src/slack/commands/help.js';
import { SHORT_FORMS } from '../../src/slack/commands/short-forms.js';
import { corridorFieldsForm, corridorForm, loadingForm } from '../../src/slack/forms/beneficiary.js';
import { toolForm } from '../../src/slack/forms/tool-form.js';
import { noAccessMessage } from '../../src/slack/middleware/actor.js';
import { enrolLinkMessage, stepUpMessage } from '../../src/slack/passkeys/index.js';
import { button, type SlackMessage } from '../../src/slack/render/message.js';
import { ModalTooLargeError } from '../../src/slack/render/modal.js';
import { databaseDownMessage, outcomeMessage, usageMessage } from '../../src/slack/render/outcome.js';
import { outputPages } from '../../src/slack/render/output.js';
import { serviceEventMessages } from '../../src/slack/render/service-event.js';
import { slackTools } from '../../src/slack/services.js';
import { contentOf, type Obj } from '../../src/try/conversations.js';
import { APPROVALS, BOT, PAYMENTS, REQUESTER, WORKSPACE_ACTORS } from '../../src/try/people.js';
import type { RenderContext } from '../../src/try/render/html.js';
import { messageHtml } from '../../src/try/render/message.js';
import { homeHtml, modalHtml } from '../../src/try/render/view.js';
import { PAYOUT, pending } from '../helpers/approvals.js';
import { createTestCore, type TestCore } from '../helpers/core.js';

/**
 * Every message and modal the Slack app can produce, rendered by the local workspace's renderer:
 * built from the registry (each tool's form, help and answer to its example on the sandbox, or its
 * refusal), the approval message in every state with its thread replies and notices, the App Home,
 * the reject and reconcile modals, help, service events and the rest. None may come out as an
 * "unsupported" box.
 */

let core: TestCore;
/** What came out unsupported, by what was rendered; expected empty. */
const problems: string[] = [];
let rendered = 0;
beforeAll(async () => {
  core = await createTestCore();
  core.runtime.webhooks.servedAt('http://127.0.0.1:9');
  core.policy.addActors(WORKSPACE_ACTORS);
});
afterAll(() => core.close());
beforeEach(() => {
  problems.length = 0;
});

const asker = slackActor(REQUESTER.id, []);
const where = { responseUrl: 'http://127.0.0.1:9/try/slack/respond/x', channel: PAYMENTS.id };
const config = { approvalsChannel: APPROVALS.id };

function context(): RenderContext {
  return {
    directory: { user: () => 'Someone', channel: () => 'channel', group: () => 'group' },
    now: Date.now(),
    unsupported: [],
    idPrefix: 'c',
  };
}

function message(name: string, m: SlackMessage): void {
  const ctx = context();
  const html = messageHtml(
    {
      channel: PAYMENTS.id,
      ts: '1.000001',
      user: BOT.userId,
      edited: false,
      ...contentOf(m as unknown as Obj),
    },
    { name: 'bankops', app: true },
    ctx,
  );
  expect(html.length, name).toBeGreaterThan(0);
  problems.push(...ctx.unsupported.map((kind) => `${name}: ${kind}`));
  rendered += 1;
}

function modal(name: string, view: unknown): void {
  const ctx = context();
  modalHtml({ id: 'V1', user: REQUESTER.id, view: view as Obj, typed: {}, errors: {} }, ctx);
  problems.push(...ctx.unsupported.map((kind) => `${name}: ${kind}`));
  rendered += 1;
}

/** The Slack answer to a result, as `answerFor` gives it (every page of an output, its buttons). */
function answer(name: string, tool: AnyTool, input: Record<string, unknown>, result: ExecuteResult): void {
  switch (result.status) {
    case 'ok': {
      const { pages } = outputPages(tool, input, result.output);
      for (const [i, page] of pages.entries()) message(`${name} page ${i}`, page);
      const first = pages[0];
      if (first !== undefined)
        message(
          `${name} with buttons`,
          withButtons(first, [button('More', 'more', 'v'), button('Share', 's', 'v')]),
        );
      return;
    }
    case 'pending_approval':
      message(`${name} requested`, requestedMessage(result.approval, PAYMENTS.id, config));
      message(`${name} requested, no channel`, requestedMessage(result.approval, PAYMENTS.id, {}));
      message(
        `${name} approval`,
        approvalMessage(result.approval, { policy: core.policy.current(), registry: core.registry }),
      );
      return;
    default:
      message(`${name} ${result.status}`, outcomeMessage(result, tool.hints.readOnly));
  }
}

/** An approval in each state it can be shown in. */
function states(view: ApprovalView): [string, ApprovalView][] {
  const at = new Date().toISOString();
  const vote = { approver: `slack:U0AMIRA`, person: 'slack:U0AMIRA', at };
  const sent = { ...view, approvals: [vote], result: { payoutId: 'po_1', status: 'PENDING' } };
  const settlement = (outcome: 'settling' | 'completed' | 'failed' | 'unknown') => ({
    kind: 'payout' as const,
    id: 'po_1',
    status: outcome === 'completed' ? 'COMPLETED' : 'PENDING',
    outcome,
    checkedAt: at,
  });
  return [
    ['pending', view],
    ['pending, new quote', { ...view, attempt: 2 }],
    ['pending, step-up', { ...view, stepUp: 'passkey' }],
    ['approved', { ...view, state: 'approved', approvals: [vote] }],
    ['executing', { ...view, state: 'executing', approvals: [vote] }],
    ['executing, re-sending', { ...view, state: 'executing', approvals: [vote], retryingUntil: at }],
    ['succeeded', { ...sent, state: 'succeeded' }],
    ['succeeded, settling', { ...sent, state: 'succeeded', settlement: settlement('settling') }],
    ['succeeded, completed', { ...sent, state: 'succeeded', settlement: settlement('completed') }],
    ['succeeded, failed', { ...sent, state: 'succeeded', settlement: settlement('failed') }],
    ['succeeded, unknown', { ...sent, state: 'succeeded', settlement: settlement('unknown') }],
    ['failed', { ...view, state: 'failed', error: { kind: 'service', message: 'refused' } }],
    ['rejected', { ...view, state: 'rejected', decidedBy: 'slack:U0AMIRA', decisionReason: 'wrong payee' }],
    ['expired', { ...view, state: 'expired' }],
    ['cancelled', { ...view, state: 'cancelled', decidedBy: asker.id }],
    ['unresolved', { ...view, state: 'unresolved', error: { kind: 'timeout', message: 'no answer' } }],
  ];
}

describe('the catalogue of the Slack app, rendered by the local workspace', () => {
  it('renders every tool’s form, help and answer to its example, and nothing is unsupported', async () => {
    const tools = slackTools(core.registry);
    expect(tools.length).toBeGreaterThanOrEqual(60);
    const view = policyView(core.policy.current(), asker, tools);
    message('help', helpMessage(view, tools));
    for (const group of TOOL_GROUPS) message(`help ${group}`, groupHelpMessage(view, tools, group));
    for (const form of SHORT_FORMS) {
      const help = shortFormHelp(form.name);
      if (help !== undefined) message(`help ${form.name}`, help);
    }
    for (const tool of core.registry.list().filter((t) => t.secretInput === true))
      message(`${tool.name} refused`, secretInputMessage(tool));
    for (const tool of tools) {
      const example = toolExample(tool.name);
      message(
        `help ${tool.name}`,
        toolHelpMessage(
          tool,
          view.tools.find((t) => t.tool === tool.name),
          core.runtime.config.defaults,
        ),
      );
      try {
        modal(`${tool.name} form`, toolForm(tool, example?.input ?? {}, where, 'Still needed: everything.'));
      } catch (error) {
        if (!(error instanceof ModalTooLargeError)) throw error;
      }
      if (example === undefined || placeholders(example).length > 0) continue;
      core.sandbox.reset();
      answer(tool.name, tool, example.input, await core.call(tool.name, example.input));
    }
    core.sandbox.reset();
    const invalid = await core.call('get_account', { accountid: 'acc_usd_0001' });
    answer('invalid', core.registry.get('get_account') as AnyTool, {}, invalid);
    const refused = await core.call('get_account', { accountId: 'acc_nope' });
    answer('refused', core.registry.get('get_account') as AnyTool, {}, refused);
    expect(problems).toEqual([]);
  });

  it('renders the approval message in every state, its thread, its notices, the modals and the home tab', async () => {
    const actor = slackActor(REQUESTER.id, []);
    const payout = pending(await core.call('create_payout', PAYOUT, actor));
    const block = pending(
      await core.call(
        'update_card_status_b',
        {
          cardholderId: 'chb_demo_alice',
          walletId: 'wal_demo_alice_usd',
          cardId: 'card_demo_alice_virtual',
          status: 'LOST',
        },
        actor,
      ),
    );
    const ctx = { policy: core.policy.current(), registry: core.registry };
    for (const view of [payout, block]) {
      for (const [state, shown] of states(view)) {
        message(`${view.tool} ${state}`, approvalMessage(shown, ctx));
        message(`${view.tool} ${state} reminder`, reminderMessage(shown, ctx.policy, 2, 2));
        for (const kind of APPROVAL_EVENT_KINDS) {
          const event: ApprovalEvent = {
            seq: 1,
            approvalId: view.id,
            kind,
            at: new Date().toISOString(),
            state: shown.state,
            attempt: shown.attempt,
            actor: 'slack:U0AMIRA',
            detail: 'why',
          };
          message(`${kind} in thread`, threadReply(event, shown, ctx.policy));
          message(`${kind} to requester`, requesterNotice(event, shown, ctx.policy, APPROVALS.id));
        }
      }
      modal('reject', rejectReasonModal(view, { responseUrl: where.responseUrl }));
      for (const outcome of ['succeeded', 'failed', 'retry'] as const)
        modal(`reconcile ${outcome}`, reconcileReasonModal(view, outcome, {}));
      message(
        'step-up link',
        await stepUpMessage({ passkeys: core.runtime.passkeys }, view, slackActor('U0AMIRA', [])),
      );
    }
    const all = states(payout).map(([, v]) => v);
    message(
      'digest',
      digestMessage(
        { waiting: all, expired: all, failed: all, unresolved: all, reviews: [] },
        ctx.policy,
        'Monday',
        '09:00',
      ),
    );
    for (const m of approvalsMessages(all, actor, ctx.policy)) message('approvals list', m);
    const homeCtx = context();
    const blocks = await homeBlocks({ executor: core.executor, registry: core.registry }, actor, 100);
    homeHtml(
      {
        id: 'V1',
        user: REQUESTER.id,
        view: { type: 'home', blocks: blocks as unknown as Obj[] },
        typed: {},
        errors: {},
      },
      homeCtx,
    );
    problems.push(...homeCtx.unsupported);
    expect(blocks.some((b) => JSON.stringify(b).includes(APPROVAL_ACTIONS.cancel))).toBe(true);
    expect(problems).toEqual([]);
  });

  it('renders the forms of a new beneficiary, service events and the short answers', async () => {
    const schemaTool = core.registry.get('get_beneficiary_schema') as AnyTool;
    modal('corridor', corridorForm(schemaTool, {}, where));
    modal('loading', loadingForm());
    const corridor = { currency: 'USD', entityType: 'INDIVIDUAL', paymentMethod: 'LOCAL' };
    const schema = await core.ok('get_beneficiary_schema', corridor);
    modal('corridor fields', corridorFieldsForm(schema.schema as Record<string, unknown>, corridor, where));
    const event = {
      event_id: 'evt_1',
      event_name: 'card.status.changed',
      event_description: 'A card changed status',
      occurred_at: new Date().toISOString(),
      data: { cardId: 'card_demo_alice_virtual', status: 'BLOCKED', nested: { list: [1, 2] } },
    };
    for (const m of serviceEventMessages(event, () => '•••• 4242')) message('service event', m);
    message('no access', noAccessMessage('U0STRANGER'));
    message('usage', usageMessage('payout takes an amount'));
    message('database down', databaseDownMessage({ name: 'get_balances', ran: 'ok' }));
    message('anchor', anchorMessage({ seq: 12, hash: 'ab'.repeat(32) }, 'Posted daily'));
    message('alerts', alertListMessage({ alerts: [], checkEverySeconds: 5 }));
    message(
      'passkey',
      await enrolLinkMessage({ passkeys: core.runtime.passkeys }, slackActor('U0AMIRA', [])),
    );
    expect(problems).toEqual([]);
    expect(rendered).toBeGreaterThan(300);
  });
});
