import type { HttpClient } from '../http.js';

/** Placeholder until the area is implemented. */
export function payoutsApi(_http: HttpClient) {
  return {};
}
