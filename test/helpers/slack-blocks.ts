/**
 * Checks Block Kit against Slack's documented limits, independently of src/slack (so the two cannot
 * share a mistake). Each problem is a sentence naming where it is; an empty list means well-formed.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function textObject(where: string, value: unknown, max: number, problems: string[], plainOnly = false): void {
  if (!isObj(value)) {
    problems.push(`${where}: missing text object`);
    return;
  }
  if (value.type !== 'plain_text' && (plainOnly || value.type !== 'mrkdwn')) {
    problems.push(`${where}: text type ${String(value.type)}`);
  }
  const text = str(value.text);
  if (text === undefined || text.length === 0) problems.push(`${where}: empty text`);
  else if (text.length > max) problems.push(`${where}: text of ${text.length} > ${max}`);
}

function element(where: string, el: unknown, problems: string[]): void {
  if (!isObj(el)) {
    problems.push(`${where}: not an object`);
    return;
  }
  const actionId = str(el.action_id);
  if (actionId !== undefined && actionId.length > 255) problems.push(`${where}: action_id > 255`);
  switch (el.type) {
    case 'button':
      textObject(`${where}.text`, el.text, 75, problems, true);
      if ((str(el.value) ?? '').length > 2000) problems.push(`${where}: value > 2000`);
      if (el.style !== undefined && el.style !== 'primary' && el.style !== 'danger')
        problems.push(`${where}: style`);
      if (el.confirm !== undefined) {
        const c = isObj(el.confirm) ? el.confirm : {};
        textObject(`${where}.confirm.title`, c.title, 100, problems, true);
        textObject(`${where}.confirm.text`, c.text, 300, problems);
        textObject(`${where}.confirm.confirm`, c.confirm, 30, problems, true);
        textObject(`${where}.confirm.deny`, c.deny, 30, problems, true);
      }
      break;
    case 'static_select': {
      const options = Array.isArray(el.options) ? el.options : [];
      if (options.length === 0 || options.length > 100) problems.push(`${where}: ${options.length} options`);
      options.forEach((o, i) => {
        if (!isObj(o)) return;
        textObject(`${where}.options[${i}]`, o.text, 75, problems, true);
        if ((str(o.value) ?? '').length > 150) problems.push(`${where}.options[${i}]: value > 150`);
      });
      break;
    }
    case 'plain_text_input':
    case 'number_input':
    case 'email_text_input':
      if (el.type === 'number_input' && typeof el.is_decimal_allowed !== 'boolean') {
        problems.push(`${where}: number_input needs is_decimal_allowed`);
      }
      break;
    default:
      problems.push(`${where}: unexpected element ${String(el.type)}`);
  }
}

function block(where: string, b: unknown, surface: 'message' | 'modal' | 'home', problems: string[]): void {
  if (!isObj(b)) {
    problems.push(`${where}: not an object`);
    return;
  }
  const id = str(b.block_id);
  if (id !== undefined && (id.length === 0 || id.length > 255))
    problems.push(`${where}: block_id length ${id.length}`);
  switch (b.type) {
    case 'section': {
      if (b.text === undefined && b.fields === undefined)
        problems.push(`${where}: section without text or fields`);
      if (b.text !== undefined) textObject(`${where}.text`, b.text, 3000, problems);
      if (b.fields !== undefined) {
        const fields = Array.isArray(b.fields) ? b.fields : [];
        if (fields.length === 0 || fields.length > 10) problems.push(`${where}: ${fields.length} fields`);
        for (const [i, f] of fields.entries()) textObject(`${where}.fields[${i}]`, f, 2000, problems);
      }
      break;
    }
    case 'header':
      textObject(`${where}.text`, b.text, 150, problems, true);
      break;
    case 'context': {
      const elements = Array.isArray(b.elements) ? b.elements : [];
      if (elements.length === 0 || elements.length > 10)
        problems.push(`${where}: ${elements.length} context elements`);
      for (const [i, e] of elements.entries()) textObject(`${where}.elements[${i}]`, e, 3000, problems);
      break;
    }
    case 'actions': {
      const elements = Array.isArray(b.elements) ? b.elements : [];
      if (elements.length === 0 || elements.length > 25)
        problems.push(`${where}: ${elements.length} actions`);
      for (const [i, e] of elements.entries()) element(`${where}.elements[${i}]`, e, problems);
      break;
    }
    case 'divider':
      break;
    case 'input':
      if (surface === 'message') problems.push(`${where}: input block in a message`);
      textObject(`${where}.label`, b.label, 2000, problems, true);
      if (b.hint !== undefined) textObject(`${where}.hint`, b.hint, 2000, problems, true);
      element(`${where}.element`, b.element, problems);
      break;
    case 'table': {
      const rows = Array.isArray(b.rows) ? b.rows : [];
      if (rows.length === 0 || rows.length > 100) problems.push(`${where}: table of ${rows.length} rows`);
      rows.forEach((row, i) => {
        const cells = Array.isArray(row) ? row : [];
        if (cells.length === 0 || cells.length > 20)
          problems.push(`${where}.rows[${i}]: ${cells.length} cells`);
        cells.forEach((cell, j) => {
          if (!isObj(cell) || cell.type !== 'raw_text' || (str(cell.text) ?? '').length === 0) {
            problems.push(`${where}.rows[${i}][${j}]: not a raw_text cell`);
          }
        });
      });
      break;
    }
    default:
      problems.push(`${where}: unexpected block type ${String(b.type)}`);
  }
}

function blockList(
  where: string,
  blocks: unknown,
  max: number,
  surface: 'message' | 'modal' | 'home',
  problems: string[],
) {
  if (blocks === undefined) return [];
  if (!Array.isArray(blocks)) {
    problems.push(`${where}: blocks is not a list`);
    return [];
  }
  if (blocks.length > max) problems.push(`${where}: ${blocks.length} blocks > ${max}`);
  const ids = blocks.map((b) => (isObj(b) ? str(b.block_id) : undefined)).filter((id) => id !== undefined);
  if (new Set(ids).size !== ids.length) problems.push(`${where}: repeated block_id`);
  for (const [i, b] of blocks.entries()) block(`${where}[${i}]`, b, surface, problems);
  return blocks;
}

/** A message (chat.postMessage, chat.update, a response_url answer): text or blocks, 50 blocks, one table. */
export function messageProblems(where: string, message: Obj): string[] {
  const problems: string[] = [];
  const blocks = blockList(`${where}.blocks`, message.blocks, 50, 'message', problems);
  if (blocks.some((b) => isObj(b) && b.type === 'table'))
    problems.push(`${where}: a table outside attachments`);
  if ((str(message.text) ?? '').length === 0 && blocks.length === 0)
    problems.push(`${where}: neither text nor blocks`);
  if ((str(message.text) ?? '').length > 40_000) problems.push(`${where}: text > 40000`);
  const attachments = message.attachments;
  if (attachments !== undefined) {
    if (!Array.isArray(attachments)) problems.push(`${where}: attachments is not a list`);
    else {
      let tables = 0;
      attachments.forEach((a, i) => {
        const inner = isObj(a)
          ? blockList(`${where}.attachments[${i}].blocks`, a.blocks, 50, 'message', problems)
          : [];
        tables += inner.filter((b) => isObj(b) && b.type === 'table').length;
      });
      if (tables > 1) problems.push(`${where}: ${tables} tables in one message`);
    }
  }
  return problems;
}

/** A view (views.open, views.update, views.publish, a response_action update). */
export function viewProblems(where: string, view: unknown): string[] {
  const problems: string[] = [];
  if (!isObj(view)) return [`${where}: no view`];
  const surface = view.type === 'home' ? 'home' : view.type === 'modal' ? 'modal' : undefined;
  if (surface === undefined) return [`${where}: view type ${String(view.type)}`];
  const blocks = blockList(`${where}.blocks`, view.blocks, 100, surface, problems);
  if (surface === 'modal') {
    textObject(`${where}.title`, view.title, 24, problems, true);
    if (view.submit !== undefined) textObject(`${where}.submit`, view.submit, 24, problems, true);
    if (view.close !== undefined) textObject(`${where}.close`, view.close, 24, problems, true);
    if (blocks.some((b) => isObj(b) && b.type === 'input') && view.submit === undefined) {
      problems.push(`${where}: input blocks without a submit button`);
    }
  }
  if ((str(view.private_metadata) ?? '').length > 3000) problems.push(`${where}: private_metadata > 3000`);
  if ((str(view.callback_id) ?? '').length > 255) problems.push(`${where}: callback_id > 255`);
  return problems;
}
