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
