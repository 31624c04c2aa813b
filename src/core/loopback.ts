/** `http://127.0.0.1:4010`, `http://localhost:…`, `http://[::1]:…`. */
export function isLoopback(url: string | undefined): boolean {
  if (url === undefined) return false;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
