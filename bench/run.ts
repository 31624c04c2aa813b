// `npm run bench`: every benchmark in turn. Not part of the tests.
await import('./audit.bench.js');
await import('./postgres-audit.bench.js');
await import('./db-copy.bench.js');
await import('./core.bench.js');
await import('./cli.bench.js');
await import('./mcp.bench.js');
await import('./slack.bench.js');
await import('./slack-approvals.bench.js');
await import('./replicas.bench.js');
await import('./passkeys.bench.js');
await import('./metrics.bench.js');
await import('./scheduler.bench.js');
await import('./oauth.bench.js');
await import('./limits.bench.js');
