import type { HttpClient } from '../http.js';

/** Placeholder until the area is implemented. */
export function conversionsApi(_http: HttpClient) {
  return {};
}
