import type { ExecuteResult } from '../../core/results.js';
import type { AnyTool } from '../../core/tool.js';
import { unknownFields } from '../../core/unknown-fields.js';
import { deniedReason, mayCall, policyView } from '../../present/policy-view.js';
import { didYouMean } from '../../present/suggest.js';
import { typedFieldErrors } from '../../present/typed-fields.js';
import { runAndAnswer } from '../answers/run.js';
import type { Asker } from '../asker.js';
import { corridorForm } from '../forms/beneficiary.js';
import { toolForm } from '../forms/tool-form.js';
import { missingRequired } from '../render/form-fields.js';
import { ModalTooLargeError, type ModalView } from '../render/modal.js';
import { outcomeMessage, usageMessage } from '../render/outcome.js';
import { toolFields } from '../schemas.js';
import type { SlackServices } from '../services.js';
import { describeSlackError } from '../web-api-errors.js';
import { secretInputMessage } from './help.js';

export interface Trigger {
  triggerId: string;
  responseUrl: string;
}

const hasField = (tool: AnyTool, name: string): boolean => Object.hasOwn(tool.input.shape, name);

/**
 * What short forms resolve before asking: a family B card id bankops has seen gets its cardholder
 * and wallet; a payee the payee directory knows gets its corridor's rail (the purpose of a payment
 * is the person's to say).
 */
async function resolveKnown(
  services: SlackServices,
  tool: AnyTool,
  input: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const resolved = { ...input };
  if (typeof input.cardId === 'string' && hasField(tool, 'cardholderId') && hasField(tool, 'walletId')) {
    const card = await services.cards.find(input.cardId);
    if (card !== undefined) {
      resolved.cardholderId ??= card.cardholderId;
      resolved.walletId ??= card.walletId;
    }
  }
  if (tool.name === 'create_payout' && typeof input.beneficiaryId === 'string') {
    const payee = await services.payees?.get(input.beneficiaryId);
    // The directory keeps the corridor's rail as `LOCAL/ACH` or `SWIFT`; a payout names the rail.
    const rail = payee?.rail?.split('/').at(-1);
    if (rail !== undefined) resolved.destinationRail ??= rail;
  }
  return resolved;
}

function whyForm(tool: AnyTool, input: Record<string, unknown>, missing: readonly string[]): string {
  if (
    typeof input.cardId === 'string' &&
    (missing.includes('cardholderId') || missing.includes('walletId'))
  ) {
    return `bankops has not seen card ${input.cardId} yet: give its cardholder and wallet (\`/bank list_cards_b\` shows a wallet's cards, and bankops remembers them).`;
  }
  if (missing.length === toolFields(tool).filter((f) => f.required).length) {
    return 'Fill in the fields; what the configuration knows (company, program, agent codes) is filled in for you.';
  }
  return `Still needed: ${missing.join(', ')}.`;
}

/**
 * What the typed words already show to be wrong, said before any form: a field's value (an unknown
 * currency, an amount below zero), or a payee bankops does not know, with the one meant.
 */
async function typedProblem(
  services: Pick<SlackServices, 'payees'>,
  tool: AnyTool,
  input: Record<string, unknown>,
): Promise<ExecuteResult | undefined> {
  const errors = typedFieldErrors(tool, input);
  const payee = input.beneficiaryId;
  const known = (await services.payees?.ids()) ?? [];
  // The service cannot be asked about a payee (no read endpoint): bankops's directory is what is
  // known. With none in it, there is nothing to compare with, and the form asks for the rest.
  if (
    tool.name === 'create_payout' &&
    typeof payee === 'string' &&
    known.length > 0 &&
    !known.includes(payee)
  ) {
    const meant = didYouMean(payee, known);
    errors.push({
      path: 'beneficiaryId',
      message: `no beneficiary ${payee} that bankops knows${meant === '' ? '' : `; ${meant}`} (one registered elsewhere: type destinationRail= and purposeCode= too, and approvers are told)`,
    });
  }
  if (errors.length === 0) return undefined;
  return { status: 'invalid', tool: tool.name, message: `invalid input for ${tool.name}`, errors };
}

/**
 * A command that runs a tool. Tools whose input is a secret are refused with where to go instead;
 * a call missing required fields (and a new beneficiary, corridor first) opens a form generated
 * from the tool's schema, pre-filled with what was typed; the rest goes to the executor.
 */
export async function toolCommand(
  services: SlackServices,
  asker: Asker,
  tool: AnyTool,
  typed: Record<string, unknown>,
  trigger: Trigger,
): Promise<void> {
  if (tool.secretInput === true) {
    await asker.reply(secretInputMessage(tool));
    return;
  }
  const input = await resolveKnown(services, tool, typed);
  const missing = missingRequired(toolFields(tool), input).map((f) => f.path);
  // A misspelt field goes to the executor, which names the field meant; a form would hide it.
  const misspelt = unknownFields(input, Object.keys(tool.input.shape)).length > 0;
  if (missing.length === 0 || misspelt) {
    await runAndAnswer(services, asker, tool, input);
    return;
  }
  // What was typed is judged first: a form would only hide a mistake until it was submitted.
  const problem = await typedProblem(services, tool, input);
  if (problem !== undefined && problem.status === 'invalid') {
    await asker.reply(outcomeMessage(problem, tool.hints.readOnly));
    return;
  }
  // A form for a tool this person may not call at all would only end in a refusal.
  const access = policyView(services.executor.policy, asker.actor, [tool]).tools[0];
  if (!mayCall(access)) {
    await asker.reply(
      outcomeMessage(
        { status: 'denied', tool: tool.name, reason: `${tool.name} ${deniedReason(access)}` },
        false,
      ),
    );
    return;
  }
  const where = { responseUrl: trigger.responseUrl, channel: asker.channelId };
  let view: ModalView;
  try {
    const schemaTool = services.registry.get('get_beneficiary_schema');
    view =
      tool.name === 'create_beneficiary' && schemaTool !== undefined
        ? corridorForm(schemaTool, input, where)
        : toolForm(tool, input, where, whyForm(tool, input, missing));
  } catch (error) {
    if (!(error instanceof ModalTooLargeError)) throw error;
    await asker.reply(
      usageMessage(`${tool.name} needs ${missing.join(', ')}; type them: \`/bank help ${tool.name}\``),
    );
    return;
  }
  try {
    await services.call('views.open', { trigger_id: trigger.triggerId, view });
  } catch (error) {
    const why = describeSlackError(error);
    await asker.reply(
      usageMessage(
        `the form for ${tool.name} did not open (${why}); it needs ${missing.join(', ')}: \`/bank help ${tool.name}\` shows how to type them`,
      ),
    );
  }
}
