import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { ApiCall, SlackApiStandIn } from './slack-api.js';
import type { SlackTest } from './slack-app.js';
import { buttonsOf, type Payload, textOf } from './slack-requests.js';

/** The people of the approval tests, as the policy knows them. */
export const PEOPLE = {
  /** Olivia asks (operator); she holds the approver role too, and is the same person as `cli:olivia`. */
  olivia: 'U0OLIVIA',
  /** A viewer: may look, may not decide. */
  viewer: 'U0VIEWER',
} as const;
/** Ten approvers, members of the approvers' user group. */
export const APPROVERS = Array.from({ length: 10 }, (_, i) => `U0APPR${String(i + 1).padStart(2, '0')}`);
export const APPROVERS_GROUP = 'S0APPROVERS';
/** Where approvals go unless their rule names a channel. */
export const APPROVALS_CHANNEL = 'C0APPROVALS';
/** Large payouts' own channel (the rule's `slackChannel`). */
export const TREASURY_CHANNEL = 'C0TREASURY';

/**
 * The shipped default policy's rules, large payouts routed to the treasury channel, and the people
 * above: Olivia's Slack user and CLI name are one person; every CLI user (the OS account that
 * decides approvals against a real service) may approve.
 */
export function approvalsPolicyYaml(): string {
  const policy = parse(
    readFileSync(join(import.meta.dirname, '..', '..', 'policy', 'default.yaml'), 'utf8'),
  ) as { actors: unknown[]; rules: { name?: string; approval?: Record<string, unknown> }[] };
  policy.actors = [
    { match: { slackUser: PEOPLE.olivia }, roles: ['viewer', 'operator', 'approver'], person: 'olivia' },
    { match: { cli: 'olivia' }, roles: ['viewer', 'operator'], person: 'olivia' },
    { match: { cli: '*' }, roles: ['viewer', 'approver'] },
    { match: { slackUser: PEOPLE.viewer }, roles: ['viewer'] },
    { match: { slackGroup: APPROVERS_GROUP }, roles: ['viewer', 'approver'] },
    // The assistant on this machine (`bankops mcp`): no person, so no one to tell in Slack.
    { match: { mcpStdio: true }, roles: ['viewer', 'operator'] },
  ];
  for (const rule of policy.rules) {
    if (rule.name === 'large-payouts' && rule.approval !== undefined)
      rule.approval.slackChannel = TREASURY_CHANNEL;
  }
  return stringify(policy);
}

/** A call's blocks as JSON, made once per call: a test looking for 500 approvals reads each post often. */
const blocksJson = new WeakMap<ApiCall, string>();
function blocksOf(call: ApiCall): string {
  let json = blocksJson.get(call);
  if (json === undefined) {
    json = JSON.stringify(call.args.blocks) ?? '';
    blocksJson.set(call, json);
  }
  return json;
}

/** A top-level post to a channel (not a thread reply, not a direct message) that names the approval. */
const isApprovalPost = (call: ApiCall, approvalId: string): boolean =>
  call.ok &&
  call.args.thread_ts === undefined &&
  String(call.args.channel).startsWith('C') &&
  blocksOf(call).includes(`\`${approvalId}\``);

/** The approval message: the top-level post that names the approval id. */
export const approvalPost = (api: SlackApiStandIn, approvalId: string): ApiCall | undefined =>
  api.callsOf('chat.postMessage').find((call) => isApprovalPost(call, approvalId));

/** The posts of an approval message: 1 when all is well. */
export const approvalPosts = (api: SlackApiStandIn, approvalId: string): ApiCall[] =>
  api.callsOf('chat.postMessage').filter((call) => isApprovalPost(call, approvalId));

/** The message as it shows now: its post, then every chat.update of it, the last one winning. */
export function shown(api: SlackApiStandIn, approvalId: string): Payload | undefined {
  const post = approvalPost(api, approvalId);
  const ts = post?.answer?.ts;
  if (post === undefined || ts === undefined) return undefined;
  const updates = api
    .callsOf('chat.update')
    .filter((call) => call.args.channel === post.args.channel && call.args.ts === ts && call.ok);
  return (updates.at(-1) ?? post).args;
}

/** Waits until the message shows `text` (the visible text, entities decoded). */
export function waitShown(
  api: SlackApiStandIn,
  approvalId: string,
  text: string | RegExp,
  ms = 8_000,
): Promise<Payload> {
  return api.waitFor(() => {
    const message = shown(api, approvalId);
    if (message === undefined) return undefined;
    const visible = textOf(message);
    return (typeof text === 'string' ? visible.includes(text) : text.test(visible)) ? message : undefined;
  }, ms);
}

/** The replies in a message's thread, as text. */
export const threadOf = (api: SlackApiStandIn, channel: string, ts: string): string[] =>
  api
    .callsOf('chat.postMessage')
    .filter((call) => call.args.channel === channel && call.args.thread_ts === ts)
    .map((call) => textOf(call.args));

/** What bankops told a user by direct message (to the channel conversations.open gave for them). */
export const directMessages = (api: SlackApiStandIn, user: string): string[] =>
  api
    .callsOf('chat.postMessage')
    .filter((call) => call.args.channel === `D${user}`)
    .map((call) => textOf(call.args));

/** The channel and ts Slack gave the approval message. */
export function whereIs(
  api: SlackApiStandIn,
  approvalId: string,
): { channel: string; ts: string } | undefined {
  const post = approvalPost(api, approvalId);
  const ts = post?.answer?.ts;
  return post === undefined || typeof ts !== 'string' ? undefined : { channel: post.args.channel, ts };
}

/** The environment of a `bankops` process on the same database, policy and service as a Slack test. */
export function cliEnvFor(t: Pick<SlackTest, 'dir' | 'sandbox'>, actor: string): Record<string, string> {
  const c = t.sandbox.credentials;
  return {
    BANKOPS_BASE_URL: t.sandbox.url,
    BANKOPS_API_KEY: c.apiKey,
    BANKOPS_PRODUCT_ID: c.productId,
    BANKOPS_USER_ID: c.userId,
    BANKOPS_COMPANY_ID: c.companyId,
    BANKOPS_USER_EMAIL: c.userEmail,
    BANKOPS_PROGRAM_CODE: c.programCode,
    BANKOPS_AGENT_CODE: c.agentCode,
    BANKOPS_SUBAGENT_CODE: c.subagentCode,
    BANKOPS_DB: join(t.dir, 'bankops.db'),
    BANKOPS_POLICY: join(t.dir, 'policy.yaml'),
    BANKOPS_APPROVAL_TTL_SECONDS: '3600',
    BANKOPS_ACTOR: actor,
  };
}

/** Asks for a payout by slash command as `user`; resolves with the approval's id once its message is posted. */
export async function askApproval(t: SlackTest, user: string, text: string): Promise<string> {
  const { id } = await t.slack.command(user, text);
  // On a slow machine a "working…" note comes first: the answer is the one that names the approval.
  const approval = await t.api.waitFor(() =>
    t.api
      .answersTo(id)
      .map((post) => /apr_\w+/.exec(textOf(post.body))?.[0])
      .find((found) => found !== undefined),
  );
  await t.api.waitFor(() => approvalPost(t.api, approval));
  return approval;
}

/** Clicks a button of the approval message (or of `message`) as `user`; resolves with the click's id. */
export async function pressButton(
  t: SlackTest,
  user: string,
  approvalId: string,
  label: string,
  message?: Payload,
): Promise<string> {
  const target = buttonsOf(message ?? shown(t.api, approvalId) ?? {}).find((b) => b.text === label);
  if (target === undefined) throw new Error(`no ${label} on ${approvalId}`);
  const { id } = await t.slack.click(user, target, { channel: whereIs(t.api, approvalId)?.channel ?? '' });
  return id;
}

/** Clicks a button of the approval message (or of `message`) as `user`; resolves with the ephemeral answer's text. */
export async function clickButton(...press: Parameters<typeof pressButton>): Promise<string> {
  const [t] = press;
  const id = await pressButton(...press);
  return textOf((await t.api.answers(id)).at(-1)?.body ?? {});
}

/** A form's values as Slack submits them for `SlackDriver.submit`. */
export type FormValues = Record<string, string | { option: string }>;

/**
 * `/bank payout 777 USD …` by `user`: the form it opens (as sent to views.open) and its values as
 * Slack would submit them untouched, with a purpose chosen (the one field the command leaves open).
 */
export async function openPayoutForm(
  t: SlackTest,
  user: string,
): Promise<{ command: string; view: Payload; values: FormValues }> {
  const { id: command } = await t.slack.command(
    user,
    'payout 777 USD to ben_us_ach_0001 from acc_usd_0001 destinationRail=ACH',
  );
  const form = await t.api.waitFor(() =>
    t.api.callsOf('views.open').find((c) => c.args.trigger_id === `trigger-${command}`),
  );
  const view = form.args.view as Payload;
  const values: FormValues = { purposeCode: { option: 'GOODS_PURCHASED' } };
  for (const block of view.blocks as Payload[]) {
    const initial = block.element?.initial_option?.value ?? block.element?.initial_value;
    if (block.type === 'input' && typeof initial === 'string')
      values[block.block_id] = block.element.type === 'static_select' ? { option: initial } : initial;
  }
  return { command, view, values };
}
