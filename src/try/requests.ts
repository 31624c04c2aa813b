import { createHmac, randomBytes } from 'node:crypto';
import type { Obj } from './conversations.js';
import { BOT, type Person, TEAM } from './people.js';

/**
 * What Slack sends an app, built and signed as Slack does: slash commands form-encoded,
 * interactivity as a form field `payload` holding JSON, Events API callbacks as JSON; each with
 * `x-slack-request-timestamp` and `x-slack-signature: v0=` + hex HMAC-SHA256 of `v0:<ts>:<body>`
 * under the app's signing secret. They go to the app's Request URL over HTTP, so its own
 * signature check (src/slack/http/verify.ts) runs on every one.
 */

/** The verification token of old; Slack still sends one, and apps ignore it. */
const LEGACY_TOKEN = 'local-verification-token';

export function slackSignature(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/** What the app answered: its HTTP status and body (an `ack` with content, a `response_action`). */
export interface AppAnswer {
  status: number;
  body: unknown;
}

/** How long an acknowledgement is awaited (Slack: 3 s; a busy machine gets longer here) before a command fails with `operation_timeout`. */
const ACK_WAIT_MS = 10_000;

export class AppRequests {
  readonly #requestUrl: string;
  readonly #secret: string;
  readonly #ackWaitMs: number;

  constructor(options: { requestUrl: string; signingSecret: string; ackWaitMs?: number }) {
    this.#requestUrl = options.requestUrl;
    this.#secret = options.signingSecret;
    this.#ackWaitMs = options.ackWaitMs ?? ACK_WAIT_MS;
  }

  /** POSTs a signed body; undefined when the app did not answer within Slack's wait. */
  async #post(body: string, contentType: string): Promise<AppAnswer | undefined> {
    const timestamp = Math.floor(Date.now() / 1000);
    let response: Response;
    try {
      response = await fetch(this.#requestUrl, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          'x-slack-request-timestamp': String(timestamp),
          'x-slack-signature': slackSignature(this.#secret, timestamp, body),
        },
        body,
        signal: AbortSignal.timeout(this.#ackWaitMs),
      });
    } catch {
      return undefined;
    }
    const text = await response.text();
    let parsed: unknown = text;
    if (response.headers.get('content-type')?.startsWith('application/json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: response.status, body: parsed };
  }

  /** `/bank <text>` typed by `person` in `channel`. */
  command(
    person: Person,
    channel: { id: string; name: string },
    text: string,
    where: { responseUrl: string; triggerId: string },
  ): Promise<AppAnswer | undefined> {
    const form = new URLSearchParams({
      token: LEGACY_TOKEN,
      team_id: TEAM.id,
      team_domain: TEAM.domain,
      channel_id: channel.id,
      channel_name: channel.name,
      user_id: person.id,
      user_name: person.handle,
      command: '/bank',
      text,
      api_app_id: BOT.appId,
      is_enterprise_install: 'false',
      response_url: where.responseUrl,
      trigger_id: where.triggerId,
    });
    return this.#post(form.toString(), 'application/x-www-form-urlencoded');
  }

  /** A click, a submission or a close: `payload` as Slack shapes it, with the parts every one has. */
  interaction(person: Person, payload: Obj): Promise<AppAnswer | undefined> {
    const whole = {
      user: { id: person.id, username: person.handle, name: person.handle, team_id: TEAM.id },
      api_app_id: BOT.appId,
      token: LEGACY_TOKEN,
      team: { id: TEAM.id, domain: TEAM.domain },
      enterprise: null,
      is_enterprise_install: false,
      ...payload,
    };
    return this.#post(
      `payload=${encodeURIComponent(JSON.stringify(whole))}`,
      'application/x-www-form-urlencoded',
    );
  }

  /** An Events API callback (`app_home_opened`). */
  event(event: Obj): Promise<AppAnswer | undefined> {
    const body = JSON.stringify({
      token: LEGACY_TOKEN,
      team_id: TEAM.id,
      api_app_id: BOT.appId,
      event: { ...event, event_ts: `${(Date.now() / 1000).toFixed(6)}` },
      type: 'event_callback',
      event_id: `Ev${randomBytes(6).toString('hex').toUpperCase()}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ team_id: TEAM.id, user_id: BOT.userId, is_bot: true, is_enterprise_install: false }],
      is_ext_shared_channel: false,
    });
    return this.#post(body, 'application/json');
  }
}
