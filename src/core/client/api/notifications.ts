import type { HttpClient } from '../http.js';

/** Placeholder until the area is implemented. */
export function notificationsApi(_http: HttpClient) {
  return {};
}
