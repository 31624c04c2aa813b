import type { types } from '@slack/bolt';
import { CodedError, ErrorCode } from '../../core/errors.js';
import { optional } from '../../core/optional.js';
import { type FormField, valueAt } from './form-fields.js';
import { type Block, clip, LIMITS, plain } from './message.js';

export type ModalView = types.ModalView;

/** The action id of every generated input; the block id is the field's dotted path. */
const FIELD_ACTION = 'value';

const initialText = (value: unknown): string | undefined => {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
};

function element(field: FormField, initial: unknown): types.InputBlockElement {
  const text = initialText(initial);
  const placeholder = field.kind === 'json' ? plain('JSON', LIMITS.placeholder) : undefined;
  switch (field.kind) {
    case 'select':
    case 'boolean': {
      const values = field.kind === 'boolean' ? ['true', 'false'] : (field.options ?? []);
      const options = values.map((value) => ({ text: plain(value, LIMITS.optionText), value }));
      const chosen = options.find((option) => option.value === text);
      return {
        type: 'static_select',
        action_id: FIELD_ACTION,
        options,
        ...optional('initial_option', chosen),
      };
    }
    case 'number':
    case 'integer':
      return {
        type: 'number_input',
        action_id: FIELD_ACTION,
        is_decimal_allowed: field.kind === 'number',
        ...optional('initial_value', text),
      };
    default:
      return {
        type: 'plain_text_input',
        action_id: FIELD_ACTION,
        ...optional('initial_value', text),
        ...optional('placeholder', placeholder),
      };
  }
}

/** One input block per field, pre-filled from what the command already gave. */
export function inputBlocks(fields: readonly FormField[], prefill: Record<string, unknown>): Block[] {
  return fields.map((field) => ({
    type: 'input',
    block_id: field.path.slice(0, LIMITS.blockId),
    optional: !field.required,
    label: plain(field.label, LIMITS.label),
    ...(field.hint === undefined ? {} : { hint: plain(field.hint, LIMITS.hint) }),
    element: element(field, valueAt(prefill, field.path)),
  }));
}

export interface ModalSpec {
  callbackId: string;
  /** Shown in the title bar (24 characters: longer titles also appear in full as the first block). */
  title: string;
  /** What the form does, in a line or two. */
  intro: string;
  blocks: Block[];
  /** The submit button; none for a view without inputs (a "please wait"). */
  submit?: string;
  /** JSON the submission needs (what to run, where to answer), at most 3,000 characters. */
  metadata: string;
}

/** A form with more fields than a modal holds: the person is asked to type them instead. */
export class ModalTooLargeError extends CodedError {
  constructor(message: string) {
    super({ code: ErrorCode.Usage, message });
    this.name = 'ModalTooLargeError';
  }
}

/**
 * A title that fits Slack's title bar whole: a bracketed ending it cannot fit is left out (the
 * intro says it in full), else the title ends at the last word that fits, never mid-word.
 */
function titleBar(title: string, limit: number = LIMITS.viewTitle): string {
  if (title.length <= limit) return title;
  const plainer = title.replace(/\s*\([^)]*\)\s*$/, '');
  if (plainer.length <= limit && plainer !== '') return plainer;
  const cut = plainer.slice(0, limit + 1);
  const space = cut.lastIndexOf(' ');
  return space > 0 ? cut.slice(0, space) : plainer.slice(0, limit);
}

export function modalView(spec: ModalSpec): ModalView {
  const intro: Block = {
    type: 'section',
    text: { type: 'mrkdwn', text: clip(spec.intro, LIMITS.sectionText) },
  };
  const blocks = [intro, ...spec.blocks];
  if (blocks.length > LIMITS.modalBlocks || spec.metadata.length > LIMITS.privateMetadata) {
    throw new ModalTooLargeError('the form would be larger than Slack allows');
  }
  return {
    type: 'modal',
    callback_id: spec.callbackId,
    title: plain(titleBar(spec.title), LIMITS.viewTitle),
    ...(spec.submit === undefined ? {} : { submit: plain(spec.submit, LIMITS.viewTitle) }),
    close: plain('Cancel', LIMITS.viewTitle),
    private_metadata: spec.metadata,
    blocks,
  };
}

type StateValue = { type?: string; value?: string | null; selected_option?: { value?: string } | null };

/**
 * The submitted values as `path=value` tokens (empty inputs left out), to be read against the tool's
 * schema by the same grammar as a typed command.
 */
export function submittedTokens(values: Record<string, Record<string, StateValue>>): string[] {
  const tokens: string[] = [];
  for (const [blockId, actionsOf] of Object.entries(values)) {
    const state = actionsOf[FIELD_ACTION];
    if (state === undefined) continue;
    const value = state.type === 'static_select' ? state.selected_option?.value : state.value;
    if (value === undefined || value === null || value.trim() === '') continue;
    tokens.push(`${blockId}=${value.trim()}`);
  }
  return tokens;
}

/**
 * Field errors as Slack shows them inline (`response_action: errors`): by block id; an error on a
 * field without an input of its own (the whole input, a nested part) goes on the first input.
 */
export function inlineErrors(
  errors: readonly { path: string; message: string }[],
  blockIds: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  const first = blockIds[0];
  for (const { path, message } of errors) {
    const target = blockIds.includes(path)
      ? path
      : (blockIds.find((id) => path.startsWith(`${id}.`)) ?? first);
    if (target === undefined) continue;
    const text = target === path ? message : `${path || 'input'}: ${message}`;
    out[target] = clip(out[target] === undefined ? text : `${out[target]}; ${text}`, LIMITS.label);
  }
  return out;
}
