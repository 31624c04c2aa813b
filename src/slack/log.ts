import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../core/log.js';
import { sanitizeText } from '../core/redact.js';

const text = (parts: unknown[]): string =>
  parts
    .map((part) =>
      part instanceof Error ? part.message : typeof part === 'string' ? part : JSON.stringify(part),
    )
    .join(' ');

/**
 * Bolt's and the Web API client's logging into our structured log. Their debug output is dropped
 * (it can echo payloads), and every line is scrubbed of the Slack tokens and signing secret.
 */
export function boltLogger(log: Logger, secrets: readonly string[]): BoltLogger {
  let level: LogLevel = LogLevel.INFO;
  const clean = (parts: unknown[]): string => sanitizeText(text(parts), secrets);
  return {
    debug: () => {},
    info: (...parts: unknown[]) => log.info(`slack: ${clean(parts)}`),
    warn: (...parts: unknown[]) => log.warn(`slack: ${clean(parts)}`),
    error: (...parts: unknown[]) => log.error(`slack: ${clean(parts)}`),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
