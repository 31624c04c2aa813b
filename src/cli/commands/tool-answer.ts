import type { Runtime } from '../../app/runtime.js';
import { CodedError } from '../../core/errors.js';
import type { Actor } from '../../core/policy/types.js';
import type { ExecuteResult } from '../../core/results.js';
import { resultDocument } from '../../present/output/index.js';
import { EXIT, err, printJson } from '../io.js';
import { type OutputMode, printDocument } from '../output.js';

/**
 * How a command that runs one tool through the executor (`alerts`, `payees`) answers: `done`
 * says what an allowed call did in the command's own words; a refusal, an invalid input and a
 * failure are said as every command says them, and an approval the policy asks for is shown as
 * `bankops call` shows it. Returns the exit status.
 */
export function answerToolResult(
  runtime: Runtime,
  result: ExecuteResult,
  call: { actor: Actor; input: Record<string, unknown>; mode: OutputMode },
  done: (output: Record<string, unknown>) => void,
): number {
  const { actor, input, mode } = call;
  switch (result.status) {
    case 'ok':
      done(result.output);
      return EXIT.ok;
    case 'denied':
    case 'declined':
      if (mode.text) err(`bankops: not allowed: ${result.reason}\n`);
      else printJson({ status: 'refused', message: result.reason });
      return EXIT.denied;
    case 'invalid': {
      const first = result.errors[0];
      const message =
        first === undefined
          ? result.message
          : first.path === ''
            ? first.message
            : `${first.path}: ${first.message}`;
      if (mode.text) err(`bankops: ${message}\n`);
      else printJson({ status: 'invalid', message });
      return EXIT.invalid;
    }
    case 'failed':
      throw new CodedError({ code: result.error.kind, message: result.error.message });
    case 'pending_approval':
      if (!mode.text) printJson(result);
      else
        printDocument(
          (maxColumns) => resultDocument(runtime.registry, result, { asker: actor.id, input, maxColumns }),
          mode,
        );
      return EXIT.ok;
  }
}
