/**
 * DNS-rebinding protection (MCP transport spec: servers MUST validate Origin). A page on another
 * site that resolves its name to 127.0.0.1 makes the browser send requests here with its own
 * Origin; those are refused. Requests without an Origin (MCP clients, curl) are not from a browser
 * page and pass on to authentication.
 */
export function loopbackOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
}

/** Normalizes configured origins: lower case, no trailing slash, as browsers send them. */
export function normalizeOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, '').toLowerCase();
}

export function originAllowed(origin: string | undefined, allowed: ReadonlySet<string>): boolean {
  return origin === undefined || allowed.has(normalizeOrigin(origin));
}
