/**
 * The PostgreSQL layer: small modules whose functions take a pool (`PgStore`) or a transaction's
 * client, for the stores' PostgreSQL implementations to build on. No store interface here.
 */
export { auditHead, auditRowsAfter } from './audit.js';
export { verifyAuditLog } from './audit-verify.js';
export { databaseUnreachable, isTransient, isUnreachable, sqlState } from './errors.js';
export type { FeedEvent, FeedPosition, NewFeedEvent } from './feed.js';
export { appendFeedEvent, eventsOf, FEED_CHANNEL, FEED_START, feedHead, readFeed } from './feed.js';
export type { ConsumeResult, GroupHandler } from './feed-group.js';
export { consumeGroup, ensureGroup, groupPosition, groupTurn } from './feed-group.js';
export { FeedListener, type FeedListenerOptions } from './feed-listener.js';
export { PgFeedSharing } from './feed-sharing.js';
export { type MigrateOptions, type MigrateResult, migrate, schemaVersion } from './migrate.js';
export type { PgPoolOptions, PgStore, Queryable } from './pool.js';
export { connect, createPgPool, ping } from './pool.js';
export { grantRuntimeRole, runtimeGrantsSql } from './roles.js';
export { LATEST_VERSION } from './schema/index.js';
export { type TransactionOptions, withTransaction } from './transaction.js';
export { describeDatabase, isPostgresUrl } from './url.js';
