import { parseArgs } from 'node:util';
import type { ExecuteResult } from '../../core/results.js';
import { actorFor, withRuntime } from '../context.js';
import { EXIT, parseJsonInput, printJson, UsageError } from '../io.js';

export const CALL_HELP = `Usage: bankops call <tool> [--input '<json>'] [--as <name>] [--idempotency-key <key>]

Runs one tool through the executor (validation, policy, approvals, audit) and prints the result as
JSON with its "status": ok, pending_approval, invalid, denied or failed.

Options:
  --input <json>            the tool's input (default {}); company, program and agent codes default
                            from the configuration
  --as <name>               who is acting (default BANKOPS_ACTOR or the OS user)
  --idempotency-key <key>   a retry with the same key returns the first result instead of acting twice

Exit status: 0 ok or pending_approval, 1 failed, 2 invalid input, 3 denied.
`;

export const exitCodeOf = (result: ExecuteResult): number => {
  switch (result.status) {
    case 'ok':
    case 'pending_approval':
      return EXIT.ok;
    case 'invalid':
      return EXIT.invalid;
    case 'denied':
    case 'declined':
      return EXIT.denied;
    case 'failed':
      return EXIT.failed;
  }
};

export async function callCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      input: { type: 'string', short: 'i' },
      as: { type: 'string' },
      'idempotency-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(CALL_HELP);
    return 0;
  }
  const [tool, ...extra] = positionals;
  if (tool === undefined)
    throw new UsageError('name the tool to call (`bankops tools` lists them)', CALL_HELP);
  if (extra.length > 0)
    throw new UsageError(`unexpected argument '${extra[0]}'; pass the input with --input`, CALL_HELP);
  const input = parseJsonInput(values.input);
  return withRuntime(async (runtime) => {
    const result = await runtime.executor.execute({
      tool,
      input,
      actor: actorFor(runtime, values.as),
      ...(values['idempotency-key'] === undefined ? {} : { idempotencyKey: values['idempotency-key'] }),
      onProgress: (message) => process.stderr.write(`${message}\n`),
    });
    printJson(result);
    return exitCodeOf(result);
  });
}
