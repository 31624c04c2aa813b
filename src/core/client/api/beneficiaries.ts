import type { HttpClient } from '../http.js';

/** Placeholder until the area is implemented. */
export function beneficiariesApi(_http: HttpClient) {
  return {};
}
