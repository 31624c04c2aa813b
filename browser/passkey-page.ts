import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';

/**
 * The script of the passkey pages (bundled with @simplewebauthn/browser and served by bankops). It
 * asks bankops for the WebAuthn options, lets the browser's passkey answer, and posts the answer
 * back to the same path: every state change is a POST carrying the page's one-time token.
 */

interface Answer {
  ok: boolean;
  line: string;
  /** Where the approval stands now: the page's header shows it instead of what it was loaded with. */
  state?: string;
}

const status = document.getElementById('status');

/** `2026-11-29 21:00 CET`: a time in the reader's own zone, as the page shows every time. */
function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = new Intl.DateTimeFormat('en-GB', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${part('timeZoneName')}`;
}

/** Every ISO time in a line the server sent, in the reader's zone. */
const localTimes = (text: string): string =>
  text.replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z\b/g, (iso) => localTime(iso));

for (const time of document.querySelectorAll('time[datetime]')) {
  time.textContent = localTime(time.getAttribute('datetime') ?? '');
}

function say(text: string, tone: 'ok' | 'failed' | 'busy'): void {
  if (status === null) return;
  status.textContent = localTimes(text);
  status.className = tone;
}

async function post(path: string, payload: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${location.pathname}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
    credentials: 'same-origin',
  });
  const data = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(typeof data.error === 'string' ? data.error : `HTTP ${response.status}`);
  return data;
}

function settle(answer: Answer): void {
  say(answer.line, answer.ok ? 'ok' : 'failed');
  const header = document.querySelector('.state');
  if (header !== null && answer.state !== undefined) header.textContent = localTimes(answer.state);
  for (const button of document.querySelectorAll('button')) button.disabled = true;
}

const failed = (error: unknown): void =>
  say(error instanceof Error ? error.message : String(error), 'failed');

function enrolPage(): void {
  const form = document.getElementById('enroll') as HTMLFormElement | null;
  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = (document.getElementById('name') as HTMLInputElement).value;
    say('Waiting for your passkey…', 'busy');
    void (async () => {
      const options = (await post('options', {})) as unknown as PublicKeyCredentialCreationOptionsJSON;
      const response = await startRegistration({ optionsJSON: options });
      settle((await post('finish', { name, response })) as unknown as Answer);
    })().catch(failed);
  });
}

/** The button `id` asks the passkey to sign this attempt, then posts the signature to `step`. */
function signOnClick(id: string, step: 'vote' | 'confirm'): void {
  const attempt = Number(document.body.dataset.attempt);
  document.getElementById(id)?.addEventListener('click', () => {
    say('Waiting for your passkey…', 'busy');
    void (async () => {
      const options = (await post('options', {
        attempt,
      })) as unknown as PublicKeyCredentialRequestOptionsJSON;
      const response = await startAuthentication({ optionsJSON: options });
      settle((await post(step, { response })) as unknown as Answer);
    })().catch(failed);
  });
}

function approvePage(): void {
  signOnClick('approve', 'vote');
  const reject = document.getElementById('reject') as HTMLFormElement | null;
  reject?.addEventListener('submit', (event) => {
    event.preventDefault();
    const reason = (document.getElementById('reason') as HTMLTextAreaElement).value;
    void post('reject', { reason })
      .then((answer) => settle(answer as unknown as Answer))
      .catch(failed);
  });
}

/** Break-glass: one button, the passkey signs the approval with the reason the link carries. */
function breakGlassPage(): void {
  signOnClick('break-glass', 'confirm');
}

if (document.body.dataset.page === 'enroll') enrolPage();
if (document.body.dataset.page === 'approve') approvePage();
if (document.body.dataset.page === 'break-glass') breakGlassPage();
