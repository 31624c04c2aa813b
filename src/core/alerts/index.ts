export { AlertBook, type NewAlert } from './book.js';
export {
  ALERTS_ACTOR,
  type AlertPost,
  type BalanceAlerts,
  type CheckDeps,
  checkAlerts,
  type PostAlert,
} from './check.js';
export { decide, type PostKind, type Reading } from './decide.js';
export type { AlertLevel, AlertStore, BalanceAlert } from './store.js';
export { type AlertView, AlertViewSchema, alertView } from './view.js';
