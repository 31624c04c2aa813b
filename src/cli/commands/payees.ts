import { parseArgs } from 'node:util';
import type { Runtime } from '../../app/runtime.js';
import { byWords } from '../../present/payee-history.js';
import { namePayee } from '../../tools/payees/name-payee.js';
import { verifyPayee } from '../../tools/payees/verify-payee.js';
import { actorFor, withRuntime } from '../context.js';
import { EXIT, out, printJson, UsageError } from '../io.js';
import { type OutputMode, outputMode } from '../output.js';
import { checkSubcommand } from './table.js';
import { answerToolResult } from './tool-answer.js';

export const PAYEES_HELP = `Usage:
  bankops payees name <beneficiaryId> "<name>" [--as <name>] [--json]
  bankops payees verify <payee> --method callback --contact "<number>" --note "<text>" [--as <name>] [--json]

The payee directory (docs/controls.md): what payout approvals say of a payee.

  name    gives a beneficiary made outside bankops its name, so approvals name the payee. A change
          of bank details for that name: the payee is unverified again and the payee cooling-off
          starts. Waits for an approver under the shipped policy (rule payee-directory).
  verify  records a call-back: you called a number already on file (never one from the request)
          and the payee's bank details were confirmed. <payee> is a beneficiary id or a payee
          name. Needs the role verifier, and not the person who created or changed the payee; a
          later change makes it unverified again. --note says who answered and what they
          confirmed. --contact is a telephone number (digits, spaces, + ( ) . -, an extension
          as "ext 12"); the payee directory and every approval keep only its last four digits,
          the audit log keeps the call as it was asked.

These commands are short forms of the tools name_payee and verify_payee (bankops call, MCP, and
/bank payee name|verify in Slack); each is audited, refusals too.

Exit status: 0 done or waiting for an approver, 1 the service could not be reached, 2 usage,
invalid input or unknown payee, 3 refused by the policy.
`;

/** Which tool a subcommand calls, with what. */
function callOf(sub: string, words: string[], values: Options) {
  if (sub === 'name') {
    const [beneficiaryId, name, ...more] = words;
    if (beneficiaryId === undefined || name === undefined || more.length > 0)
      throw new UsageError(
        'payees name takes a beneficiary id and a name: payees name <beneficiaryId> "<name>" (quote a name with spaces)',
        PAYEES_HELP,
      );
    return { tool: namePayee, input: { beneficiaryId, name } };
  }
  const [payee, ...more] = words;
  if (payee === undefined || more.length > 0)
    throw new UsageError(
      'payees verify takes one payee, a beneficiary id or a name (quote a name with spaces)',
      PAYEES_HELP,
    );
  for (const option of ['method', 'contact', 'note'] as const)
    if (values[option] === undefined)
      throw new UsageError(`payees verify needs --${option} (${OPTION_WORDS[option]})`, PAYEES_HELP);
  return {
    tool: verifyPayee,
    input: { payee, method: values.method, contact: values.contact, note: values.note },
  };
}

const OPTION_WORDS = {
  method: 'callback: a call to a number already on file',
  contact: 'the number called, as on file',
  note: 'who answered and what they confirmed',
} as const;

interface Options {
  method?: string | undefined;
  contact?: string | undefined;
  note?: string | undefined;
}

/** A done call in the words of its subcommand. */
function printDone(sub: string, output: Record<string, unknown>, mode: OutputMode): void {
  if (sub === 'name') {
    const named = namePayee.output.parse(output);
    if (!mode.text) printJson({ status: 'named', ...named });
    else
      out(
        `Named ${named.beneficiaryId} "${named.name}": unverified; payouts to it are in the payee cooling-off from now.\n`,
      );
    return;
  }
  const verified = verifyPayee.output.parse(output);
  if (!mode.text) printJson({ status: 'verified', ...verified });
  else
    out(
      `Verified ${verified.name === undefined ? verified.beneficiaryId : `${verified.name} (${verified.beneficiaryId})`} by call-back to ${verified.verification.contactMasked} by ${byWords(verified.verification.by)}.\n`,
    );
}

/**
 * A subcommand as a call of its tool through the executor (the policy, approvals, the audit
 * log); an approval the policy asks for is shown as `bankops call` shows it.
 */
async function run(
  runtime: Runtime,
  sub: string,
  words: string[],
  values: Options & { as?: string | undefined },
  mode: OutputMode,
): Promise<number> {
  const actor = await actorFor(runtime, values.as);
  const { tool, input } = callOf(sub, words, values);
  const result = await runtime.executor.execute({ tool: tool.name, input, actor });
  return answerToolResult(runtime, result, { actor, input, mode }, (output) => printDone(sub, output, mode));
}

export async function payeesCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      method: { type: 'string' },
      contact: { type: 'string' },
      note: { type: 'string' },
      as: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h' || values.help) {
    out(PAYEES_HELP);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  checkSubcommand('payees', sub, PAYEES_HELP);
  const verifyOnly = (['method', 'contact', 'note'] as const).find((o) => values[o] !== undefined);
  if (sub !== 'verify' && verifyOnly !== undefined)
    throw new UsageError(`--${verifyOnly} belongs to payees verify, not payees ${sub}`, PAYEES_HELP);
  const mode = outputMode(values.json);
  return withRuntime((runtime) => run(runtime, sub, positionals, values, mode));
}
