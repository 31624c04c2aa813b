import { z } from 'zod';
import { ConfigError } from '../core/config.js';
import { issueWords } from '../core/input-words.js';
import { optional } from '../core/optional.js';
import { type DigestTime, parseDigestTime } from './approvals/digest-time.js';

/** How Slack reaches bankops: signed HTTP requests to `/slack/events`, or a Socket Mode connection. */
export type SlackMode = 'http' | 'socket';

export interface SlackConfig {
  mode: SlackMode;
  botToken: string;
  /** HTTP mode: the app's signing secret, which every request to `/slack/events` is checked against. */
  signingSecret?: string;
  /** Socket Mode: the app-level token (`xapp-…`) that opens the connection. */
  appToken?: string;
  /** The Web API base, ending in `/` (GovSlack, a local stand-in in tests). */
  apiUrl: string;
  /** Where approval requests go (the second part of the Slack app posts them). */
  approvalsChannel?: string;
  /** Where the audit log's head is posted every day and on `/bank audit anchor`. */
  auditChannel?: string;
  /** `BANKOPS_SLACK_DIGEST`: when each approvals channel gets its morning digest; none when unset. */
  digest?: DigestTime;
}

/** Slack is on with a bot token and either a signing secret or an app token; otherwise it is off, and why. */
export type SlackSettings = { enabled: true; config: SlackConfig } | { enabled: false; why: string };

const channelId = z
  .string()
  .trim()
  .regex(/^[CGD][A-Z0-9]{2,}$/, 'must be a channel id such as C0123ABCD (not a #name)');

const EnvSchema = z.object({
  SLACK_BOT_TOKEN: z.string().trim().startsWith('xoxb-', 'must be a bot token (xoxb-…)').optional(),
  SLACK_SIGNING_SECRET: z.string().trim().min(8, 'must be the app’s signing secret').optional(),
  SLACK_APP_TOKEN: z.string().trim().startsWith('xapp-', 'must be an app-level token (xapp-…)').optional(),
  SLACK_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  BANKOPS_SLACK_APPROVALS_CHANNEL: channelId.optional(),
  BANKOPS_SLACK_AUDIT_CHANNEL: channelId.optional(),
  BANKOPS_SLACK_DIGEST: z
    .string()
    .transform((text, ctx) => {
      const time = parseDigestTime(text);
      if ('problem' in time) {
        ctx.addIssue({ code: 'custom', message: time.problem });
        return z.NEVER;
      }
      return time;
    })
    .optional(),
});

export const SLACK_OFF_HINT =
  'set SLACK_BOT_TOKEN with SLACK_SIGNING_SECRET (HTTP, Request URL <public URL>/slack/events) or with SLACK_APP_TOKEN (Socket Mode); docs/slack.md';

/**
 * The Slack settings from the environment. Nothing set: Slack is off. A half setting (a secret
 * without a token, a token with neither a secret nor an app token) is a mistake, not "off": it stops
 * start-up naming the variable, like every other bad value.
 */
export function parseSlackSettings(env: Record<string, string | undefined>): SlackSettings {
  const present = Object.fromEntries(
    Object.entries(env).filter(
      ([key, value]) => key in EnvSchema.shape && value !== undefined && value !== '',
    ),
  );
  const parsed = EnvSchema.safeParse(present, { error: issueWords });
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`));
  }
  const e = parsed.data;
  if (e.SLACK_BOT_TOKEN === undefined) {
    const stray = (['SLACK_SIGNING_SECRET', 'SLACK_APP_TOKEN'] as const).filter(
      (name) => e[name] !== undefined,
    );
    if (stray.length > 0) {
      throw new ConfigError(
        stray.map((name) => `${name}: set, but SLACK_BOT_TOKEN is not (Slack needs both)`),
      );
    }
    return { enabled: false, why: 'SLACK_BOT_TOKEN is not set' };
  }
  if (e.SLACK_SIGNING_SECRET === undefined && e.SLACK_APP_TOKEN === undefined) {
    throw new ConfigError([
      'SLACK_BOT_TOKEN: set, but neither SLACK_SIGNING_SECRET (HTTP mode) nor SLACK_APP_TOKEN (Socket Mode) is',
    ]);
  }
  const apiUrl = (e.SLACK_API_URL ?? 'https://slack.com/api/').replace(/\/*$/, '/');
  const channels = {
    ...optional('approvalsChannel', e.BANKOPS_SLACK_APPROVALS_CHANNEL),
    ...optional('auditChannel', e.BANKOPS_SLACK_AUDIT_CHANNEL),
    ...optional('digest', e.BANKOPS_SLACK_DIGEST),
  };
  // An app token is the explicit choice of Socket Mode (no public URL needed); it wins over a secret.
  if (e.SLACK_APP_TOKEN !== undefined) {
    return {
      enabled: true,
      config: {
        mode: 'socket',
        botToken: e.SLACK_BOT_TOKEN,
        appToken: e.SLACK_APP_TOKEN,
        apiUrl,
        ...channels,
      },
    };
  }
  return {
    enabled: true,
    config: {
      mode: 'http',
      botToken: e.SLACK_BOT_TOKEN,
      ...optional('signingSecret', e.SLACK_SIGNING_SECRET),
      apiUrl,
      ...channels,
    },
  };
}

/** The Slack secrets, so the audit log and the logs can scrub them wherever they turn up. */
export const slackSecrets = (config: SlackConfig): string[] =>
  [config.botToken, config.signingSecret, config.appToken].filter((s): s is string => s !== undefined);
