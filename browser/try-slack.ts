/**
 * The script of the local Slack workspace (`/try/slack`, served by `bankops serve`). Everything it
 * shows arrives rendered from the server as server-sent events (messages, modals, the home tab);
 * everything a person does is a POST of what they did (the path of the button, the values typed)
 * for the server to send the app as Slack would. No framework, no asset from elsewhere.
 */

interface Person {
  id: string;
  name: string;
  role: string;
}
interface ChannelItem {
  id: string;
  name: string;
  app: boolean;
}
interface Unit {
  channel: string;
  ts: string;
  html: string;
}
interface Completion {
  insert: string;
  usage: string;
  what: string;
}
interface Clock {
  now: string;
  offsetSeconds: number;
}
interface Snapshot {
  me: string;
  people: Person[];
  channels: ChannelItem[];
  units: Unit[];
  modal: string | null;
  home: string | null;
  clock: Clock | null;
  completions: Completion[];
}

const base = document.body.dataset.base ?? '/try/slack';
const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const nav = $<HTMLElement>('nav');
const who = $<HTMLSelectElement>('who');
const title = $<HTMLElement>('title');
const tabs = $<HTMLElement>('tabs');
const home = $<HTMLElement>('home');
const messages = $<HTMLElement>('messages');
const composer = $<HTMLFormElement>('composer');
const compose = $<HTMLTextAreaElement>('compose');
const list = $<HTMLUListElement>('completions');
const modal = $<HTMLElement>('modal');
const toast = $<HTMLElement>('toast');
const clock = $<HTMLElement>('clock');

/** Text made safe in HTML (names and completions come from the server, but are text). */
const esc = (text: string): string => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

let me = localStorage.getItem('bankops-try-user') ?? '';
let channels: ChannelItem[] = [];
let current = '';
let tab: 'messages' | 'home' = 'messages';
let completions: Completion[] = [];
let chosen = -1;
let stream: EventSource | undefined;
const unread = new Set<string>();

function say(problem: string): void {
  toast.textContent = problem;
  toast.hidden = false;
  setTimeout(() => {
    if (toast.textContent === problem) toast.hidden = true;
  }, 6000);
}

async function post(what: string, body: Record<string, unknown>): Promise<void> {
  try {
    const response = await fetch(`${base}/ui/${what}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { ok?: boolean; problem?: string };
    if (answer.ok !== true) say(answer.problem ?? `HTTP ${response.status}`);
  } catch (error) {
    say(`bankops cannot be reached: ${String(error)}`);
  }
}

/** One list of units per channel; only the current one shows. */
function listOf(channel: string): HTMLElement {
  let found = messages.querySelector<HTMLElement>(`[data-list="${CSS.escape(channel)}"]`);
  if (found === null) {
    found = document.createElement('div');
    found.className = 'list';
    found.dataset.list = channel;
    found.hidden = channel !== current;
    messages.append(found);
  }
  return found;
}

function upsert(unit: Unit, live: boolean): void {
  const target = listOf(unit.channel);
  const old = target.querySelector<HTMLElement>(`article[data-ts="${CSS.escape(unit.ts)}"]`);
  if (unit.html === '') {
    old?.remove();
    return;
  }
  const article = document.createElement('article');
  article.className = 'unit';
  article.dataset.ts = unit.ts;
  article.dataset.channel = unit.channel;
  article.innerHTML = unit.html;
  const wasOpen = old?.querySelector('details')?.open === true;
  const details = article.querySelector('details');
  if (details !== null && wasOpen) details.open = true;
  if (old !== null) old.replaceWith(article);
  else {
    const later = [...target.children].find((el) => Number((el as HTMLElement).dataset.ts) > Number(unit.ts));
    target.insertBefore(article, later ?? null);
  }
  if (live && unit.channel !== current) {
    unread.add(unit.channel);
    drawNav();
  }
  if (unit.channel === current) messages.scrollTop = messages.scrollHeight;
}

function drawNav(): void {
  const item = (c: ChannelItem) =>
    `<button type="button" data-channel="${esc(c.id)}" class="${c.id === current ? 'current' : ''}${unread.has(c.id) ? ' unread' : ''}">${c.app ? '● ' : '# '}${esc(c.name)}</button>`;
  nav.innerHTML = `<h3>Channels</h3>${channels
    .filter((c) => !c.app)
    .map(item)
    .join('')}<h3>Apps</h3>${channels
    .filter((c) => c.app)
    .map(item)
    .join('')}`;
}

function show(channel: string, nextTab: 'messages' | 'home' = 'messages'): void {
  current = channel;
  unread.delete(channel);
  const item = channels.find((c) => c.id === channel);
  const app = item?.app === true;
  tab = app ? nextTab : 'messages';
  title.textContent = app ? 'bankops' : `#${item?.name ?? ''}`;
  tabs.hidden = !app;
  for (const button of tabs.querySelectorAll<HTMLElement>('[data-tab]'))
    button.classList.toggle('current', button.dataset.tab === tab);
  home.hidden = tab !== 'home';
  messages.hidden = tab === 'home';
  composer.hidden = tab === 'home';
  for (const el of messages.querySelectorAll<HTMLElement>('[data-list]'))
    el.hidden = el.dataset.list !== channel;
  compose.placeholder = app
    ? 'Message bankops: /bank help lists what you may do'
    : `Message #${item?.name ?? ''}: /bank help lists what you may do`;
  drawNav();
  messages.scrollTop = messages.scrollHeight;
  if (tab === 'home') void post('home', { user: me });
}

function showModal(html: string | null): void {
  modal.innerHTML = html ?? '';
  modal.hidden = html === null;
  modal.querySelector<HTMLElement>('input, select, textarea')?.focus();
}

function showClock(time: Clock | null): void {
  if (time === null) {
    clock.textContent = 'unknown';
    return;
  }
  const offset = Math.round(time.offsetSeconds / 60);
  clock.textContent = `${new Date(time.now).toLocaleTimeString()}${offset === 0 ? '' : ` (+${offset} min)`}`;
  clock.setAttribute('datetime', time.now);
}

function snapshot(data: Snapshot): void {
  me = data.me;
  localStorage.setItem('bankops-try-user', me);
  who.innerHTML = data.people
    .map(
      (p) =>
        `<option value="${esc(p.id)}"${p.id === me ? ' selected' : ''}>${esc(`${p.name} — ${p.role}`)}</option>`,
    )
    .join('');
  channels = data.channels;
  completions = data.completions;
  messages.innerHTML = '';
  unread.clear();
  if (!channels.some((c) => c.id === current)) current = channels.find((c) => !c.app)?.id ?? '';
  for (const unit of data.units) upsert(unit, false);
  home.innerHTML = data.home ?? '<p class="empty">Opening…</p>';
  showModal(data.modal);
  showClock(data.clock);
  show(current, tab);
}

function follow(): void {
  stream?.close();
  stream = new EventSource(`${base}/events?user=${encodeURIComponent(me)}`);
  stream.addEventListener('snapshot', (e) => snapshot(JSON.parse((e as MessageEvent).data) as Snapshot));
  stream.addEventListener('unit', (e) => upsert(JSON.parse((e as MessageEvent).data) as Unit, true));
  stream.addEventListener('modal', (e) =>
    showModal((JSON.parse((e as MessageEvent).data) as { html: string | null }).html),
  );
  stream.addEventListener('home', (e) => {
    home.innerHTML = (JSON.parse((e as MessageEvent).data) as { html: string | null }).html ?? '';
  });
  stream.addEventListener('clock', (e) => showClock(JSON.parse((e as MessageEvent).data) as Clock));
}

/** Where a control is: a view (modal, home tab) or a message of a channel. */
function place(el: Element): Record<string, string> | undefined {
  const view = el.closest<HTMLElement>('[data-view]')?.dataset.view;
  if (view !== undefined) return { view };
  const ts = el.closest<HTMLElement>('.msg[data-ts]')?.dataset.ts;
  const channel = el.closest<HTMLElement>('article[data-channel]')?.dataset.channel;
  return ts === undefined || channel === undefined ? undefined : { channel, ts };
}

function click(el: HTMLElement, option?: string): void {
  const where = place(el);
  const path = el.dataset.path;
  if (where === undefined || path === undefined) return;
  void post('click', { user: me, path, ...where, ...(option === undefined ? {} : { option }) });
}

function drawCompletions(): void {
  const typed = compose.value.trimStart();
  const shown = typed.startsWith('/')
    ? completions.filter((c) => c.insert.startsWith(typed) || typed.startsWith(c.insert)).slice(0, 8)
    : [];
  chosen = Math.min(chosen, shown.length - 1);
  list.hidden = shown.length === 0;
  list.innerHTML = shown
    .map(
      (c, i) =>
        `<li data-insert="${esc(c.insert)}" class="${i === chosen ? 'chosen' : ''}"><code>${esc(c.usage)}</code> <span>${esc(c.what)}</span></li>`,
    )
    .join('');
}

function fill(insert: string): void {
  compose.value = insert;
  chosen = -1;
  compose.focus();
  drawCompletions();
}

function send(): void {
  const text = compose.value.trim();
  if (text === '') return;
  compose.value = '';
  chosen = -1;
  drawCompletions();
  void post(text.startsWith('/') ? 'command' : 'message', { user: me, channel: current, text });
}

document.addEventListener('click', (event) => {
  const el = event.target instanceof Element ? event.target : null;
  if (el === null) return;
  const advance = el.closest<HTMLElement>('[data-advance]')?.dataset.advance;
  if (advance !== undefined) return void post('clock', { seconds: Number(advance) });
  const channel = el.closest<HTMLElement>('[data-channel]:not(article)')?.dataset.channel;
  if (channel !== undefined && el.closest('nav') !== null) return show(channel);
  const wanted = el.closest<HTMLElement>('[data-tab]')?.dataset.tab;
  if (wanted === 'home' || wanted === 'messages') return show(current, wanted);
  const insert = el.closest<HTMLElement>('[data-insert]')?.dataset.insert;
  if (insert !== undefined) return fill(insert);
  const closer = el.closest('[data-close]');
  const form = el.closest<HTMLElement>('form[data-view]');
  if (closer !== null && form !== null) return void post('close', { user: me, view: form.dataset.view });
  const control = el.closest<HTMLElement>('button[data-path], a[data-path]');
  if (control === null) return;
  const confirm = control.dataset.confirm;
  const dialog = confirm === undefined ? null : document.getElementById(confirm);
  if (dialog instanceof HTMLDialogElement) {
    dialog.returnValue = '';
    dialog.onclose = () => {
      if (dialog.returnValue === 'yes') click(control);
    };
    dialog.showModal();
    return;
  }
  click(control);
});

document.addEventListener('change', (event) => {
  const el = event.target;
  if (el instanceof HTMLSelectElement && el.dataset.path !== undefined && el.value !== '')
    click(el, el.value);
});

modal.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.dataset.view === undefined) return;
  event.preventDefault();
  const values: Record<string, string> = {};
  for (const el of form.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(
    '[name]',
  ))
    values[el.name] = el.value;
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (submit !== null) submit.disabled = true;
  void post('submit', { user: me, view: form.dataset.view, values }).finally(() => {
    if (submit !== null) submit.disabled = false;
  });
});

composer.addEventListener('submit', (event) => {
  event.preventDefault();
  send();
});

compose.addEventListener('input', () => {
  chosen = -1;
  drawCompletions();
});

compose.addEventListener('keydown', (event) => {
  const items = [...list.querySelectorAll<HTMLElement>('li')];
  if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && items.length > 0) {
    event.preventDefault();
    chosen = (chosen + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
    drawCompletions();
  } else if ((event.key === 'Tab' || (event.key === 'Enter' && chosen >= 0)) && items.length > 0) {
    const item = items[Math.max(chosen, 0)]?.dataset.insert;
    if (item !== undefined && item !== compose.value) {
      event.preventDefault();
      fill(item);
    }
  } else if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    send();
  } else if (event.key === 'Escape') {
    list.hidden = true;
  }
});

who.addEventListener('change', () => {
  me = who.value;
  follow();
});

follow();
