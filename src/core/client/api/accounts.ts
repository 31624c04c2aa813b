import type { HttpClient } from '../http.js';

/** Placeholder until the area is implemented. */
export function accountsApi(_http: HttpClient) {
  return {};
}
