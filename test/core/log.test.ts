import { describe, expect, it } from 'vitest';
import { CodedError, ErrorCode } from '../../src/core/errors.js';
import { createLogger } from '../../src/core/log.js';

describe('the log', () => {
  it('writes an error as {name, code, message, stack, cause}, the cause too', () => {
    const lines: string[] = [];
    const log = createLogger('info', (line) => lines.push(line));
    const cause = new Error('socket hang up');
    log.error('a listener failed', {
      tool: 'get_balances',
      error: new CodedError({ code: ErrorCode.Network, message: 'no answer', original: cause }),
    });
    const written = JSON.parse(lines[0] ?? '{}');
    expect(written).toMatchObject({
      level: 'error',
      message: 'a listener failed',
      tool: 'get_balances',
      error: {
        name: 'CodedError',
        code: 'network',
        message: 'no answer',
        cause: { name: 'Error', message: 'socket hang up' },
      },
    });
    expect(written.error.stack).toMatch(/^CodedError: no answer\n\s+at /);
    expect(written.error.cause.stack).toMatch(/^Error: socket hang up\n\s+at /);
  });

  it('writes what is not an Error as text', () => {
    const lines: string[] = [];
    createLogger('info', (line) => lines.push(line)).warn('odd', { error: 'plain words' });
    expect(JSON.parse(lines[0] ?? '{}').error).toBe('plain words');
  });
});
