import type { HttpClient } from '../http.js';

/** Placeholder until the area is implemented. */
export function issuingBApi(_http: HttpClient) {
  return {};
}
