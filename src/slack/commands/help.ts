import type { AnyTool, ToolDefaults } from '../../core/tool.js';
import { deniedReason, mayCall, type PolicyView, type ToolAccess } from '../../present/policy-view.js';
import { GROUP_WORDS, TOOL_GROUPS, type ToolGroup, toolGroup } from '../../present/tool-groups.js';
import { argsOf, toolHelp } from '../../present/tool-help.js';
import { context, escapeText, header, type SlackMessage, sections } from '../render/message.js';
import { SHORT_FORMS } from './short-forms.js';

const approvers = (n: number): string => `${n} approver${n === 1 ? '' : 's'}`;

/** What calling it means for this person, in a few words for the list. */
function accessNote(access: ToolAccess): string {
  if (access.access === 'approval') return ` _(needs ${approvers(access.approval?.approvers ?? 1)})_`;
  if (access.access !== 'depends_on_input') return '';
  const open = (access.cases ?? []).filter((c) => c.access !== 'denied');
  const waits = open.filter((c) => c.access === 'approval');
  // One wording: how many approvers (`1 or 2 approvers` when the input decides).
  const counts = [...new Set(waits.map((c) => c.approval?.approvers ?? 1))].sort((a, b) => a - b);
  const most =
    counts.length <= 1
      ? approvers(counts[0] ?? 1)
      : `${counts.slice(0, -1).join(', ')} or ${approvers(counts.at(-1) ?? 1)}`;
  if (open.length > 0 && waits.length === open.length) return ` _(needs ${most})_`;
  return waits.length > 0 ? ` _(some calls need ${most})_` : '';
}

/** What happens when this person calls it, case by case when the input decides. */
function accessSentence(access: ToolAccess | undefined): string {
  if (access === undefined || !mayCall(access)) {
    return `You may not call it: ${escapeText(deniedReason(access))}.`;
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

/** The tools of one group this person may call, each with what calling it means for them. */
function toolLines(view: PolicyView, tools: readonly AnyTool[]): string[] {
  const byName = new Map(view.tools.map((access) => [access.tool, access]));
  return tools
    .filter((tool) => mayCall(byName.get(tool.name)))
    .map((tool) => {
      const access = byName.get(tool.name);
      return `• \`${tool.name}\` ${escapeText(tool.title)}${access === undefined ? '' : accessNote(access)}`;
    });
}

/**
 * `/bank help`: one screen. The short forms of daily work first, then the tools this person may
 * call, as groups by what people do (`/bank help money` lists a group's tools).
 */
export function helpMessage(view: PolicyView, tools: readonly AnyTool[]): SlackMessage {
  const byName = new Map(view.tools.map((access) => [access.tool, access]));
  const forms = SHORT_FORMS.filter((form) => form.tool === undefined || mayCall(byName.get(form.tool)));
  const formLines = forms.map((form) => `• \`/bank ${form.usage}\` ${escapeText(form.what)}`);
  const groups = TOOL_GROUPS.map((group) => ({
    group,
    count: toolLines(
      view,
      tools.filter((tool) => toolGroup(tool) === group),
    ).length,
  })).filter((g) => g.count > 0);
  const callable = groups.reduce((sum, g) => sum + g.count, 0);
  const groupLines = groups.map(
    (g) =>
      `• \`/bank help ${g.group}\` ${escapeText(GROUP_WORDS[g.group])} (${g.count} tool${g.count === 1 ? '' : 's'})`,
  );
  return {
    text: `bankops: ${callable} tools you may use in Slack`,
    blocks: [
      header('What you can do with /bank'),
      ...sections(`*Daily work*\n${formLines.join('\n')}`),
      ...sections(
        `*Every tool you may call*, by what it is for: \`/bank <tool> key=value …\` runs one\n${groupLines.join('\n') || '_none: ask an admin for a role in the policy_'}`,
      ),
      context(
        `Your roles: ${view.roles.map(escapeText).join(', ')}. \`/bank help <tool>\` shows a tool's fields and an example.`,
      ),
    ],
  };
}

/** `/bank help money`: the tools of one group this person may call. */
export function groupHelpMessage(
  view: PolicyView,
  tools: readonly AnyTool[],
  group: ToolGroup,
): SlackMessage {
  const ofGroup = tools.filter((tool) => toolGroup(tool) === group);
  const lines = toolLines(view, ofGroup);
  // The short forms of the group come first: they are how most of it is done.
  const byName = new Map(view.tools.map((access) => [access.tool, access]));
  const forms = SHORT_FORMS.filter(
    (form) =>
      (form.word === group || ofGroup.some((tool) => tool.name === form.tool)) &&
      (form.tool === undefined || mayCall(byName.get(form.tool))),
  ).map((form) => `• \`/bank ${form.usage}\` ${escapeText(form.what)}`);
  return {
    text: `bankops ${group}: ${lines.length} tools you may use`,
    blocks: [
      header(`/bank: ${GROUP_WORDS[group]}`),
      ...(forms.length === 0 ? [] : sections(`*Short forms*\n${forms.join('\n')}`)),
      ...sections(
        `*Tools*\n${lines.join('\n') || '_none you may call: ask an admin for a role in the policy_'}`,
      ),
      context(
        'Run one with `/bank <tool> key=value …` (quotes for spaces, `address.city="New York"`, JSON for lists); `/bank help <tool>` shows its fields and an example.',
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
