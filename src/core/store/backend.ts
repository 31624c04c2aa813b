import type { Db } from '../db.js';
import type { PgStore } from './postgres/pool.js';

/** The database everything durable is in: the SQLite file, or PostgreSQL (`BANKOPS_DATABASE_URL`). */
export type Backend = { kind: 'sqlite'; db: Db } | { kind: 'postgres'; store: PgStore };
