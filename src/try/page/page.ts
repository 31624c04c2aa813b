import { TRY_PATH } from '../availability.js';

/**
 * The page's frame: no inline script or style (the Content-Security-Policy allows only bankops's
 * own), the script and stylesheet from bankops, everything else filled in by the script from the
 * server-sent events (messages, modals and the home tab arrive rendered).
 */
export const pageHtml = (): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>bankops · local Slack workspace</title>
<link rel="stylesheet" href="${TRY_PATH}/page.css">
<script type="module" src="${TRY_PATH}/page.js"></script>
</head>
<body data-base="${TRY_PATH}">
<header class="top">
<strong class="workspace">bankops · local workspace</strong>
<span class="note">A rehearsal of the Slack app on the sandbox: nothing here reaches Slack or real money.</span>
<label class="who">You are <select id="who"></select></label>
<span class="clock">Sandbox clock <time id="clock">…</time>
<button type="button" class="btn" data-advance="60">+1 min</button>
<button type="button" class="btn" data-advance="120">+2 min</button>
<button type="button" class="btn" data-advance="3600">+1 h</button></span>
</header>
<div class="layout">
<nav id="nav" aria-label="Channels"></nav>
<main>
<h2 id="title"></h2>
<div id="tabs" class="tabs" hidden><button type="button" data-tab="home">Home</button><button type="button" data-tab="messages">Messages</button></div>
<section id="home" class="home" hidden></section>
<section id="messages" class="messages" aria-live="polite"></section>
<form id="composer" class="composer" autocomplete="off">
<ul id="completions" class="completions" hidden></ul>
<textarea id="compose" rows="1" placeholder="Type /bank help"></textarea>
<button type="submit" class="btn primary">Send</button>
</form>
</main>
</div>
<div id="modal" class="modal-root" hidden></div>
<div id="toast" class="toast" role="status" hidden></div>
</body>
</html>
`;
