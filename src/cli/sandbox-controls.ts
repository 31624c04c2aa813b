import { z } from 'zod';
import { ArgsError, inputFromArgs } from '../present/args.js';
import { FaultSchema } from '../sandbox/faults.js';
import { UsageError } from './io.js';

/**
 * `bankops sandbox reset | status | clock | faults | rates`: each a request to the sandbox's control
 * surface (`/_sandbox/…`, docs/sandbox.md) built from the arguments, and a sentence on its answer.
 */

export interface ControlRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: unknown;
}

export interface SandboxControl {
  request(args: readonly string[]): ControlRequest;
  describe(answer: Record<string, unknown>): string;
}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `+90s`, `90`, `+5m`, `+2h`, `+1d` → seconds. */
function durationSeconds(text: string): number {
  const match = /^\+?(\d+(?:\.\d+)?)([smhd]?)$/.exec(text.trim());
  if (match === null)
    throw new UsageError(`clock takes a step forward like +90s, +5m, +2h or +1d, not '${text}'`);
  return Number(match[1]) * (UNITS[match[2] || 's'] ?? 1);
}

const clockLine = (answer: Record<string, unknown>): string =>
  `Sandbox clock: ${String(answer.now)} (${Number(answer.offsetSeconds ?? 0) >= 0 ? '+' : ''}${String(answer.offsetSeconds)} s from real time)`;

interface FaultEntry {
  id: number;
  fault: z.infer<typeof FaultSchema>;
  remaining: number | null;
}

function faultLine(entry: FaultEntry): string {
  const f = entry.fault;
  const effects = [
    f.latencyMs === undefined ? undefined : `${f.latencyMs} ms late`,
    f.status === undefined ? undefined : `HTTP ${f.status}`,
    f.timeout ? 'never answered' : undefined,
    f.malformed ? 'malformed body' : undefined,
  ].filter((e) => e !== undefined);
  const left =
    entry.remaining === null
      ? 'until cleared'
      : `${entry.remaining} more time${entry.remaining === 1 ? '' : 's'}`;
  return `  ${entry.id}: ${f.method ?? 'any method'} ${f.path}: ${effects.join(', ') || 'no effect'}, ${left}`;
}

const FAULT_FIELDS = z.toJSONSchema(FaultSchema, { io: 'input' }) as Record<string, unknown>;

function faultBody(path: string, args: readonly string[]): unknown {
  try {
    return { path, ...inputFromArgs(args, FAULT_FIELDS) };
  } catch (error) {
    if (error instanceof ArgsError) throw new UsageError(`faults: ${error.message}`);
    throw error;
  }
}

function ratesBody(args: readonly string[]): unknown {
  const rates: Record<string, number> = {};
  for (const arg of args) {
    const match = /^([A-Z]{3})=(\d+(?:\.\d+)?)$/.exec(arg);
    if (match?.[1] === undefined)
      throw new UsageError(`rates are CUR=<USD per unit>, like EUR=1.2, not '${arg}'`);
    rates[match[1]] = Number(match[2]);
  }
  return { rates };
}

export const SANDBOX_CONTROLS: Record<string, SandboxControl> = {
  status: {
    request: () => ({ method: 'GET', path: '/_sandbox/clock' }),
    describe: clockLine,
  },
  reset: {
    request: () => ({ method: 'POST', path: '/_sandbox/reset' }),
    describe: () => 'Sandbox reset to its seed data; injected faults cleared (the clock keeps its offset).',
  },
  clock: {
    request: ([step]) =>
      step === undefined
        ? { method: 'GET', path: '/_sandbox/clock' }
        : { method: 'POST', path: '/_sandbox/clock', body: { advanceSeconds: durationSeconds(step) } },
    describe: clockLine,
  },
  faults: {
    request: ([first, ...rest]) => {
      if (first === undefined || first === 'list') return { method: 'GET', path: '/_sandbox/faults' };
      if (first === 'clear') return { method: 'DELETE', path: '/_sandbox/faults' };
      if (!first.startsWith('/'))
        throw new UsageError(`faults takes a path like /svc/banking/* first, not '${first}'`);
      return { method: 'POST', path: '/_sandbox/faults', body: faultBody(first, rest) };
    },
    describe: (answer) => {
      if (typeof answer.id === 'number') {
        const fault = answer.fault as FaultEntry['fault'];
        return `Fault ${answer.id} added:\n${faultLine({ id: answer.id, fault, remaining: fault.times ?? null })}`;
      }
      const faults = (answer.faults ?? []) as FaultEntry[];
      return faults.length === 0
        ? 'No faults injected.'
        : `Faults injected:\n${faults.map(faultLine).join('\n')}`;
    },
  },
  rates: {
    // Without arguments, the rates in force (as `clock` shows the clock); with CUR=rate, moves them.
    request: (args) =>
      args.length === 0
        ? { method: 'GET', path: '/_sandbox/banking/rates' }
        : { method: 'POST', path: '/_sandbox/banking/rates', body: ratesBody(args) },
    describe: (answer) => {
      const rates = (answer.usdPerUnit ?? {}) as Record<string, number>;
      return `Mid-market rates (USD per unit): ${Object.entries(rates)
        .map(([currency, rate]) => `${currency} ${rate}`)
        .join(', ')}. New quotes use them; rates EUR=1.2 moves one, a reset restores the seed.`;
    },
  },
};
