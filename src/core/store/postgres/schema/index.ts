import { ALERTS_V3 } from './alerts.js';
import { APPROVAL_POLICY_V11 } from './approval-policy.js';
import { APPROVALS_V1 } from './approvals.js';
import { AUDIT_V1 } from './audit.js';
import { AUDIT_APPEND_V4 } from './audit-append.js';
import { BREAK_GLASS_LINKS_V14, BREAK_GLASS_V13 } from './break-glass.js';
import { CONTROLS_V8 } from './controls.js';
import { DIRECTORIES_V1 } from './directories.js';
import { GOVERNANCE_V7 } from './governance.js';
import { HOLDS_COUNT_V15, HOLDS_V10 } from './holds.js';
import { JSON_COLUMNS_V6 } from './json-columns.js';
import { KEY_CHECKS_V9 } from './key-checks.js';
import { QUORUM_V12 } from './quorum.js';
import { SCHEDULE_BY_AGE_V5, SCHEDULE_V2 } from './schedule.js';
import { SLACK_V1 } from './slack.js';

export interface Migration {
  /** 1, 2, 3…: applied in order, each once, recorded in `schema_version`. */
  version: number;
  name: string;
  statements: readonly string[];
}

/** Every version of the PostgreSQL schema. Append only: a released version never changes. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'tables', statements: [...APPROVALS_V1, ...AUDIT_V1, ...SLACK_V1, ...DIRECTORIES_V1] },
  { version: 2, name: 'schedule claims', statements: SCHEDULE_V2 },
  { version: 3, name: 'balance alerts', statements: ALERTS_V3 },
  { version: 4, name: 'audit append in one statement', statements: AUDIT_APPEND_V4 },
  { version: 5, name: 'schedule claims by age', statements: SCHEDULE_BY_AGE_V5 },
  { version: 6, name: 'JSON columns as json', statements: JSON_COLUMNS_V6 },
  { version: 7, name: 'policy versions', statements: GOVERNANCE_V7 },
  { version: 8, name: 'payee payouts', statements: CONTROLS_V8 },
  { version: 9, name: 'key checks', statements: KEY_CHECKS_V9 },
  { version: 10, name: 'money holds', statements: HOLDS_V10 },
  { version: 11, name: 'approval policy version', statements: APPROVAL_POLICY_V11 },
  { version: 12, name: 'quorum groups', statements: QUORUM_V12 },
  { version: 13, name: 'break-glass reviews', statements: BREAK_GLASS_V13 },
  { version: 14, name: 'break-glass passkey links', statements: BREAK_GLASS_LINKS_V14 },
  { version: 15, name: 'running totals in one call', statements: HOLDS_COUNT_V15 },
];

/** The newest version this code knows. */
export const LATEST_VERSION = MIGRATIONS.reduce((latest, m) => Math.max(latest, m.version), 0);
