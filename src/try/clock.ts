import { CodedError, ErrorCode } from '../core/errors.js';

/** The sandbox's clock as its control surface tells it (`GET /_sandbox/clock`). */
export interface SandboxTime {
  now: string;
  offsetSeconds: number;
}

/** The most one click may move it: a day (approvals' deadlines are the runtime's, not the sandbox's). */
const MAX_STEP_SECONDS = 86_400;

/**
 * The page's control of the sandbox's clock: payouts settle after two minutes of sandbox time,
 * quotes expire after 75 seconds. Through the sandbox's own control surface (`/_sandbox/clock`,
 * docs/sandbox.md), as `bankops sandbox clock +2m` does: the sandbox may be another process's.
 */
export class SandboxClockControl {
  readonly #url: string;

  constructor(sandboxUrl: string) {
    this.#url = new URL('/_sandbox/clock', sandboxUrl).toString();
  }

  async read(): Promise<SandboxTime | undefined> {
    try {
      return timeOf(await (await fetch(this.#url, { signal: AbortSignal.timeout(2_000) })).json());
    } catch {
      return undefined;
    }
  }

  async advance(seconds: number): Promise<SandboxTime> {
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_STEP_SECONDS)
      throw new CodedError({
        code: ErrorCode.Usage,
        message: `move the clock forward by 1 s to ${MAX_STEP_SECONDS} s`,
      });
    const response = await fetch(this.#url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceSeconds: seconds }),
      signal: AbortSignal.timeout(5_000),
    });
    const time = timeOf(await response.json());
    if (!response.ok || time === undefined)
      throw new CodedError({
        code: ErrorCode.Service,
        message: `the sandbox did not move its clock (HTTP ${response.status})`,
      });
    return time;
  }
}

function timeOf(body: unknown): SandboxTime | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { now, offsetSeconds } = body as { now?: unknown; offsetSeconds?: unknown };
  return typeof now === 'string' && typeof offsetSeconds === 'number' ? { now, offsetSeconds } : undefined;
}
