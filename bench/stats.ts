import { loadavg } from 'node:os';

/** The middle of the samples (the upper middle of an even count); NaN for none. */
export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** The machine's load averages (1, 5, 15 minutes), printed beside figures measured on it. */
export const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
