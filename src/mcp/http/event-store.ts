import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';
import { usageError } from '../../core/errors.js';

export interface EventStoreLimits {
  /** Most events kept; the oldest go first. */
  maxEvents: number;
  /** Most bytes of serialized messages kept; a tool output can be large, so count bytes too. */
  maxBytes: number;
}

/**
 * Per session. Every response sent on an SSE stream is stored (tools/list alone is ~150 KB), so
 * bytes bind first; 64 sessions at most hold 128 MiB.
 */
const DEFAULT_EVENT_STORE_LIMITS: EventStoreLimits = { maxEvents: 500, maxBytes: 2 * 1024 * 1024 };

interface StoredEvent {
  seq: number;
  streamId: StreamId;
  message: JSONRPCMessage;
  bytes: number;
}

/**
 * What one session sent, so a client that lost its SSE stream can reconnect with `Last-Event-ID`
 * and get the messages it missed (a tool result, a progress notification). One store per session:
 * an event id of another session is simply unknown here. Bounded, because a session that never
 * reconnects must not grow without end; a cursor older than the bound is refused by the transport.
 */
export class BoundedEventStore implements EventStore {
  readonly #limits: EventStoreLimits;
  /** In sequence order: the oldest is evicted first. */
  readonly #events: StoredEvent[] = [];
  readonly #byId = new Map<EventId, StoredEvent>();
  #seq = 0;
  #bytes = 0;

  constructor(limits: Partial<EventStoreLimits> = {}) {
    this.#limits = { ...DEFAULT_EVENT_STORE_LIMITS, ...limits };
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    this.#seq += 1;
    const event: StoredEvent = {
      seq: this.#seq,
      streamId,
      message,
      bytes: Buffer.byteLength(JSON.stringify(message)),
    };
    const id: EventId = String(event.seq);
    this.#events.push(event);
    this.#byId.set(id, event);
    this.#bytes += event.bytes;
    this.#evict();
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#byId.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.#byId.get(lastEventId);
    // The transport asks getStreamIdForEventId first and refuses unknown ids; this is the fallback.
    if (last === undefined) throw usageError('unknown or expired Last-Event-ID');
    // Copied first: `send` awaits, and new events may be stored (and old ones evicted) meanwhile.
    const missed = this.#events.filter((e) => e.seq > last.seq && e.streamId === last.streamId);
    for (const event of missed) {
      // Priming events are stored as `{}` only to give the stream a cursor; replaying one would
      // hand the client a message that is not JSON-RPC.
      if (Object.keys(event.message).length === 0) continue;
      await send(String(event.seq), event.message);
    }
    return last.streamId;
  }

  get size(): number {
    return this.#events.length;
  }

  #evict(): void {
    while (
      this.#events.length > this.#limits.maxEvents ||
      (this.#bytes > this.#limits.maxBytes && this.#events.length > 1)
    ) {
      const oldest = this.#events.shift();
      if (oldest === undefined) return;
      this.#byId.delete(String(oldest.seq));
      this.#bytes -= oldest.bytes;
    }
  }
}
