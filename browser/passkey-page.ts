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

function say(text: string, tone: 'ok' | 'failed' | 'busy'): void {
  if (status === null) return;
  status.textContent = text;
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
  if (header !== null && answer.state !== undefined) header.textContent = answer.state;
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

function approvePage(): void {
  const attempt = Number(document.body.dataset.attempt);
  document.getElementById('approve')?.addEventListener('click', () => {
    say('Waiting for your passkey…', 'busy');
    void (async () => {
      const options = (await post('options', {
        attempt,
      })) as unknown as PublicKeyCredentialRequestOptionsJSON;
      const response = await startAuthentication({ optionsJSON: options });
      settle((await post('vote', { response })) as unknown as Answer);
    })().catch(failed);
  });
  const reject = document.getElementById('reject') as HTMLFormElement | null;
  reject?.addEventListener('submit', (event) => {
    event.preventDefault();
    const reason = (document.getElementById('reason') as HTMLTextAreaElement).value;
    void post('reject', { reason })
      .then((answer) => settle(answer as unknown as Answer))
      .catch(failed);
  });
}

if (document.body.dataset.page === 'enroll') enrolPage();
if (document.body.dataset.page === 'approve') approvePage();
