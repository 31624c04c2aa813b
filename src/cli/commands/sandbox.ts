import { parseArgs } from 'node:util';
import { credentialsFromEnv, startSandbox } from '../../sandbox/index.js';
import { UsageError } from '../io.js';

export const SANDBOX_HELP = `Usage: bankops sandbox [--port <port>] [--verbose]

Runs a stateful implementation of every operation of the service on 127.0.0.1, with seeded demo
data (docs/sandbox.md). The control surface is under /_sandbox/ (reset, clock, faults, stats,
deliveries). It accepts the credentials in BANKOPS_API_KEY, BANKOPS_PRODUCT_ID, BANKOPS_USER_ID,
BANKOPS_COMPANY_ID (defaults: sandbox-api-key, sandbox-product, usr_demo_0001, CMP-DEMO).

Options:
  --port <port>   port to listen on (default 4010; 0 picks a free port)
  --verbose       log every request to stderr
`;

export async function sandboxCommand(args: string[]): Promise<number | 'running'> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '4010' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(SANDBOX_HELP);
    return 0;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be an integer between 0 and 65535, got '${values.port}'`, SANDBOX_HELP);
  }
  const credentials = credentialsFromEnv();
  const sandbox = await startSandbox(port, {
    credentials,
    ...(values.verbose
      ? {
          onRequest: (r) =>
            process.stderr.write(
              `${r.method} ${r.path} ${r.status} ${r.operation ?? '-'} ${r.ms.toFixed(1)}ms\n`,
            ),
        }
      : {}),
  });
  process.stderr.write(
    `bankops sandbox listening on ${sandbox.url}\n` +
      `  company ${credentials.companyId}, user ${credentials.userId} <${credentials.userEmail}>, ` +
      `program ${credentials.programCode}\n  Ctrl-C to stop\n`,
  );
  const stop = (): void => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return 'running';
}
