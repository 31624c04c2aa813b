import { describe, expect, it } from 'vitest';
import { localWorkspaceSetting } from '../../src/try/availability.js';

/** Where `bankops serve` offers the local Slack workspace: nowhere real money or others are. */
describe('the local workspace is served', () => {
  const on = {
    wanted: true,
    slackConfigured: false,
    sandboxUrl: 'http://127.0.0.1:1',
    loopback: true,
    sharedDatabase: false,
  };

  it('on the sandbox, without Slack credentials, on loopback', () => {
    expect(localWorkspaceSetting(on)).toEqual({ on: true, sandboxUrl: 'http://127.0.0.1:1' });
  });

  it('not with --no-try, Slack credentials, a real service, a listener others can reach or replicas', () => {
    expect(localWorkspaceSetting({ ...on, wanted: false })).toEqual({ on: false, why: '--no-try' });
    expect(localWorkspaceSetting({ ...on, slackConfigured: true })).toMatchObject({
      on: false,
      why: expect.stringContaining('SLACK_BOT_TOKEN'),
    });
    expect(localWorkspaceSetting({ ...on, sandboxUrl: undefined })).toMatchObject({
      on: false,
      why: expect.stringContaining('real payouts'),
    });
    expect(localWorkspaceSetting({ ...on, loopback: false })).toMatchObject({
      on: false,
      why: expect.stringContaining('not on loopback'),
    });
    expect(localWorkspaceSetting({ ...on, sharedDatabase: true })).toMatchObject({
      on: false,
      why: expect.stringContaining('BANKOPS_DATABASE_URL'),
    });
  });
});
