import { ApprovalViewSchema } from '../../core/approvals/view-schema.js';
import type { Registry } from '../../core/registry.js';
import type { ExecuteResult } from '../../core/results.js';
import type { OutcomeClass } from '../approval-outcome.js';
import { joinedLine, statusLine } from '../approval-words.js';
import { describeFailure } from '../failure.js';
import { nameActors } from '../people.js';
import { approvalDocument } from './approval.js';
import type { Block, Field, OutputDocument, Value } from './model.js';
import { type ToolOutputOptions, toolOutputDocument } from './tool-output.js';

/** The executor's answer to a call as a document, whatever its status, and its outcome class. */

/** How a front end should treat the result (the CLI's exit code). */
export function resultClass(result: ExecuteResult): OutcomeClass {
  switch (result.status) {
    case 'ok':
    case 'pending_approval':
      return 'ok';
    case 'invalid':
      return 'invalid';
    case 'denied':
    case 'declined':
      return 'denied';
    case 'failed':
      return 'failed';
  }
}

const fact = (key: string, label: string, text: string, kind: Value['kind']): Field => ({
  key,
  label,
  value: { text, kind },
});

const note = (text: string, tone: 'info' | 'warning' = 'info'): Block => ({ type: 'note', text, tone });

export interface ResultOptions extends ToolOutputOptions {
  /** Who asked (actor id), so a joined request can say "opened … by you". */
  asker?: string;
}

export function resultDocument(
  registry: Registry,
  result: ExecuteResult,
  options: ResultOptions = {},
): OutputDocument {
  const tool = registry.get(result.tool);
  switch (result.status) {
    case 'ok': {
      if (tool === undefined) return { title: result.tool, blocks: [note('Done.')] };
      // An approval read is shown as `approvals show` shows it: its lines, payee facts included.
      const approval = tool.name === 'get_approval' ? ApprovalViewSchema.safeParse(result.output) : undefined;
      if (approval?.success) return approvalDocument(approval.data, { registry, title: tool.title });
      return toolOutputDocument(tool, result.output, options);
    }
    case 'pending_approval': {
      const view = result.approval;
      const doc = approvalDocument(view, {
        registry,
        title: `${result.tool} waits for approval ${result.approvalId}`,
        input: false,
      });
      if (result.joined) doc.blocks.unshift(note(joinedLine(view, options.asker ?? '')));
      doc.blocks.push(note(`Nothing has happened yet. ${statusLine(view)}.`));
      return doc;
    }
    case 'invalid':
      return {
        title: `Invalid input for ${result.tool}`,
        blocks: [
          ...(result.errors.length === 0
            ? [note(result.message, 'warning')]
            : [
                // A record, not a table: a field's problem is never cut to fit a column.
                {
                  type: 'record' as const,
                  fields: result.errors.map((e) => ({
                    key: e.path,
                    label: e.path === '' ? '(input)' : e.path,
                    value: { text: e.message, kind: 'text' as const },
                  })),
                },
              ]),
        ],
      };
    case 'denied':
      return { title: `Denied: ${result.tool}`, blocks: [note(nameActors(result.reason), 'warning')] };
    case 'declined':
      return { title: `Not run: ${result.tool}`, blocks: [note(nameActors(result.reason), 'warning')] };
    case 'failed': {
      const words = describeFailure(
        { name: result.tool, readOnly: tool?.hints.readOnly ?? false },
        result.error,
      );
      const e = result.error;
      const facts: Field[] = [
        ...(e.httpStatus === undefined
          ? []
          : [fact('httpStatus', 'HTTP status', String(e.httpStatus), 'number')]),
        ...(e.code === undefined || e.code === e.httpStatus
          ? []
          : [fact('code', 'Code', String(e.code), 'number')]),
        ...(e.operation === undefined ? [] : [fact('operation', 'Operation', e.operation, 'id')]),
        ...(e.requestId === undefined ? [] : [fact('requestId', 'Request ID', e.requestId, 'id')]),
      ];
      const blocks: Block[] = facts.length === 0 ? [] : [{ type: 'record', fields: facts }];
      if (words.issues.length > 0) blocks.push(...words.issues.map((issue) => note(issue, 'warning')));
      blocks.push(note(words.advice));
      return { title: words.headline, blocks };
    }
  }
}
