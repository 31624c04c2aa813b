import type { BreakGlassPageData } from '../core/passkeys/index.js';
import type { Registry } from '../core/registry.js';
import { ruleWords, statusLine, whatWillHappen } from '../present/approval-words.js';
import { breakGlassCapWords } from '../present/break-glass.js';
import { requesterWords } from '../present/output/approval.js';
import { actorName } from '../present/people.js';
import { votesWords } from '../present/quorum-words.js';
import { esc, pageHtml } from './html.js';

/**
 * The break-glass page (docs/approvals.md "Break-glass"): what will run, in the same words as the
 * approval page, marked as a break-glass with the reason and the cap, then one button that
 * confirms it with the person's passkey. There is no reject here: approvers reject.
 */
export function breakGlassPage(data: BreakGlassPageData, registry: Registry): string {
  const { view, person } = data;
  const title = registry.get(view.tool)?.title ?? view.tool;
  const facts = whatWillHappen(view)
    .map((line) => `<li>${esc(line)}</li>`)
    .join('\n');
  const cap = data.cap === undefined ? '' : `<dt>Cap</dt><dd>${esc(breakGlassCapWords(data.cap))}</dd>`;
  return pageHtml({
    title: `Break-glass ${view.id}`,
    page: 'break-glass',
    data: { attempt: String(view.attempt) },
    body: `<p class="alarm">BREAK-GLASS: this runs without its missing approvals</p>
<h1>${esc(title)}</h1>
<p class="state">${esc(statusLine(view))}</p>
<ul class="facts">
${facts}
</ul>
<dl>
<dt>Your reason</dt><dd class="reason">${esc(data.reason)}</dd>
${cap}
<dt>Asked by</dt><dd>${esc(requesterWords(view))}</dd>
<dt>Rule</dt><dd>${esc(ruleWords(view))}</dd>
<dt>Approvals</dt><dd>${esc(votesWords(view))}</dd>
<dt>You break the glass as</dt><dd>${esc(actorName(person))}</dd>
<dt>Approval</dt><dd><code>${esc(view.id)}</code>${view.attempt > 1 ? ` · attempt ${view.attempt}` : ''}</dd>
</dl>
<section class="decide">
<button id="break-glass" type="button" class="danger-primary">Break the glass with passkey</button>
</section>
<p id="status" role="status" aria-live="polite"></p>
<p class="note">Your passkey signs exactly what is shown above (with the bound) and your reason. It runs at once, is posted to every approvals channel, and stays open for review until the policy's reviewers close it. Cooling-off and limits still apply. If a new quote comes in, this signature no longer counts. This link works once, until ${esc(data.expiresAt)}.</p>`,
  });
}
