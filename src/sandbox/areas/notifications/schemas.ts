import { z } from 'zod';

/** A required, non-empty string whose error says which of the two went wrong. */
const required = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .trim()
    .min(1, { error: 'must not be empty' });

/** Optional; `null` counts as absent (clients often send `null` for fields that do not apply). */
const optional = () =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .nullish()
    .transform((v) => (v === null || v === '' ? undefined : v));

const subscriptionType = z.enum(['w', 'n'], {
  error: (issue) => (issue.input === undefined ? 'is required' : "must be 'w' (webhook) or 'n' (e-mail)"),
});

/**
 * The API key field: the sample bodies spell it `x_api_key`, the field list `x-api-key`; both are
 * accepted (docs/sandbox/notifications.md).
 */
const keyFields = {
  x_api_key: optional(),
  'x-api-key': optional(),
};

export const SubscribeBody = z.object({
  event_name: required(),
  subscription_type: subscriptionType,
  agent_code: required(),
  subagent_code: required(),
  program_code: required(),
  company_code: required(),
  created_by: required(),
  webhook_url: optional(),
  sender_email: optional(),
  ...keyFields,
});
export type SubscribeBody = z.infer<typeof SubscribeBody>;

export const UpdateBody = z.object({
  event_name: required(),
  subscription_type: subscriptionType,
  agent_code: required(),
  subagent_code: required(),
  program_code: required(),
  company_code: required(),
  updated_by: required(),
  webhook_url: optional(),
  sender_email: optional(),
  ...keyFields,
});
export type UpdateBody = z.infer<typeof UpdateBody>;

export const UnsubscribeBody = z.object({
  event_name: required(),
  agent_code: required(),
  subagent_code: required(),
  program_code: required(),
  company_code: required(),
});

export const ListBody = z.object({
  agent_code: required(),
  subagent_code: required(),
});

export const EmitBody = z.object({
  event_name: required(),
  data: z.record(z.string(), z.unknown(), { error: 'must be a JSON object' }).optional(),
  agent_code: optional(),
  subagent_code: optional(),
});
