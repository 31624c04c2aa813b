#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { credentialsFromEnv, startSandbox } from './sandbox/index.js';

const HELP = `bankops: chat-ops, MCP tools and CLI for the banking, card-issuing and notification service

Usage:
  bankops sandbox [--port <port>] [--verbose]   run the embedded sandbox of the service on 127.0.0.1
  bankops help                                  show this help

Environment:
  BANKOPS_API_KEY, BANKOPS_PRODUCT_ID, BANKOPS_USER_ID, BANKOPS_COMPANY_ID, BANKOPS_USER_EMAIL,
  BANKOPS_PROGRAM_CODE, BANKOPS_AGENT_CODE, BANKOPS_SUBAGENT_CODE
    credentials the sandbox accepts (defaults in docs/sandbox.md)
`;

const SANDBOX_HELP = `Usage: bankops sandbox [--port <port>] [--verbose]

Runs a stateful implementation of every operation of the service on 127.0.0.1, with seeded demo
data. The control surface is under /_sandbox/ (reset, clock, faults, stats, deliveries).

Options:
  --port <port>   port to listen on (default 4010; 0 picks a free port)
  --verbose       log every request to stderr
`;

async function sandboxCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '4010' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(SANDBOX_HELP);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be an integer between 0 and 65535, got '${values.port}'`);
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
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'sandbox':
      return sandboxCommand(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(HELP);
      return;
    default:
      process.stderr.write(`unknown command '${command}'\n\n${HELP}`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`bankops: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
