import { isObj, type Obj, objects } from '../conversations.js';
import { esc, type RenderContext, unsupportedBox } from './html.js';
import { textHtml } from './mrkdwn.js';

/**
 * Interactive elements: buttons (primary, danger, a link, a confirm dialog) and selects in
 * messages and the App Home, and the inputs of a modal's input blocks. Every control carries the
 * path of its element in the message or view (`b3.e1`), never a value: the workspace sends the app
 * the element it sent, so the page cannot make up a button.
 */

/** What a modal's inputs show: what was typed (kept across an answer with errors) and the errors. */
export interface FormState {
  typed: Record<string, string>;
  errors: Record<string, string>;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function confirmDialog(confirm: Obj, id: string, style: string, ctx: RenderContext): string {
  const button = (key: string, fallback: string) =>
    isObj(confirm[key]) ? textHtml(confirm[key], ctx) : esc(fallback);
  return (
    `<dialog class="confirm" id="${esc(id)}"><form method="dialog">` +
    `<h3>${button('title', 'Are you sure?')}</h3><div class="confirm-text">${textHtml(confirm.text, ctx)}</div>` +
    `<menu><button value="no" class="btn">${button('deny', 'Cancel')}</button>` +
    `<button value="yes" class="btn ${style}">${button('confirm', 'Yes')}</button></menu></form></dialog>`
  );
}

function button(el: Obj, path: string, ctx: RenderContext): string {
  const style = el.style === 'primary' || el.style === 'danger' ? el.style : '';
  const label = textHtml(el.text, ctx);
  const url = str(el.url);
  if (url !== undefined && /^https?:\/\//i.test(url)) {
    return `<a class="btn ${style}" href="${esc(url)}" target="_blank" rel="noopener noreferrer" data-path="${path}">${label}</a>`;
  }
  if (!isObj(el.confirm))
    return `<button type="button" class="btn ${style}" data-path="${path}">${label}</button>`;
  const id = `${ctx.idPrefix}-${path}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const dialogStyle = el.confirm.style === 'danger' ? 'danger' : 'primary';
  return `<button type="button" class="btn ${style}" data-path="${path}" data-confirm="${esc(id)}">${label}</button>${confirmDialog(el.confirm, id, dialogStyle, ctx)}`;
}

/** The options of a select, one marked chosen. */
function options(el: Obj, chosen: string | undefined, ctx: RenderContext): string {
  const placeholder = isObj(el.placeholder) ? textHtml(el.placeholder, ctx) : 'Select an item';
  const list = objects(el.options).map((option) => {
    const value = str(option.value) ?? '';
    const selected = value === chosen ? ' selected' : '';
    return `<option value="${esc(value)}"${selected}>${textHtml(option.text, ctx)}</option>`;
  });
  return `<option value="">${placeholder}</option>${list.join('')}`;
}

/** An element of an actions block, a section's accessory, or a context. */
export function interactiveHtml(el: Obj, path: string, ctx: RenderContext): string {
  switch (el.type) {
    case 'button':
      return button(el, path, ctx);
    case 'static_select': {
      const initial = isObj(el.initial_option) ? str(el.initial_option.value) : undefined;
      return `<select class="select" data-path="${path}">${options(el, initial, ctx)}</select>`;
    }
    default:
      return unsupportedBox(ctx, `element ${String(el.type)}`, el);
  }
}

const lengthAttrs = (el: Obj): string =>
  (typeof el.min_length === 'number' ? ` minlength="${el.min_length}"` : '') +
  (typeof el.max_length === 'number' ? ` maxlength="${el.max_length}"` : '');

/** The control of an input block, named by its block id, pre-filled with what was typed or given. */
export function inputControl(
  el: Obj,
  blockId: string,
  required: boolean,
  form: FormState,
  ctx: RenderContext,
): string {
  const name = esc(blockId);
  const action = esc(str(el.action_id) ?? '');
  const req = required ? ' required' : '';
  const typed = form.typed[blockId];
  const placeholder =
    isObj(el.placeholder) && typeof el.placeholder.text === 'string' ? el.placeholder.text : '';
  const attrs = `name="${name}" data-action="${action}" data-type="${esc(String(el.type))}"${req} placeholder="${esc(placeholder)}"`;
  switch (el.type) {
    case 'plain_text_input':
    case 'email_text_input':
    case 'url_text_input': {
      const value = typed ?? str(el.initial_value) ?? '';
      if (el.multiline === true)
        return `<textarea ${attrs}${lengthAttrs(el)} rows="4">${esc(value)}</textarea>`;
      const type = el.type === 'email_text_input' ? 'email' : el.type === 'url_text_input' ? 'url' : 'text';
      return `<input type="${type}" ${attrs}${lengthAttrs(el)} value="${esc(value)}">`;
    }
    case 'number_input': {
      const value = typed ?? str(el.initial_value) ?? '';
      const step = el.is_decimal_allowed === true ? 'any' : '1';
      const bounds =
        (str(el.min_value) === undefined ? '' : ` min="${esc(String(el.min_value))}"`) +
        (str(el.max_value) === undefined ? '' : ` max="${esc(String(el.max_value))}"`);
      return `<input type="number" step="${step}"${bounds} ${attrs} value="${esc(value)}">`;
    }
    case 'static_select': {
      const initial = typed ?? (isObj(el.initial_option) ? str(el.initial_option.value) : undefined);
      return `<select ${attrs}>${options(el, initial, ctx)}</select>`;
    }
    default:
      return unsupportedBox(ctx, `input element ${String(el.type)}`, el);
  }
}
