import type { ResponseEvent } from '../core/client/index.js';
import { type CliStream, cliIo } from './io.js';

/**
 * What a call is doing, on stderr, for people at a terminal: nothing for the first second (most
 * calls are done by then), then a spinner with the latest step and the time taken; each attempt the
 * service did not answer gets a line of its own, since it may be sent again. Never on stdout, never
 * when stderr is not a terminal.
 */

export interface Progress {
  /** A step of the work (`quoting`, a tool's own progress message). */
  step(message: string): void;
  /** An attempt at the service ended: failed attempts are told, as re-sends may follow. */
  service(event: ResponseEvent): void;
  /** Clears the spinner; the result follows on stdout. */
  stop(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const DELAY_MS = 1000;
const TICK_MS = 100;

const quiet: Progress = { step: () => {}, service: () => {}, stop: () => {} };

function failed(event: ResponseEvent): string {
  const why =
    event.errorKind === 'timeout'
      ? 'no answer in time'
      : event.errorKind === 'network'
        ? 'the connection failed'
        : event.httpStatus !== undefined && event.httpStatus >= 500
          ? `HTTP ${event.httpStatus} from the service`
          : event.httpStatus === 429
            ? 'the service asked to slow down (HTTP 429)'
            : undefined;
  if (why === undefined) return '';
  return `${event.operation}: ${why} after ${(event.ms / 1000).toFixed(1)} s (attempt ${event.attempt}, request id ${event.requestId}); it may be sent again with the same request id`;
}

/** Starts showing progress of `what` on stderr if stderr is a terminal; a no-op otherwise. */
export function startProgress(
  what: string,
  stream: CliStream = cliIo().stderr,
  enabled = stream.isTTY === true,
): Progress {
  if (!enabled) return quiet;
  const started = Date.now();
  let message = 'waiting for the service';
  let frame = 0;
  let shown = false;
  const draw = (): void => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    stream.write(`\r\u001b[K${FRAMES[frame % FRAMES.length]} ${what}: ${message} (${seconds} s)`);
    frame += 1;
    shown = true;
  };
  const clear = (): void => {
    if (shown) stream.write('\r\u001b[K');
    shown = false;
  };
  let ticker: NodeJS.Timeout | undefined;
  const delay = setTimeout(() => {
    draw();
    ticker = setInterval(draw, TICK_MS);
    ticker.unref();
  }, DELAY_MS);
  delay.unref();
  return {
    step: (next) => {
      message = next;
    },
    service: (event) => {
      const line = failed(event);
      if (line === '') return;
      clear();
      stream.write(`${line}\n`);
      message = 'still working';
    },
    stop: () => {
      clearTimeout(delay);
      if (ticker !== undefined) clearInterval(ticker);
      clear();
    },
  };
}
