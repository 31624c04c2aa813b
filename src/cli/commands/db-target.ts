import { CodedError, ErrorCode } from '../../core/errors.js';
import { createPgPool, type PgPoolOptions, type PgStore } from '../../core/store/postgres/pool.js';
import { EXIT, err, errorLine } from '../io.js';

/** A pool for a command that runs a few statements, named in `pg_stat_activity`. */
export const commandPool = (url: string, name: string, options: PgPoolOptions = {}): PgStore =>
  createPgPool(url, { applicationName: `bankops ${name}`, max: 2, ...options });

/**
 * Runs `work`; a bankops error (an unreachable database, a refusal) is one line on stderr and exit
 * status 1, whatever its code: the command ran and did not do what was asked.
 */
export async function refusalsExitOne(work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof CodedError) || error.code === ErrorCode.Usage) throw error;
    err(`${errorLine(error.message.split('\n')[0] ?? '')}\n`);
    return EXIT.failed;
  }
}
