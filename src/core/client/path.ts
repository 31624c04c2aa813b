/**
 * Template tag for request paths: every interpolated value is percent-encoded as one path segment
 * (or query value), so an id can never change the path. `path\`/payouts/${id}\``.
 */
export function path(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  return strings.reduce(
    (out, literal, i) => out + literal + (i < values.length ? encodeURIComponent(String(values[i])) : ''),
    '',
  );
}
