/**
 * DNS-rebinding protection by Origin (MCP transport spec: servers MUST validate Origin). A page on
 * another site that resolves its name to 127.0.0.1 makes the browser send requests here with its
 * own Origin; those are refused. Requests without an Origin (MCP clients, curl) are not from a
 * browser page; the Host check applies to them.
 */
function loopbackOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
}

/** Normalizes configured origins: lower case, no trailing slash, as browsers send them. */
export function normalizeOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, '').toLowerCase();
}

/**
 * Allowed: no Origin, this listener's own loopback origins (`port`: the port the request came in
 * on), and the configured ones.
 */
export function originAllowed(
  origin: string | undefined,
  port: number,
  configured: ReadonlySet<string>,
): boolean {
  if (origin === undefined) return true;
  const normalized = normalizeOrigin(origin);
  return configured.has(normalized) || loopbackOrigins(port).includes(normalized);
}
