import type { AnyTool, ToolDefaults } from '../../core/tool.js';
import type { PolicyView, ToolAccess } from '../../present/policy-view.js';
import { argsOf, toolHelp } from '../../present/tool-help.js';
import { context, escapeText, header, type SlackMessage, sections } from '../render/message.js';
import { SHORT_FORMS } from './short-forms.js';

const approvers = (n: number): string => `${n} approver${n === 1 ? '' : 's'}`;

/** What calling it means for this person, in a few words for the list. */
function accessNote(access: ToolAccess): string {
  if (access.access === 'approval') return ` _(needs ${approvers(access.approval?.approvers ?? 1)})_`;
  if (access.access !== 'depends_on_input') return '';
  const open = (access.cases ?? []).filter((c) => c.access !== 'denied');
  if (open.length > 0 && open.every((c) => c.access === 'approval')) return ' _(needs approval)_';
  return open.some((c) => c.access === 'approval') ? ' _(some calls need approval)_' : '';
}

/** Denied outright, or denied whatever the input: then it is not listed. */
const mayCall = (access: ToolAccess | undefined): boolean =>
  access !== undefined &&
  access.access !== 'denied' &&
  (access.access !== 'depends_on_input' || (access.cases ?? []).some((c) => c.access !== 'denied'));

/** What happens when this person calls it, case by case when the input decides. */
function accessSentence(access: ToolAccess | undefined): string {
  if (access === undefined || !mayCall(access)) {
    return `You may not call it: ${escapeText(access?.reason ?? access?.cases?.at(-1)?.reason ?? 'no role of yours covers it')}.`;
  }
  const one = (a: Pick<ToolAccess, 'access' | 'approval' | 'reason'>): string =>
    a.access === 'approval'
      ? `waits for ${approvers(a.approval?.approvers ?? 1)} with role ${escapeText(a.approval?.role ?? '')}`
      : a.access === 'allowed'
        ? 'runs at once'
        : `is refused (${escapeText(a.reason ?? 'no role of yours covers it')})`;
  if (access.access !== 'depends_on_input') return `It ${one(access)}.`;
  return (access.cases ?? [])
    .map((c) => `${c.when === 'otherwise' ? 'Otherwise' : `When ${escapeText(c.when)}`} it ${one(c)}.`)
    .join(' ');
}

/** `/bank help`: the short forms and the tools this person may call in Slack, nothing else. */
export function helpMessage(view: PolicyView, tools: readonly AnyTool[]): SlackMessage {
  const byName = new Map(view.tools.map((access) => [access.tool, access]));
  const forms = SHORT_FORMS.filter((form) => form.tool === undefined || mayCall(byName.get(form.tool)));
  const callable = tools.filter((tool) => mayCall(byName.get(tool.name)));
  const lines = callable.map((tool) => {
    const access = byName.get(tool.name);
    return `• \`${tool.name}\` ${escapeText(tool.title)}${access === undefined ? '' : accessNote(access)}`;
  });
  const formLines = forms.map((form) => `• \`/bank ${form.usage}\` ${escapeText(form.what)}`);
  const text = `bankops: ${callable.length} tools you may use in Slack`;
  return {
    text,
    blocks: [
      header('What you can do with /bank'),
      ...sections(`*Daily work*\n${formLines.join('\n')}`),
      ...sections(
        `*Every tool you may call* — \`/bank <tool> key=value …\` (quotes for spaces, \`address.city="New York"\`, JSON for lists)\n${lines.join('\n') || '_none: ask an admin for a role in the policy_'}`,
      ),
      context(
        `Your roles: ${view.roles.map(escapeText).join(', ')}. \`/bank help <tool>\` shows a tool's fields and an example.`,
      ),
    ],
  };
}

/** A `key=value` token as typed in Slack: quoted when the value has spaces or quotes. */
const typed = (token: string): string => {
  const at = token.indexOf('=');
  const value = token.slice(at + 1);
  return /[\s"']/.test(value) ? `${token.slice(0, at + 1)}${JSON.stringify(value)}` : token;
};

/** `/bank help <tool>`: what it does, its fields (type, required, default, values) and an example. */
export function toolHelpMessage(
  tool: AnyTool,
  access: ToolAccess | undefined,
  defaults?: ToolDefaults,
): SlackMessage {
  const help = toolHelp(tool, defaults);
  const fieldLines = help.fields.map((f) => {
    const facts = [
      f.type,
      f.required ? '*required*' : undefined,
      f.allowed === undefined ? undefined : `one of ${f.allowed.map((v) => `\`${v}\``).join(', ')}`,
      f.default === undefined ? undefined : `default ${escapeText(f.default.text)}`,
    ].filter((x) => x !== undefined);
    return `• \`${f.name}\` (${facts.join(', ')})${f.description === undefined ? '' : ` ${escapeText(f.description)}`}`;
  });
  const example = argsOf(help.example.input).map(typed).join(' ');
  return {
    text: `${tool.name}: ${tool.title}`,
    blocks: [
      header(`${tool.name}: ${tool.title}`),
      ...sections(escapeText(tool.description)),
      ...sections(`*Fields*\n${fieldLines.join('\n') || '_none_'}`),
      ...sections(
        `*Example*\n\`/bank ${tool.name}${example === '' ? '' : ` ${escapeText(example)}`}\`${help.example.note === undefined ? '' : `\n${escapeText(help.example.note)}`}`,
      ),
      context(accessSentence(access)),
    ],
  };
}

/** Asking for a tool whose input is a secret: why it is not offered here, and where to do it. */
export function secretInputMessage(tool: AnyTool): SlackMessage {
  const text =
    `:lock: \`${tool.name}\` is not offered in Slack: its input is a secret a person holds (a PIN, an activation or assignment code, or a full card number), and whatever is typed here is stored by Slack. ` +
    `Run it where the secret stays with you: \`bankops call ${tool.name}\` on a trusted machine, or the cardholder's own app for a PIN. If you typed a secret already, treat it as exposed.`;
  return { text, blocks: sections(text) };
}

export function shortFormHelp(topic: string): SlackMessage | undefined {
  const form = SHORT_FORMS.find((f) => f.name === topic || f.word === topic);
  if (form === undefined) return undefined;
  const variants = SHORT_FORMS.filter((f) => f.word === form.word);
  const text = variants.map((f) => `• \`/bank ${f.usage}\` ${escapeText(f.what)}`).join('\n');
  return { text: `/bank ${form.usage}`, blocks: sections(text) };
}
