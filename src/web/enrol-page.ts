import type { PasskeyInfo } from '../core/passkeys/index.js';
import { actorName } from '../present/people.js';
import { esc, pageHtml } from './html.js';

/** The enrolment page: the person it is for, their passkeys so far, and a name for the new one. */
export function enrolPage(data: { person: string; expiresAt: string; passkeys: PasskeyInfo[] }): string {
  const existing =
    data.passkeys.length === 0
      ? '<p>You have no passkey with bankops yet.</p>'
      : `<p>Your passkeys so far:</p>\n<ul>${data.passkeys.map((p) => `<li>${esc(p.name)} (added ${esc(p.createdAt.slice(0, 10))})</li>`).join('')}</ul>`;
  return pageHtml({
    title: 'Register a passkey',
    page: 'enroll',
    body: `<h1>Register a passkey</h1>
<p>For <strong>${esc(actorName(data.person))}</strong>. With it you confirm approvals of large payouts and other
operations bankops asks a passkey for: your device signs exactly what you approve.</p>
${existing}
<form id="enroll">
<label for="name">A name for this passkey (you will see it in lists)</label>
<input id="name" name="name" maxlength="64" required autocomplete="off" placeholder="work laptop">
<button type="submit" class="primary">Register passkey</button>
</form>
<p id="status" role="status" aria-live="polite"></p>
<p class="note">This link works once, until ${esc(data.expiresAt)}.</p>`,
  });
}
