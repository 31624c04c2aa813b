import type { AckFn, ViewResponseAction, ViewSubmitAction } from '@slack/bolt';
import type { Asker } from '../asker.js';
import { inlineErrors } from '../render/modal.js';
import { replyTo } from '../respond.js';
import { toolSchema } from '../schemas.js';
import type { SlackServices } from '../services.js';
import { loadingForm, showCorridorFields } from './beneficiary.js';
import { type FormMetadata, parseMetadata, readForm, submitForm } from './tool-form.js';

type Ack = AckFn<ViewResponseAction>;
type Args = { body: ViewSubmitAction; ack: Ack };
type Values = Parameters<typeof readForm>[0];

/** The person who submitted, identified again (the policy may have changed since the command). */
async function askerOf(
  services: SlackServices,
  body: ViewSubmitAction,
  meta: FormMetadata,
): Promise<Asker | undefined> {
  const actor = await services.identities.actorFor(body.user.id);
  if (!services.identities.isKnown(actor)) return undefined;
  return { actor, userId: body.user.id, userName: body.user.name, channelId: meta.c, reply: replyTo(meta.u) };
}

const refuse = (ack: Ack, blockIds: readonly string[], message: string): Promise<void> =>
  ack({ response_action: 'errors', errors: inlineErrors([{ path: '', message }], blockIds) });

/** A tool's form: read against the tool's schema, then run; invalid fields come back inline. */
export function toolFormSubmitted(services: SlackServices) {
  return async ({ body, ack }: Args): Promise<void> => {
    const { view } = body;
    const values = view.state.values as Values;
    const blockIds = Object.keys(values);
    const meta = parseMetadata(view.private_metadata);
    const tool = services.registry.get(meta.t);
    if (tool === undefined || tool.secretInput === true)
      return refuse(ack, blockIds, `${meta.t} is not offered here`);
    const read = readForm(values, toolSchema(tool), meta.f);
    if (!read.ok) return ack({ response_action: 'errors', errors: inlineErrors(read.errors, blockIds) });
    const asker = await askerOf(services, body, meta);
    if (asker === undefined)
      return refuse(ack, blockIds, `You have no access to bankops yet (user id ${body.user.id}).`);
    return submitForm(services, asker, tool, read.input, { blockIds, ack });
  };
}

/** Beneficiary step one: the corridor; the modal then shows what that corridor's schema demands. */
export function corridorSubmitted(services: SlackServices) {
  return async ({ body, ack }: Args): Promise<void> => {
    const { view } = body;
    const values = view.state.values as Values;
    const blockIds = Object.keys(values);
    const meta = parseMetadata(view.private_metadata);
    const schemaTool = services.registry.get('get_beneficiary_schema');
    if (schemaTool === undefined) return refuse(ack, blockIds, 'beneficiaries are not offered here');
    const read = readForm(values, toolSchema(schemaTool), {});
    if (!read.ok) return ack({ response_action: 'errors', errors: inlineErrors(read.errors, blockIds) });
    const asker = await askerOf(services, body, meta);
    if (asker === undefined)
      return refuse(ack, blockIds, `You have no access to bankops yet (user id ${body.user.id}).`);
    const { currency, entityType, paymentMethod, country } = read.input;
    if (typeof currency !== 'string' || typeof entityType !== 'string' || typeof paymentMethod !== 'string') {
      return refuse(ack, blockIds, 'currency, payee type and payment method are needed');
    }
    await ack({ response_action: 'update', view: loadingForm() });
    const corridor = {
      currency,
      entityType,
      paymentMethod,
      ...(typeof country === 'string' ? { country } : {}),
    };
    await showCorridorFields(services, asker, view.id, corridor, { responseUrl: meta.u, channel: meta.c });
  };
}
