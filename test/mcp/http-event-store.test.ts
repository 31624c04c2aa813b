import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BoundedEventStore } from '../../src/mcp/http/event-store.js';

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { n },
});

async function replay(store: BoundedEventStore, after: string) {
  const sent: { id: string; message: JSONRPCMessage }[] = [];
  const streamId = await store.replayEventsAfter(after, {
    send: async (id, message) => {
      sent.push({ id, message });
    },
  });
  return { streamId, sent };
}

describe('the event store behind resumability', () => {
  it('replays what a stream missed after the cursor, in order, and nothing of other streams', async () => {
    const store = new BoundedEventStore();
    const priming = await store.storeEvent('s1', {} as JSONRPCMessage);
    const a = await store.storeEvent('s1', note(1));
    await store.storeEvent('s2', note(99));
    const b = await store.storeEvent('s1', note(2));

    expect(await store.getStreamIdForEventId(a)).toBe('s1');
    const fromPriming = await replay(store, priming);
    expect(fromPriming.streamId).toBe('s1');
    expect(fromPriming.sent).toEqual([
      { id: a, message: note(1) },
      { id: b, message: note(2) },
    ]);
    expect((await replay(store, a)).sent.map((e) => e.id)).toEqual([b]);
  });

  it('never replays a priming event (it is not a JSON-RPC message)', async () => {
    const store = new BoundedEventStore();
    const first = await store.storeEvent('s1', note(1));
    await store.storeEvent('s1', {} as JSONRPCMessage);
    const { sent } = await replay(store, first);
    expect(sent).toEqual([]);
  });

  it('is bounded by count and by bytes, oldest first, and forgets evicted cursors', async () => {
    const store = new BoundedEventStore({ maxEvents: 3 });
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push(await store.storeEvent('s', note(n)));
    expect(store.size).toBe(3);
    expect(await store.getStreamIdForEventId(ids[0]!)).toBeUndefined();
    await expect(replay(store, ids[1]!)).rejects.toThrow(/unknown or expired/);
    expect((await replay(store, ids[2]!)).sent.map((e) => e.id)).toEqual([ids[3], ids[4]]);

    const big = { jsonrpc: '2.0', method: 'x', params: { pad: 'x'.repeat(1000) } } as JSONRPCMessage;
    const small = new BoundedEventStore({ maxBytes: 2500 });
    for (let n = 0; n < 5; n++) await small.storeEvent('s', big);
    expect(small.size).toBe(2);
  });
});
