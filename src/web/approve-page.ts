import type { ApprovalPageData } from '../core/passkeys/index.js';
import type { Registry } from '../core/registry.js';
import { ruleWords, statusLine, whatWillHappen } from '../present/approval-words.js';
import { requesterWords } from '../present/output/approval.js';
import { actorName } from '../present/people.js';
import { votesWords } from '../present/quorum-words.js';
import { esc, pageHtml } from './html.js';

/**
 * The approval page: what will happen in the same words as Slack and the CLI (payee by name,
 * amount, total debit, balance after, the bound), who asked and under which rule, then
 * Approve with passkey and Reject (with a reason).
 */
export function approvePage(data: ApprovalPageData, registry: Registry): string {
  const { view, person } = data;
  const title = registry.get(view.tool)?.title ?? view.tool;
  const facts = whatWillHappen(view)
    .map((line) => `<li>${esc(line)}</li>`)
    .join('\n');
  const votes = votesWords(view);
  const waiting = view.state === 'pending';
  const decide = waiting
    ? `<section class="decide">
<button id="approve" type="button" class="primary">Approve with passkey</button>
<form id="reject">
<label for="reason">Reject, with a reason for the requester and the audit log</label>
<textarea id="reason" name="reason" rows="2" maxlength="500" required></textarea>
<button type="submit" class="danger">Reject</button>
</form>
</section>`
    : '';
  return pageHtml({
    title: `Approve ${view.id}`,
    page: 'approve',
    data: { attempt: String(view.attempt) },
    body: `<h1>${esc(title)}</h1>
<p class="state">${esc(statusLine(view))}</p>
<ul class="facts">
${facts}
</ul>
<dl>
<dt>Asked by</dt><dd>${esc(requesterWords(view))}</dd>
<dt>Rule</dt><dd>${esc(ruleWords(view))}</dd>
<dt>Approvals</dt><dd>${esc(votes)}, each confirmed with a passkey</dd>
<dt>You vote as</dt><dd>${esc(actorName(person))}</dd>
<dt>Approval</dt><dd><code>${esc(view.id)}</code>${view.attempt > 1 ? ` · attempt ${view.attempt}` : ''}</dd>
</dl>
${decide}
<p id="status" role="status" aria-live="polite"></p>
<p class="note">Your passkey signs exactly what is shown above (with the bound). If a new quote comes in, this signature no longer counts. This link works once, until ${esc(data.expiresAt)}.</p>`,
  });
}
