/** Text made safe inside HTML elements and double-quoted attributes. */
export const esc = (text: string): string => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export const ASSETS_PATH = '/passkeys/assets/';

/** An ISO time as the core writes it (`2026-11-29T20:00:21.894Z`). */
const ISO_TIME = /\b(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?Z\b/g;

/**
 * The times in a page's (escaped) body as `<time>` elements reading `2026-11-29 20:00 UTC`; the
 * page's script rewrites each in the reader's own zone (`2026-11-29 21:00 CET`).
 */
export const withTimes = (html: string): string =>
  html.replace(
    ISO_TIME,
    (iso, day: string, minute: string) => `<time datetime="${iso}">${day} ${minute} UTC</time>`,
  );

/** The frame of both pages: no inline script or style, the bundled script and stylesheet from bankops. */
export function pageHtml(options: {
  title: string;
  page: string;
  data?: Record<string, string>;
  body: string;
}): string {
  const data = Object.entries(options.data ?? {})
    .map(([key, value]) => ` data-${key}="${esc(value)}"`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(options.title)} · bankops</title>
<link rel="stylesheet" href="${ASSETS_PATH}page.css">
<script type="module" src="${ASSETS_PATH}passkey-page.js"></script>
</head>
<body data-page="${esc(options.page)}"${data}>
<main>
${withTimes(options.body)}
</main>
</body>
</html>
`;
}

/** Where a vote's or an enrolment's link comes from again. */
export const ASK_AGAIN =
  'Ask for a new link: <code>/bank passkey</code> or Approve again in Slack, or the same <code>bankops</code> command.';

/** A page that only says why it cannot go on (a used, expired or unknown link), and where to ask again (HTML). */
export const problemPage = (title: string, message: string, again = ASK_AGAIN): string =>
  pageHtml({
    title,
    page: 'problem',
    body: `<h1>${esc(title)}</h1>\n<p class="problem">${esc(message)}</p>\n<p class="note">${again}</p>`,
  });
