import { z } from 'zod';
import type { ToolDefaults } from '../../core/tool.js';

/** Input fields shared by the notification tools. */

export const eventNameField = z
  .string()
  .min(1)
  .describe('Event, e.g. card_create (see list_webhook_events).');

export const subscriptionTypeField = z.enum(['w', 'n']).describe('w: webhook; n: e-mail.');

export const webhookUrlField = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http or https URL' })
  .optional()
  .describe('http(s) URL receiving the events; required for type w.');

export const apiKeyField = z
  .string()
  .min(1)
  .optional()
  .describe('Sent as x-api-key so the webhook can check deliveries; required for type w.');

export const senderEmailField = z
  .email()
  .optional()
  .describe('Sender for type n, if whitelisted (else the system sender).');

const code = (what: string) => z.string().min(1).optional().describe(`${what} (configured by default).`);

/** The codes that, with the event name, identify a subscription. */
export const scopeFields = {
  program_code: code('Program code'),
  company_code: code('Company code'),
  agent_code: code('Agent code'),
  subagent_code: code('Sub-agent code'),
};

type Scope = { [K in keyof typeof scopeFields]?: string | undefined };

/** The scope codes with configuration filling what the user left out. */
export function scopeOf(input: Scope, defaults: ToolDefaults) {
  return {
    program_code: input.program_code ?? defaults.programCode,
    company_code: input.company_code ?? defaults.companyCode,
    agent_code: input.agent_code ?? defaults.agentCode,
    subagent_code: input.subagent_code ?? defaults.subagentCode,
  };
}

/**
 * Type `w` needs a URL and a key (spec "POST /subscribe"). Checked here so the user gets a
 * field-level error naming what is missing, instead of a refusal after the fact.
 */
export function requireWebhookFields(
  input: { subscription_type: 'w' | 'n'; webhook_url?: string | undefined; x_api_key?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (input.subscription_type !== 'w') return;
  if (input.webhook_url === undefined)
    ctx.addIssue({ code: 'custom', path: ['webhook_url'], message: 'is required for subscription_type w' });
  if (input.x_api_key === undefined)
    ctx.addIssue({ code: 'custom', path: ['x_api_key'], message: 'is required for subscription_type w' });
}
