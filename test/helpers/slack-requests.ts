import { createHmac, randomBytes } from 'node:crypto';
import type { SlackApiStandIn } from './slack-api.js';

/** Slack's signature of a request body at a timestamp (seconds): `v0=` + hex HMAC-SHA256. */
export function signature(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export interface SignedOptions {
  /** Seconds since the epoch; now by default (an old one tests the 5-minute window). */
  timestamp?: number;
  /** Sign with another secret (a forged request). */
  secret?: string;
  headers?: Record<string, string>;
}

export interface SlackDriverOptions {
  /** `http://127.0.0.1:<port>/slack/events` */
  eventsUrl: string;
  signingSecret: string;
  api: SlackApiStandIn;
  team?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: payloads are Slack's JSON, built and read field by field in tests
export type Payload = Record<string, any>;

/**
 * Plays Slack against the app's Request URL: slash commands, button clicks, form submissions and
 * Events API callbacks, each form- or JSON-encoded and signed exactly as Slack does it. Answers to
 * response_urls land in the Web API stand-in, under the id the driver gave the command.
 */
export class SlackDriver {
  readonly #o: SlackDriverOptions;
  #n = 0;

  constructor(options: SlackDriverOptions) {
    this.#o = options;
  }

  /** POSTs a signed body; resolves with the HTTP answer. */
  async post(body: string, contentType: string, options: SignedOptions = {}): Promise<Response> {
    const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
    return fetch(this.#o.eventsUrl, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': signature(options.secret ?? this.#o.signingSecret, timestamp, body),
        ...options.headers,
      },
      body,
    });
  }

  /** A fresh id for a response_url (one per command, as Slack gives one per command). */
  nextId(prefix = 'cmd'): string {
    this.#n += 1;
    return `${prefix}-${this.#n}-${randomBytes(3).toString('hex')}`;
  }

  /** Types `/bank <text>` as `user` in `channel`; the answers arrive under the returned id. */
  async command(
    user: string,
    text: string,
    options: SignedOptions & { channel?: string; id?: string } = {},
  ): Promise<{ id: string; response: Response; triggerId: string }> {
    const id = options.id ?? this.nextId();
    const triggerId = `trigger-${id}`;
    const form = new URLSearchParams({
      token: 'legacy-verification-token',
      team_id: this.#o.team ?? 'T1',
      team_domain: 'bank',
      channel_id: options.channel ?? 'C0OPS',
      channel_name: 'ops',
      user_id: user,
      user_name: user.toLowerCase(),
      command: '/bank',
      text,
      api_app_id: 'A1',
      is_enterprise_install: 'false',
      response_url: this.#o.api.responseUrl(id),
      trigger_id: triggerId,
    });
    const response = await this.post(form.toString(), 'application/x-www-form-urlencoded', options);
    return { id, response, triggerId };
  }

  /** Clicks a button of an (ephemeral) answer: its action id and value, answers under a new id. */
  async click(
    user: string,
    button: { action_id: string; value: string },
    options: { channel?: string; id?: string; home?: boolean } = {},
  ): Promise<{ id: string; response: Response }> {
    const id = options.id ?? this.nextId('click');
    // A button on the App Home comes from a view: no channel and no response_url.
    const where: Payload = options.home
      ? { container: { type: 'view', view_id: 'VHOME' }, view: { id: 'VHOME', type: 'home' } }
      : {
          container: { type: 'message', is_ephemeral: true, channel_id: options.channel ?? 'C0OPS' },
          channel: { id: options.channel ?? 'C0OPS', name: 'ops' },
          response_url: this.#o.api.responseUrl(id),
        };
    const payload: Payload = {
      type: 'block_actions',
      user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: 'T1' },
      api_app_id: 'A1',
      token: 'legacy-verification-token',
      trigger_id: `trigger-${id}`,
      team: { id: 'T1', domain: 'bank' },
      ...where,
      actions: [
        {
          type: 'button',
          action_id: button.action_id,
          block_id: 'b1',
          value: button.value,
          action_ts: '1.2',
        },
      ],
    };
    const response = await this.post(
      `payload=${encodeURIComponent(JSON.stringify(payload))}`,
      'application/x-www-form-urlencoded',
    );
    return { id, response };
  }

  /**
   * Submits a modal the app opened (`view` as it sent it to views.open or views.update), with
   * `values` by block id: strings for text and number inputs, `{option}` for selects.
   */
  async submit(
    user: string,
    view: Payload,
    values: Record<string, string | { option: string }>,
    viewId = 'V1',
  ): Promise<Response> {
    const state: Record<string, Record<string, Payload>> = {};
    for (const block of view.blocks as Payload[]) {
      if (block.type !== 'input') continue;
      const given = values[block.block_id as string];
      const element = block.element as Payload;
      const type = element.type as string;
      const value =
        type === 'static_select'
          ? {
              type,
              selected_option:
                typeof given === 'object'
                  ? { value: given.option, text: { type: 'plain_text', text: given.option } }
                  : null,
            }
          : { type, value: typeof given === 'string' ? given : null };
      state[block.block_id as string] = { [element.action_id as string]: value };
    }
    const payload: Payload = {
      type: 'view_submission',
      team: { id: 'T1', domain: 'bank' },
      user: { id: user, name: user.toLowerCase(), team_id: 'T1' },
      api_app_id: 'A1',
      token: 'legacy-verification-token',
      trigger_id: 'trigger-view',
      view: {
        id: viewId,
        team_id: 'T1',
        type: 'modal',
        callback_id: view.callback_id,
        private_metadata: view.private_metadata,
        blocks: view.blocks,
        state: { values: state },
        hash: 'h1',
        title: view.title,
        app_id: 'A1',
        bot_id: 'B1',
        root_view_id: viewId,
        previous_view_id: null,
      },
      response_urls: [],
    };
    return this.post(
      `payload=${encodeURIComponent(JSON.stringify(payload))}`,
      'application/x-www-form-urlencoded',
    );
  }

  /** An Events API callback; `retryNum` adds Slack's retry headers. */
  async event(event: Payload, options: { eventId: string; retryNum?: number }): Promise<Response> {
    const body = JSON.stringify({
      token: 'legacy-verification-token',
      team_id: 'T1',
      api_app_id: 'A1',
      type: 'event_callback',
      event_id: options.eventId,
      event_time: Math.floor(Date.now() / 1000),
      event,
      authorizations: [{ team_id: 'T1', user_id: 'UBANKOPS', is_bot: true }],
    });
    const headers =
      options.retryNum === undefined
        ? {}
        : { 'x-slack-retry-num': String(options.retryNum), 'x-slack-retry-reason': 'http_timeout' };
    return this.post(body, 'application/json', { headers });
  }
}

/** The buttons of an answer (the actions of its blocks and of its attachments' blocks). */
export function buttonsOf(message: Payload): { action_id: string; value: string; text: string }[] {
  const blocks: Payload[] = [
    ...(message.blocks ?? []),
    ...((message.attachments ?? []) as Payload[]).flatMap((a) => a.blocks ?? []),
  ];
  return blocks
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements as Payload[])
    .map((e) => ({ action_id: e.action_id, value: e.value, text: e.text?.text }));
}

/** All visible text of a message (blocks, fields, context, table cells), entities decoded as Slack shows them. */
export function textOf(message: Payload): string {
  const parts: string[] = [String(message.text ?? '')];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'text' && typeof inner === 'string') parts.push(inner);
        else visit(inner);
      }
    }
  };
  visit(message.blocks);
  visit(message.attachments);
  return parts.join('\n').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}
