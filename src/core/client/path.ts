import { ServiceError } from './errors.js';

/**
 * Template tag for request paths: every interpolated value is percent-encoded as one path segment
 * (or query value), so an id can never change the path. `path\`/payouts/${id}\``. A value that
 * cannot be encoded (an unpaired surrogate) is refused as `not_sent`: nothing left the process.
 */
export function path(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  return strings.reduce(
    (out, literal, i) => out + literal + (i < values.length ? segment(values[i]) : ''),
    '',
  );
}

function segment(value: string | number | undefined): string {
  try {
    return encodeURIComponent(String(value));
  } catch (error) {
    throw new ServiceError({
      kind: 'not_sent',
      operation: 'path',
      message: 'an id in the path holds a character that cannot be sent (an unpaired surrogate)',
      cause: error,
    });
  }
}
