export { AuditBacklogFullError, AuditFilterError, AuditInputError, AuditLogCorruptError } from './errors.js';
export { entryHash, GENESIS_HASH } from './hash.js';
export type { AppendOptions, AuditLogOptions, RecordOptions } from './log.js';
export { AuditLog } from './log.js';
export type { AuditRow } from './rows.js';
export type {
  AuditAnchor,
  AuditContent,
  AuditDecision,
  AuditEntry,
  AuditEntryInput,
  AuditEvent,
  AuditFilter,
  AuditOutcome,
  AuditVerifyResult,
  FrontEnd,
} from './schema.js';
export {
  auditEntryInputSchema,
  decisionSchema,
  eventSchema,
  frontEndSchema,
  MAX_ERROR_LENGTH,
  outcomeSchema,
} from './schema.js';
export type { AuditStore } from './store.js';
