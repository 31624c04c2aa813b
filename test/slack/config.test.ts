import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config.js';
import { parseSlackSettings } from '../../src/slack/config.js';

describe('Slack settings from the environment', () => {
  it('is off without a bot token, says why, and picks HTTP or Socket Mode from the other variables', () => {
    expect(parseSlackSettings({})).toEqual({ enabled: false, why: 'SLACK_BOT_TOKEN is not set' });
    const http = parseSlackSettings({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret-123' });
    expect(http).toMatchObject({ enabled: true, config: { mode: 'http', apiUrl: 'https://slack.com/api/' } });
    const socket = parseSlackSettings({
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_APP_TOKEN: 'xapp-1',
      SLACK_API_URL: 'http://127.0.0.1:9/api',
      BANKOPS_SLACK_AUDIT_CHANNEL: 'C0AUDIT',
    });
    expect(socket).toMatchObject({
      enabled: true,
      config: { mode: 'socket', apiUrl: 'http://127.0.0.1:9/api/', auditChannel: 'C0AUDIT' },
    });
  });

  it('stops start-up on a half or malformed setting, naming the variable', () => {
    const problems = (env: Record<string, string>) => {
      try {
        parseSlackSettings(env);
        return [];
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        return error.problems;
      }
    };
    expect(problems({ SLACK_SIGNING_SECRET: 'secret-123' })).toEqual([
      'SLACK_SIGNING_SECRET: set, but SLACK_BOT_TOKEN is not (Slack needs both)',
    ]);
    expect(problems({ SLACK_BOT_TOKEN: 'xoxb-1' })[0]).toMatch(/^SLACK_BOT_TOKEN: set, but neither/);
    expect(problems({ SLACK_BOT_TOKEN: 'xoxp-user-token', SLACK_SIGNING_SECRET: 'secret-123' })[0]).toMatch(
      /^SLACK_BOT_TOKEN: must be a bot token/,
    );
    expect(
      problems({
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_SIGNING_SECRET: 'secret-123',
        BANKOPS_SLACK_AUDIT_CHANNEL: '#audit',
      })[0],
    ).toMatch(/^BANKOPS_SLACK_AUDIT_CHANNEL: must be a channel id/);
  });
});

describe('manifest.json', () => {
  const root = join(import.meta.dirname, '..', '..');
  const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8'));
  const docs = readFileSync(join(root, 'docs', 'slack.md'), 'utf8');

  it('declares /bank with escaped channels, interactivity, the Home tab, Socket Mode and the one event listened to', () => {
    expect(manifest.features.slash_commands).toEqual([
      expect.objectContaining({ command: '/bank', should_escape: true }),
    ]);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.features.app_home.home_tab_enabled).toBe(true);
    expect(manifest.settings.socket_mode_enabled).toBe(true);
    expect(manifest.settings.event_subscriptions.bot_events).toEqual(['app_home_opened']);
  });

  it('asks for the least bot scopes, each justified in docs/slack.md', () => {
    const scopes: string[] = manifest.oauth_config.scopes.bot;
    expect(scopes.sort()).toEqual([
      'chat:write',
      'commands',
      'im:write',
      'usergroups:read',
      'users:read',
      'users:read.email',
    ]);
    for (const scope of scopes) expect(docs).toMatch(new RegExp(`\\| \`${scope}\` \\| \\S`));
  });
});
