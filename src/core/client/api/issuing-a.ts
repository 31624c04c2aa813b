import type { HttpClient } from '../http.js';

/** Placeholder until the area is implemented. */
export function issuingAApi(_http: HttpClient) {
  return {};
}
