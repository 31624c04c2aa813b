import { parseArgs } from 'node:util';
import { liveSandbox, sandboxDatabasePath, sandboxInUse, sharedSandbox } from '../../app/shared-sandbox.js';
import { CodedError, ErrorCode } from '../../core/errors.js';
import { didYouMean } from '../../present/suggest.js';
import { cliConfig } from '../config.js';
import { EXIT, err, out, UsageError } from '../io.js';
import { outputMode } from '../output.js';
import { wrapLine } from '../render/text.js';
import { SANDBOX_CONTROLS, type SandboxControl } from '../sandbox-controls.js';

export const SANDBOX_HELP = `Usage:
  bankops sandbox [--port <port>] [--verbose]   serve the sandbox (default port 4010)
  bankops sandbox status                        which sandbox is in use, its clock and faults
  bankops sandbox reset                         restore the seed data, clear faults
  bankops sandbox clock [+90s | +5m | +2h | +1d]
                                                show the sandbox clock, or move it forward
  bankops sandbox faults [clear | <path> [latencyMs=<ms>] [status=<5xx>] [timeout=true]
                         [malformed=true] [times=<n>] [method=<GET|POST|...>]]
                                                list, clear or add injected faults
  bankops sandbox rates [<CUR>=<USD per unit> ...]
                                                show mid-market FX rates, or move them (EUR=1.2)

The sandbox is a stateful implementation of every operation of the service on 127.0.0.1, with
seeded demo data (docs/sandbox.md). Served by this command, it keeps its state in the embedded
sandbox's file beside the database (BANKOPS_DB → bankops.sandbox.db) and says so there, so
bankops call and approvals use this very sandbox while it runs: one state, wherever you look.
Without it they start the same embedded sandbox over the same file for each command.

reset, clock, faults and rates drive whichever sandbox is in use: BANKOPS_BASE_URL when it is a
bankops sandbox, else the one serving the state file, else the embedded state itself.

It accepts the credentials in BANKOPS_API_KEY, BANKOPS_PRODUCT_ID, BANKOPS_USER_ID,
BANKOPS_COMPANY_ID (defaults: sandbox-api-key, sandbox-product, usr_demo_0001, CMP-DEMO); a
client pointed at it with BANKOPS_BASE_URL=http://127.0.0.1:4010 needs none of them.

Options:
  --port <port>   port to listen on (default 4010; 0 picks a free port)
  --verbose       log every request to stderr
  --json          the sandbox's own JSON answer (reset, clock, faults, rates, status)

Exit status: 0 done, 1 the sandbox refused or could not start, 2 usage.
`;

async function serve(port: number, verbose: boolean): Promise<'running'> {
  const config = cliConfig();
  const running = await liveSandbox(config.databasePath);
  if (running !== undefined) {
    throw new CodedError({
      code: ErrorCode.NotSent,
      message: `a sandbox already serves ${sandboxDatabasePath(config.databasePath)} at ${running.url} (pid ${running.pid}); bankops call uses it, or stop it first`,
    });
  }
  const sandbox = await sharedSandbox(config, {
    share: true,
    attach: false,
    port,
    ...(verbose
      ? {
          onRequest: (r) =>
            err(`${r.method} ${r.path} ${r.status} ${r.operation ?? '-'} ${r.ms.toFixed(1)}ms\n`),
        }
      : {}),
  });
  const c = config.service;
  err(
    `bankops sandbox listening on ${sandbox.url}\n` +
      `  company ${c.companyId}, user ${c.userId} <${config.userEmail}>, program ${config.defaults.programCode}\n` +
      `  state ${sandboxDatabasePath(config.databasePath)} (bankops call and approvals use this sandbox while it runs)\n` +
      '  Ctrl-C to stop\n',
  );
  const stop = (): void => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return 'running';
}

async function drive(control: SandboxControl, args: readonly string[], json: boolean): Promise<number> {
  const request = control.request(args);
  const sandbox = await sandboxInUse(cliConfig());
  try {
    const response = await fetch(new URL(request.path, sandbox.url), {
      method: request.method,
      ...(request.body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(request.body) }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    if (!response.ok) {
      err(`bankops: the sandbox refused: ${String(body.message ?? response.status)}\n`);
      return EXIT.failed;
    }
    const where =
      sandbox.source === 'base-url'
        ? `BANKOPS_BASE_URL ${sandbox.url}`
        : sandbox.source === 'registered'
          ? `${sandbox.url}, served by pid ${sandbox.pid}`
          : `the embedded sandbox, state in ${sandboxDatabasePath(cliConfig().databasePath)}`;
    if (json) out(`${JSON.stringify(body, null, 2)}\n`);
    else {
      const width = outputMode(true).width;
      const lines = `${control.describe(body)}\n  Sandbox: ${where}.`.split('\n');
      out(`${lines.flatMap((line) => wrapLine(line, width, '    ')).join('\n')}\n`);
    }
    return EXIT.ok;
  } finally {
    await sandbox.close();
  }
}

export async function sandboxCommand(args: string[]): Promise<number | 'running'> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '4010' },
      verbose: { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    out(SANDBOX_HELP);
    return EXIT.ok;
  }
  const [sub, ...rest] = positionals;
  if (sub !== undefined) {
    const control = Object.hasOwn(SANDBOX_CONTROLS, sub) ? SANDBOX_CONTROLS[sub] : undefined;
    if (control === undefined) {
      const hint = didYouMean(sub, Object.keys(SANDBOX_CONTROLS));
      throw new UsageError(`unknown sandbox command '${sub}'${hint === '' ? '' : `; ${hint}`}`, SANDBOX_HELP);
    }
    return drive(control, rest, values.json === true);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be an integer between 0 and 65535, got '${values.port}'`, SANDBOX_HELP);
  }
  return serve(port, values.verbose === true);
}
