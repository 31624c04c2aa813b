import { internalError, isDatabaseUnreachable } from '../../core/errors.js';
import type { AnyTool } from '../../core/tool.js';
import type { JsonSchema } from '../../present/args.js';
import { DATABASE_UNREACHABLE } from '../../present/failure.js';
import type { Asker } from '../asker.js';
import { VIEWS } from '../ids.js';
import { formTarget } from '../metadata.js';
import { formFields } from '../render/form-fields.js';
import { escapeText } from '../render/message.js';
import { inputBlocks, type ModalView, modalView } from '../render/modal.js';
import { toolFields } from '../schemas.js';
import type { SlackServices } from '../services.js';

/** Step one asks what picks the corridor: these fields of get_beneficiary_schema. */
const CORRIDOR_FIELDS = ['currency', 'entityType', 'paymentMethod', 'country'];
/** What step one fixed, left out of step two's fields. */
const FIXED_PATHS = new Set(['currency', 'entityType', 'extras.paymentMethod']);

export interface Where {
  responseUrl: string;
  channel: string;
}

/** Step one: the corridor (currency, payee type, payment method, bank country). */
export function corridorForm(
  schemaTool: AnyTool,
  prefill: Record<string, unknown>,
  where: Where,
  problem?: string,
): ModalView {
  const fields = toolFields(schemaTool).filter((f) => CORRIDOR_FIELDS.includes(f.path));
  const metadata = formTarget.encode({
    tool: 'create_beneficiary',
    responseUrl: where.responseUrl,
    channel: where.channel,
    fixed: {},
  });
  const intro =
    '*Register a beneficiary*, step 1 of 2: the corridor. The next step asks for exactly what that corridor needs.' +
    (problem === undefined ? '' : `\n:warning: ${escapeText(problem)}`);
  return modalView({
    callbackId: VIEWS.beneficiaryCorridor,
    title: 'New beneficiary',
    intro,
    blocks: inputBlocks(fields, {
      ...prefill,
      ...(typeof prefill.extras === 'object' && prefill.extras !== null
        ? { paymentMethod: (prefill.extras as Record<string, unknown>).paymentMethod }
        : {}),
    }),
    submit: 'Next',
    metadata,
  });
}

/** While the corridor's schema is fetched. */
export const loadingForm = (): ModalView =>
  modalView({
    callbackId: VIEWS.beneficiaryFields,
    title: 'New beneficiary',
    intro: ':hourglass_flowing_sand: Fetching what this corridor needs…',
    blocks: [],
    metadata: '{}',
  });

/**
 * Step two: the fields the corridor's JSON Schema demands, those step one fixed left out. The
 * submission is a tool form of create_beneficiary with the corridor's choices fixed.
 */
export function corridorFieldsForm(
  corridorSchema: JsonSchema,
  corridor: { currency: string; entityType: string; paymentMethod: string; country?: string },
  where: Where,
): ModalView {
  const fields = formFields(corridorSchema).filter((f) => !FIXED_PATHS.has(f.path));
  const fixed = {
    currency: corridor.currency,
    entityType: corridor.entityType,
    extras: { paymentMethod: corridor.paymentMethod },
  };
  const prefill =
    corridor.country === undefined
      ? {}
      : { bank: { bankCountry: corridor.country }, country: corridor.country };
  const metadata = formTarget.encode({
    tool: 'create_beneficiary',
    responseUrl: where.responseUrl,
    channel: where.channel,
    fixed,
  });
  const title =
    typeof corridorSchema.title === 'string'
      ? corridorSchema.title
      : `${corridor.currency} ${corridor.paymentMethod}`;
  return modalView({
    callbackId: VIEWS.toolForm,
    title: 'New beneficiary',
    intro: `*Register a beneficiary*, step 2 of 2: ${escapeText(title)}.`,
    blocks: inputBlocks(fields, prefill),
    submit: 'Register',
    metadata,
  });
}

/**
 * After step one: fetch the corridor's schema through the executor (as the person, so the policy
 * and the audit log see it) and put step two in the modal, or step one again with the problem.
 */
export async function showCorridorFields(
  services: Pick<SlackServices, 'registry' | 'executor' | 'call'>,
  asker: Asker,
  viewId: string,
  corridor: { currency: string; entityType: string; paymentMethod: string; country?: string },
  where: Where,
): Promise<void> {
  const schemaTool = services.registry.get('get_beneficiary_schema');
  if (schemaTool === undefined) throw internalError('get_beneficiary_schema is not in the registry');
  // The form already shows "loading" (acknowledged): a failure must end up in it, not leave it so.
  const result = await services.executor
    .execute({ tool: schemaTool.name, input: corridor, actor: asker.actor })
    .catch((error: unknown) => {
      if (!isDatabaseUnreachable(error)) throw error;
      const message = `${DATABASE_UNREACHABLE.state}. ${DATABASE_UNREACHABLE.advice}`;
      return { status: 'failed', tool: schemaTool.name, error: { kind: 'unavailable', message } } as const;
    });
  let view: ModalView;
  if (result.status === 'ok' && typeof result.output.schema === 'object' && result.output.schema !== null) {
    view = corridorFieldsForm(result.output.schema as JsonSchema, corridor, where);
  } else {
    const problem =
      result.status === 'failed'
        ? result.error.message
        : result.status === 'invalid'
          ? result.message
          : result.status === 'denied'
            ? result.reason
            : 'the corridor has no schema';
    view = corridorForm(schemaTool, { ...corridor }, where, problem);
  }
  await services.call('views.update', { view_id: viewId, view });
}
