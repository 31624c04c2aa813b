import { isIP } from 'node:net';

/** 127.0.0.0/8, ::1 and `localhost`: addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/** The host part of a URL: IPv6 addresses go in brackets. */
export function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** `host[:port]` of a Host header or a configured name, lower case; the name alone and with its port. */
function parseHost(value: string): { name: string; withPort: string } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^\s:[\]/]+)(?::(\d{1,5}))?$/i.exec(value.trim());
  if (match === null) return undefined;
  const name = match[1]!.toLowerCase();
  return { name, withPort: match[2] === undefined ? name : `${name}:${match[2]}` };
}

/**
 * DNS-rebinding protection by the Host header (MCP transport spec): a page that points its own
 * name at this machine makes the browser send that name, Origin or not. Allowed: loopback names on
 * any port, and each configured name (`host`: any port; `host:port`: that port only), e.g. the
 * public name a TLS proxy or tunnel forwards. A request without a Host is refused too.
 */
export function hostAllowed(header: string | undefined, allowed: readonly string[]): boolean {
  if (header === undefined) return false;
  const host = parseHost(header);
  if (host === undefined) return false;
  if (isLoopbackHost(host.name)) return true;
  return allowed.some((entry) => {
    const wanted = parseHost(entry);
    return (
      wanted !== undefined &&
      (wanted.withPort === wanted.name ? wanted.name === host.name : wanted.withPort === host.withPort)
    );
  });
}
