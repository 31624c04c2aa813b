import type { AckFn, ViewResponseAction } from '@slack/bolt';
import type { FieldError } from '../../core/results.js';
import type { AnyTool } from '../../core/tool.js';
import { ArgsError, inputFromArgs, type JsonSchema } from '../../present/args.js';
import { type AnswerServices, runAndAnswer, slackOrigin } from '../answers/run.js';
import type { Asker } from '../asker.js';
import { VIEWS } from '../ids.js';
import { formTarget } from '../metadata.js';
import type { FormField } from '../render/form-fields.js';
import { escapeText } from '../render/message.js';
import { inlineErrors, inputBlocks, type ModalView, modalView, submittedTokens } from '../render/modal.js';
import { toolFields } from '../schemas.js';

function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const segments = path.split('.');
  let node = target;
  for (const [i, segment] of segments.entries()) {
    if (i === segments.length - 1) {
      node[segment] = value;
      return;
    }
    const next = node[segment];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[segment] = {};
    node = node[segment] as Record<string, unknown>;
  }
}

/** The leaves of an input the form does not show, so they are kept across the form. */
function hiddenValues(input: Record<string, unknown>, shown: readonly FormField[]): Record<string, unknown> {
  const fixed: Record<string, unknown> = {};
  const visit = (value: unknown, path: string): void => {
    if (shown.some((field) => field.path === path)) return;
    if (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      shown.some((f) => f.path.startsWith(`${path}.`))
    ) {
      for (const [key, inner] of Object.entries(value)) visit(inner, `${path}.${key}`);
      return;
    }
    setAt(fixed, path, value);
  };
  for (const [key, value] of Object.entries(input)) visit(value, key);
  return fixed;
}

/** Deep merge of what the form gave over what was fixed before it. */
function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prior = out[key];
    out[key] =
      typeof prior === 'object' &&
      prior !== null &&
      !Array.isArray(prior) &&
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value)
        ? merge(prior as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}

/** The form of a tool, every field shown (pre-filled with what the command gave). */
export function toolForm(
  tool: AnyTool,
  prefill: Record<string, unknown>,
  where: { responseUrl: string; channel: string },
  why: string,
): ModalView {
  const fields = toolFields(tool);
  const metadata = formTarget.encode({
    tool: tool.name,
    responseUrl: where.responseUrl,
    channel: where.channel,
    fixed: hiddenValues(prefill, fields),
  });
  return modalView({
    callbackId: VIEWS.toolForm,
    title: tool.title,
    intro: `*${escapeText(tool.title)}* (\`${tool.name}\`)\n${escapeText(why)}`,
    blocks: inputBlocks(fields, prefill),
    submit: tool.hints.readOnly ? 'Show' : 'Submit',
    metadata,
  });
}

/** Reads a form's values against a schema; a value that does not read is an error on its field. */
export function readForm(
  values: Parameters<typeof submittedTokens>[0],
  schema: JsonSchema,
  fixed: Record<string, unknown>,
): { ok: true; input: Record<string, unknown> } | { ok: false; errors: FieldError[] } {
  try {
    return { ok: true, input: merge(fixed, inputFromArgs(submittedTokens(values), schema)) };
  } catch (error) {
    if (!(error instanceof ArgsError)) throw error;
    const at = error.message.indexOf(':');
    const path = at > 0 ? error.message.slice(0, at) : '';
    return {
      ok: false,
      errors: [{ path, message: at > 0 ? error.message.slice(at + 1).trim() : error.message }],
    };
  }
}

/**
 * Runs a form's input. Fields the tool's schema refuses go back into the form at once, field by
 * field (`response_action: errors`), judged without the database; the executor then audits the
 * refusal. Anything else closes the form before anything is read or written (Slack waits 3 s at
 * most, the database may take longer) and is answered like a command, in the channel it came from,
 * the database being away included.
 */
export async function submitForm(
  services: AnswerServices,
  asker: Asker,
  tool: AnyTool,
  input: Record<string, unknown>,
  form: { blockIds: readonly string[]; ack: AckFn<ViewResponseAction> },
): Promise<void> {
  const errors = services.executor.inputErrors(tool.name, input);
  if (errors.length === 0) {
    await form.ack();
    return runAndAnswer(services, asker, tool, input);
  }
  await form.ack({ response_action: 'errors', errors: inlineErrors(errors, form.blockIds) });
  try {
    await services.executor.execute({
      tool: tool.name,
      input,
      actor: asker.actor,
      origin: slackOrigin(asker),
    });
  } catch (error) {
    services.log.error('slack: the refusal of a form could not be audited', { tool: tool.name, error });
  }
}
