import { randomBytes } from 'node:crypto';
import { BOT, CHANNELS, dmOf, PEOPLE } from './people.js';

/** Block Kit and Slack's other JSON, as the app sent it: read field by field. */
export type Obj = Record<string, unknown>;

export const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const objects = (value: unknown): Obj[] => (Array.isArray(value) ? value.filter(isObj) : []);

/** What a message shows: the notification text, the blocks, and attachments (a table goes in one). */
export interface Content {
  text: string;
  blocks: Obj[];
  attachments: Obj[];
}

export interface Message extends Content {
  channel: string;
  ts: string;
  /** The author: a person, the app's bot user, or Slackbot. */
  user: string;
  /** A reply's parent; absent for a message of the channel. */
  threadTs?: string;
  /** Only this person sees it (an ephemeral answer). */
  ephemeralTo?: string;
  edited: boolean;
  /** The `/bank …` its typist sent, shown to them above the answers (Slack keeps no such line). */
  typed?: boolean;
}

export interface Channel {
  id: string;
  name: string;
  /** A direct-message channel with the app: only this person sees it. */
  dmOf?: string;
}

/** Slack gives every block without an id one of its own; the app finds its blocks by them. */
function withBlockIds(blocks: Obj[]): Obj[] {
  return blocks.map((block) =>
    typeof block.block_id === 'string' ? block : { ...block, block_id: randomBytes(3).toString('base64url') },
  );
}

export const contentOf = (args: Obj): Content => ({
  text: typeof args.text === 'string' ? args.text : '',
  blocks: withBlockIds(objects(args.blocks)),
  attachments: objects(args.attachments).map((a) => ({ ...a, blocks: withBlockIds(objects(a.blocks)) })),
});

/**
 * The workspace's channels and messages, in the memory of `bankops serve` (a rehearsal keeps
 * nothing: a restart starts an empty workspace). Every change is told to `onChange` with the
 * message of the channel it belongs to (a reply's parent), which the page shows as one unit.
 */
export class Conversations {
  readonly channels: Channel[];
  readonly #messages = new Map<string, Message[]>();
  #last = 0;
  readonly #onChange: (channel: string, ts: string) => void;

  constructor(onChange: (channel: string, ts: string) => void) {
    this.#onChange = onChange;
    this.channels = [
      ...CHANNELS.map((c) => ({ ...c })),
      ...PEOPLE.map((p) => ({ id: dmOf(p.id), name: BOT.name, dmOf: p.id })),
    ];
    for (const channel of this.channels) this.#messages.set(channel.id, []);
  }

  /** A channel id, or a user id (a message to a person goes to their direct messages with the app). */
  resolve(id: string): Channel | undefined {
    const channel = this.channels.find((c) => c.id === id);
    return channel ?? this.channels.find((c) => c.dmOf === id);
  }

  /** Sees the channel: everyone sees the channels, a DM only its person. */
  sees(user: string, channel: Channel): boolean {
    return channel.dmOf === undefined || channel.dmOf === user;
  }

  /** Slack's message ids: seconds and a counter, always increasing. */
  #nextTs(): string {
    const micros = Math.max(Date.now() * 1000, this.#last + 1);
    this.#last = micros;
    return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
  }

  post(message: Omit<Message, 'ts' | 'edited'>): Message {
    const stored: Message = { ...message, ts: this.#nextTs(), edited: false };
    this.#messages.get(message.channel)?.push(stored);
    this.#changed(stored);
    return stored;
  }

  get(channel: string, ts: string): Message | undefined {
    return this.#messages.get(channel)?.find((m) => m.ts === ts);
  }

  update(channel: string, ts: string, content: Content): Message | undefined {
    const message = this.get(channel, ts);
    if (message === undefined) return undefined;
    Object.assign(message, content, { edited: message.ephemeralTo === undefined });
    this.#changed(message);
    return message;
  }

  remove(channel: string, ts: string): boolean {
    const list = this.#messages.get(channel) ?? [];
    const message = list.find((m) => m.ts === ts);
    if (message === undefined) return false;
    this.#messages.set(
      channel,
      list.filter((m) => m !== message && m.threadTs !== ts),
    );
    this.#changed(message);
    return true;
  }

  /** The messages of a channel a person sees (replies included), oldest first. */
  visible(channel: string, user: string): Message[] {
    return (this.#messages.get(channel) ?? []).filter(
      (m) => m.ephemeralTo === undefined || m.ephemeralTo === user,
    );
  }

  /** The unit a message belongs to: itself, or the parent of its thread. */
  #changed(message: Message): void {
    this.#onChange(message.channel, message.threadTs ?? message.ts);
  }
}
