import { parseArgs } from 'node:util';
import { optional } from '../../core/optional.js';
import { inputJsonSchema } from '../../core/registry.js';
import { resultClass, resultDocument } from '../../present/output/index.js';
import { didYouMean } from '../../present/suggest.js';
import { createRegistry } from '../../tools/index.js';
import { cliConfig } from '../config.js';
import { actorFor, withRuntime } from '../context.js';
import { readToolInput } from '../input.js';
import { EXIT, err, out, printJson, UsageError } from '../io.js';
import { outputMode, printDocument } from '../output.js';
import { renderToolHelp } from '../tool-help.js';

export const CALL_HELP = `Usage: bankops call <tool> [key=value ...] [--input <json> | @file.json | -] [--as <name>]
                    [--idempotency-key <key>] [--json]

Runs one tool through the executor (validation, policy, approvals, audit). On a terminal it prints
the result for people: tables for lists, amounts with their currency, what an approval waits for.
With --json, or when stdout is not a terminal, it prints the result as JSON with its "status": ok,
pending_approval, invalid, denied or failed.

Input:
  key=value ...             the tool's fields, e.g. cardId=card_demo_alice_virtual; dotted keys for
                            nested fields (bank.accountNumber=123), JSON for lists and objects
  --input <json>            the input as a JSON object; @file.json reads a file, - standard input;
                            key=value arguments given too are laid on top of it
Company, program and agent codes, and created_by, default from the configuration.

Options:
  --as <name>               who is acting (default BANKOPS_ACTOR or the OS user)
  --idempotency-key <key>   a retry with the same key returns the first result, never acts twice
  --json                    print JSON even on a terminal (BANKOPS_OUTPUT=text|json forces either)

bankops help <tool> (or bankops call <tool> --help) describes a tool's fields, with an example.
A call that takes longer than a second says what it is doing on stderr (on a terminal).

Exit status: 0 ok or pending_approval, 1 failed, 2 invalid input, 3 denied.
`;

export async function callCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      input: { type: 'string', short: 'i' },
      as: { type: 'string' },
      'idempotency-key': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [name, ...tokens] = positionals;
  const registry = createRegistry();
  const tool = name === undefined ? undefined : registry.get(name);
  if (values.help) {
    out(tool === undefined ? CALL_HELP : renderToolHelp(tool, cliConfig().defaults));
    return EXIT.ok;
  }
  if (name === undefined)
    throw new UsageError('name the tool to call (`bankops tools` lists them)', CALL_HELP);
  // An unknown tool still goes to the executor, which refuses and audits it.
  const input = readToolInput(values.input, tokens, tool === undefined ? {} : inputJsonSchema(tool));
  const mode = outputMode(values.json);
  return withRuntime(async (runtime, track) => {
    const actor = await actorFor(runtime, values.as);
    const progress = track(name);
    const result = await runtime.executor.execute({
      tool: name,
      input,
      actor,
      ...optional('idempotencyKey', values['idempotency-key']),
      onProgress: (message) => progress.step(message),
    });
    progress.stop();
    const hint = tool === undefined ? didYouMean(name, registry.names()) : '';
    if (!mode.text) {
      printJson(result);
      if (hint !== '') err(`bankops: ${hint}\n`);
    } else {
      printDocument((maxColumns) => {
        const doc = resultDocument(runtime.registry, result, {
          asker: actor.id,
          input,
          maxColumns,
          fullResult: '--json shows them',
        });
        if (hint !== '') doc.blocks.push({ type: 'note', text: `Did ${hint.slice(4)}`, tone: 'info' });
        if (result.status === 'invalid' && tool !== undefined)
          doc.blocks.push({ type: 'note', text: `bankops help ${name} lists its fields.`, tone: 'info' });
        return doc;
      }, mode);
    }
    return EXIT[resultClass(result)];
  });
}
