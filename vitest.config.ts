import { accessSync, constants } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * The tests' temporary files (their SQLite databases among them, and those of the child processes
 * they start) go on the RAM disk where there is one. Every commit to a core database is fsynced
 * (`synchronous = FULL`); on a shared virtual disk those waits cost more than the tests' own work,
 * and nothing a test proves depends on a file surviving a power cut (a killed process is not one:
 * what it wrote stays). The files are still real SQLite files in WAL mode.
 */
function ramDisk(): Record<string, string> {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return { TMPDIR: '/dev/shm' };
  } catch {
    return {};
  }
}

/**
 * End-to-end tests: through the built binary, child processes on one database, the front ends'
 * HTTP listener (`bankops serve`, MCP over HTTP, Slack's Request URL with its tunnel, the passkey
 * pages), the browser (test/web: the passkey pages on serve's listener and in Chromium; the local
 * Slack workspace, test/try/workspace-browser.test.ts) and the
 * PostgreSQL server (a database per file; the store contracts run there against both backends).
 * Everything else is `unit`: in one process, against the sandbox on loopback, needing no server.
 */
const E2E = [
  'test/cli/against-service.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/approvals-break-glass.test.ts',
  'test/cli/code-cache.test.ts',
  'test/cli/in-process-sandbox.test.ts',
  'test/cli/db-migrate.test.ts',
  'test/cli/readable.test.ts',
  'test/cli/sandbox.test.ts',
  'test/cli/secrets.test.ts',
  'test/scripts/**',
  'test/web/**',
  'test/try/workspace-browser.test.ts',
  'test/mcp/stdio.test.ts',
  'test/mcp/http.test.ts',
  'test/mcp/http-modern.test.ts',
  'test/mcp/http-serve.test.ts',
  'test/slack/serve.test.ts',
  'test/slack/http.test.ts',
  'test/slack/break-glass.test.ts',
  'test/slack/socket-mode.test.ts',
  'test/slack/webhooks.test.ts',
  'test/slack/approvals-feed.test.ts',
  'test/slack/approvals-outage.test.ts',
  'test/core/approvals/crash.test.ts',
  'test/core/approvals/concurrency.test.ts',
  'test/core/totals/limits-processes.test.ts',
  'test/core/approvals/feed.test.ts',
  'test/core/audit/concurrency.test.ts',
  'test/core/audit/group-commit.test.ts',
  'test/core/audit/outage.test.ts',
  'test/core/store/postgres/**',
  'test/core/store/storage.test.ts',
  'test/core/store/break-glass-store.test.ts',
  'test/core/approvals/break-glass-postgres.test.ts',
  'test/core/alerts/store.test.ts',
  'test/core/store/directories.test.ts',
  'test/core/approvals/resend-window-postgres.test.ts',
  'test/core/policy/policy-wakeups.test.ts',
  'test/slack/stores.test.ts',
  'test/slack/postgres-outbox.test.ts',
  'test/slack/reminders-postgres.test.ts',
  'test/cli/db-copy.test.ts',
  'test/cli/db-copy-tables.test.ts',
  'test/cli/postgres-database.test.ts',
  'test/slack/database-down.test.ts',
  'test/slack/database-down-settle.test.ts',
  'test/slack/database-stalled.test.ts',
  'test/cli/shared-sandbox-payees.test.ts',
  'test/replicas/**/*.test.ts',
  // The PostgreSQL server's files among the audit writer's and the CLI's (each runs on SQLite too).
  'test/cli/approve-database-lost.test.ts',
  'test/cli/config-check-database.test.ts',
  'test/cli/fingerprint-key-check.test.ts',
  'test/core/audit/close-hung-barrier.test.ts',
  'test/core/audit/thread-writer.test.ts',
  'test/core/audit/writer-faults.test.ts',
  'test/core/policy/governance.test.ts',
  'test/core/policy/versions.test.ts',
];

export default defineConfig({
  test: {
    // Long enough for a busy machine (two suites at once on two cores): a test waits for events,
    // and one that passes returns as soon as they happen, so this only bounds a failure.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Transformed modules kept between runs (node_modules/.experimental-vitest-cache, keyed by
    // content): a second run skips most of the transform, about 10% of the unit project's CPU.
    experimental: { fsModuleCache: true },
    // Most files wait on the sandbox, child processes and sockets more than they compute: three at
    // a time keep both cores busy (vitest's default on two cores is one file at a time).
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: E2E,
          env: ramDisk(),
          // One module graph per worker: the app's schemas and tools load once, not once a file.
          // Every file builds its own sandbox, runtime and database, so nothing leaks between them.
          isolate: false,
          // These files compute more than they wait: one worker a core, and each worker loads the
          // app's modules once (a third worker cost about 15% more CPU for no time saved).
          maxWorkers: 2,
          // Run first, on its own: a broken core shows in seconds, before the binary's runs.
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          env: ramDisk(),
          include: E2E,
          // A run of the binary takes a second or more on a busy machine; a test runs several.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Tests of the binary run what dist/ holds: it is built first when older than its sources.
          globalSetup: ['test/global-setup.ts'],
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
