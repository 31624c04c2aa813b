import { accountsApi } from './api/accounts.js';
import { authApi, usersApi } from './api/auth.js';
import { beneficiariesApi } from './api/beneficiaries.js';
import { conversionsApi } from './api/conversions.js';
import { issuingAApi } from './api/issuing-a.js';
import { issuingBApi } from './api/issuing-b.js';
import { notificationsApi } from './api/notifications.js';
import { payoutsApi } from './api/payouts.js';
import { type ClientConfig, HttpClient } from './http.js';

/**
 * The typed client of the whole service: one method per operation of the spec, grouped by area.
 * Every method takes `CallOptions` last (`requestId` makes a retry the same request).
 */
export function createServiceClient(config: ClientConfig) {
  const http = new HttpClient(config);
  return {
    http,
    auth: authApi(http),
    users: usersApi(http),
    accounts: accountsApi(http),
    beneficiaries: beneficiariesApi(http),
    conversions: conversionsApi(http),
    payouts: payoutsApi(http),
    issuingA: issuingAApi(http),
    issuingB: issuingBApi(http),
    notifications: notificationsApi(http),
    close: () => http.close(),
  };
}

export type ServiceClient = ReturnType<typeof createServiceClient>;
export { isServiceError, ServiceError, type ServiceErrorKind } from './errors.js';
export type { CallOptions, ClientConfig, Dispatch, ResponseEvent } from './http.js';
