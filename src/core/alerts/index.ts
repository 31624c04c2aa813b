export { ALERTS_ACTOR, type AlertPost, checkAlerts, type PostAlert } from './check.js';
export { decide, type PostKind, type Reading } from './decide.js';
export {
  type AlertResult,
  type AlertsDeps,
  BalanceAlerts,
  type NewAlert,
} from './manage.js';
export { ALERT_ACTIONS } from './policy.js';
export type { AlertLevel, AlertStore, BalanceAlert } from './store.js';
