import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import type { AnswerServices } from '../answers/run.js';
import type { Asker } from '../asker.js';
import { type FormTarget, formTarget } from '../metadata.js';
import type { ActorContext } from '../middleware/actor.js';
import { inlineErrors } from '../render/modal.js';
import { replyTo } from '../respond.js';
import { toolSchema } from '../schemas.js';
import type { SlackServices } from '../services.js';
import { loadingForm, showCorridorFields } from './beneficiary.js';
import { readForm, submitForm } from './tool-form.js';

/** What the forms use: answering (the executor, the stores of answers), the tools, and views.update. */
export type FormServices = AnswerServices & Pick<SlackServices, 'registry' | 'call'>;

type SubmitArgs = AllMiddlewareArgs<ActorContext> & SlackViewMiddlewareArgs<ViewSubmitAction>;
type Ack = SubmitArgs['ack'];
type Values = Parameters<typeof readForm>[0];

/** The person who submitted (identified again: the policy may have changed since the command). */
const askerOf = ({ body, context }: SubmitArgs, target: FormTarget): Asker => ({
  actor: context.actor,
  userId: body.user.id,
  userName: body.user.name,
  channelId: target.channel,
  reply: replyTo(target.responseUrl),
});

const refuse = (ack: Ack, blockIds: readonly string[], message: string): Promise<void> =>
  ack({ response_action: 'errors', errors: inlineErrors([{ path: '', message }], blockIds) });

const BROKEN = 'This form names nothing bankops knows; close it and ask again.';

/** A tool's form: read against the tool's schema, then run; invalid fields come back inline. */
export function toolFormSubmitted(services: FormServices) {
  return async (args: SubmitArgs): Promise<void> => {
    const { view } = args.body;
    const values = view.state.values as Values;
    const blockIds = Object.keys(values);
    const target = formTarget.decode(view.private_metadata);
    if (target === undefined) return refuse(args.ack, blockIds, BROKEN);
    const tool = services.registry.get(target.tool);
    if (tool === undefined || tool.secretInput === true)
      return refuse(args.ack, blockIds, `${target.tool} is not offered here`);
    const read = readForm(values, toolSchema(tool), target.fixed);
    if (!read.ok) return args.ack({ response_action: 'errors', errors: inlineErrors(read.errors, blockIds) });
    return submitForm(services, askerOf(args, target), tool, read.input, { blockIds, ack: args.ack });
  };
}

/** Beneficiary step one: the corridor; the modal then shows what that corridor's schema demands. */
export function corridorSubmitted(services: FormServices) {
  return async (args: SubmitArgs): Promise<void> => {
    const { view } = args.body;
    const { ack } = args;
    const values = view.state.values as Values;
    const blockIds = Object.keys(values);
    const target = formTarget.decode(view.private_metadata);
    if (target === undefined) return refuse(ack, blockIds, BROKEN);
    const schemaTool = services.registry.get('get_beneficiary_schema');
    if (schemaTool === undefined) return refuse(ack, blockIds, 'beneficiaries are not offered here');
    const read = readForm(values, toolSchema(schemaTool), {});
    if (!read.ok) return ack({ response_action: 'errors', errors: inlineErrors(read.errors, blockIds) });
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
    await showCorridorFields(services, askerOf(args, target), view.id, corridor, {
      responseUrl: target.responseUrl,
      channel: target.channel,
    });
  };
}
