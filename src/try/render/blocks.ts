import { isObj, type Obj, objects } from '../conversations.js';
import { type FormState, inputControl, interactiveHtml } from './elements.js';
import { esc, type RenderContext, unsupportedBox } from './html.js';
import { textHtml } from './mrkdwn.js';

/**
 * Block Kit's blocks as HTML: every block bankops emits (section with text, fields and an accessory,
 * header, context, divider, actions, input, and the table of an attachment). Any other block, or a
 * part of one this does not know, is shown as an "unsupported" box and listed in the context: never
 * dropped silently.
 */

function section(block: Obj, path: string, ctx: RenderContext): string {
  const text = isObj(block.text) ? `<div class="text">${textHtml(block.text, ctx)}</div>` : '';
  const fields = objects(block.fields);
  const grid =
    fields.length === 0
      ? ''
      : `<div class="fields">${fields.map((f) => `<div class="field">${textHtml(f, ctx)}</div>`).join('')}</div>`;
  const accessory = isObj(block.accessory)
    ? `<div class="accessory">${interactiveHtml(block.accessory, `${path}.x`, ctx)}</div>`
    : '';
  if (text === '' && grid === '') return unsupportedBox(ctx, 'section without text or fields', block);
  return `<div class="block section"><div class="body">${text}${grid}</div>${accessory}</div>`;
}

function contextBlock(block: Obj, ctx: RenderContext): string {
  const parts = objects(block.elements).map((el) => {
    if (el.type === 'mrkdwn' || el.type === 'plain_text') return `<span>${textHtml(el, ctx)}</span>`;
    return unsupportedBox(ctx, `context element ${String(el.type)}`, el);
  });
  return `<div class="block context">${parts.join('')}</div>`;
}

function actionsBlock(block: Obj, path: string, ctx: RenderContext): string {
  const elements = objects(block.elements).map((el, j) => interactiveHtml(el, `${path}.e${j}`, ctx));
  return `<div class="block actions">${elements.join('')}</div>`;
}

function inputBlock(block: Obj, ctx: RenderContext, form: FormState | undefined): string {
  const blockId = typeof block.block_id === 'string' ? block.block_id : '';
  if (form === undefined || !isObj(block.element)) return unsupportedBox(ctx, 'input outside a modal', block);
  const optional = block.optional === true;
  const label = `<span class="label">${textHtml(block.label, ctx)}</span>${optional ? ' <span class="optional">(optional)</span>' : ''}`;
  const hint = isObj(block.hint) ? `<span class="hint">${textHtml(block.hint, ctx)}</span>` : '';
  const error = form.errors[blockId];
  const problem = error === undefined ? '' : `<span class="error" role="alert">${esc(error)}</span>`;
  const control = inputControl(block.element, blockId, !optional, form, ctx);
  return `<label class="block input${error === undefined ? '' : ' invalid'}">${label}${control}${problem}${hint}</label>`;
}

/** Slack's table block: rows of cells (`raw_text`), the first row its header, columns aligned. */
function table(block: Obj, ctx: RenderContext): string {
  const settings = objects(block.column_settings);
  const rows = Array.isArray(block.rows) ? block.rows : [];
  const cell = (value: unknown, i: number, tag: 'th' | 'td') => {
    const setting = settings[i];
    const align =
      setting?.align === 'right' || setting?.align === 'center' ? ` class="${setting.align}"` : '';
    const inner =
      isObj(value) && value.type === 'raw_text' && typeof value.text === 'string'
        ? esc(value.text)
        : unsupportedBox(ctx, `table cell ${isObj(value) ? String(value.type) : typeof value}`, value);
    return `<${tag}${align}>${inner}</${tag}>`;
  };
  const body = rows.map((row: unknown, r) => {
    const cells = Array.isArray(row) ? row : [];
    return `<tr>${cells.map((value: unknown, i) => cell(value, i, r === 0 ? 'th' : 'td')).join('')}</tr>`;
  });
  return `<div class="block table"><table>${body.join('')}</table></div>`;
}

export function blockHtml(block: Obj, path: string, ctx: RenderContext, form?: FormState): string {
  switch (block.type) {
    case 'section':
      return section(block, path, ctx);
    case 'header':
      return `<h3 class="block header">${textHtml(block.text, ctx)}</h3>`;
    case 'context':
      return contextBlock(block, ctx);
    case 'divider':
      return '<hr class="block divider">';
    case 'actions':
      return actionsBlock(block, path, ctx);
    case 'input':
      return inputBlock(block, ctx, form);
    case 'table':
      return table(block, ctx);
    default:
      return unsupportedBox(ctx, `block ${String(block.type)}`, block);
  }
}

/** Blocks in order; `prefix` starts each block's path (`b`, or `a0.b` in an attachment). */
export const blocksHtml = (
  blocks: readonly Obj[],
  prefix: string,
  ctx: RenderContext,
  form?: FormState,
): string => blocks.map((block, i) => blockHtml(block, `${prefix}${i}`, ctx, form)).join('');
