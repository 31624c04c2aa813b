import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SlackTest, startSlackTest, USERS } from '../helpers/slack-app.js';
import { textOf } from '../helpers/slack-requests.js';
import { SocketModeStandIn } from '../helpers/socket-mode.js';

const APP_TOKEN = 'xapp-1-test-socket-mode';
let t: SlackTest;
let socket: SocketModeStandIn;

beforeAll(async () => {
  socket = await SocketModeStandIn.start();
  t = await startSlackTest({ config: { mode: 'socket', appToken: APP_TOKEN }, socketUrl: () => socket.url });
  await t.api.waitFor(() => socket.connected);
});
afterAll(async () => {
  expect(t.api.problems).toEqual([]);
  await t?.close();
  await socket?.close();
});

describe('Socket Mode', () => {
  it('connects out with the app-level token (no public URL), and does not serve /slack/events', async () => {
    const open = t.api.callsOf('apps.connections.open');
    expect(open).toHaveLength(1);
    expect(open[0]?.token).toBe(APP_TOKEN);
    expect(t.api.callsOf('auth.test')).toEqual([]);
    const response = await t.slack.command(USERS.viewer, 'balances');
    expect(response.response.status).toBe(404);
  });

  it('acknowledges a slash command envelope and answers through its response_url', async () => {
    socket.send({
      envelope_id: 'env-1',
      type: 'slash_commands',
      accepts_response_payload: true,
      payload: {
        token: 'x',
        team_id: 'T1',
        team_domain: 'bank',
        channel_id: 'C0OPS',
        channel_name: 'ops',
        user_id: USERS.viewer,
        user_name: 'viewer',
        command: '/bank',
        text: 'accounts GBP',
        api_app_id: 'A1',
        response_url: t.api.responseUrl('socket-1'),
        trigger_id: 'trigger-socket-1',
      },
    });
    await t.api.waitFor(() => socket.acks.find((a) => a.envelope_id === 'env-1'));
    const [answer] = await t.api.answers('socket-1');
    expect(textOf(answer?.body ?? {})).toContain('acc_gbp_0001');
  });

  it('processes an event once when Slack retries its envelope', async () => {
    const envelope = (id: string, retry: number) => ({
      envelope_id: id,
      type: 'events_api',
      accepts_response_payload: false,
      retry_attempt: retry,
      retry_reason: retry === 0 ? '' : 'timeout',
      payload: {
        team_id: 'T1',
        api_app_id: 'A1',
        type: 'event_callback',
        event_id: 'Ev0SOCKET1',
        event_time: 1,
        event: { type: 'app_home_opened', user: USERS.operator, channel: 'D1', tab: 'home', event_ts: '1.1' },
      },
    });
    socket.send(envelope('env-2', 0));
    socket.send(envelope('env-3', 1));
    await t.api.waitFor(
      () => socket.acks.filter((a) => a.envelope_id === 'env-2' || a.envelope_id === 'env-3').length === 2,
    );
    await t.api.waitFor(() => t.api.callsOf('views.publish').length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(t.api.callsOf('views.publish')).toHaveLength(1);
  });
});
