import type { Obj } from '../conversations.js';
import { objects } from '../conversations.js';
import type { OpenView } from '../views.js';
import { blocksHtml } from './blocks.js';
import { esc, type RenderContext } from './html.js';
import { viewText } from './message.js';

/** A modal: its title bar, its blocks (inputs pre-filled, errors inline), Close and Submit. */
export function modalHtml(open: OpenView, ctx: RenderContext): string {
  const view: Obj = open.view;
  const hasSubmit = view.submit !== undefined;
  const submit = hasSubmit
    ? `<button type="submit" class="btn primary">${viewText(view, 'submit', 'Submit', ctx)}</button>`
    : '';
  return (
    `<form class="modal" data-view="${esc(open.id)}">` +
    `<header><h2>${viewText(view, 'title', 'App', ctx)}</h2><button type="button" class="x" data-close aria-label="Close">×</button></header>` +
    `<div class="modal-body">${blocksHtml(objects(view.blocks), 'b', ctx, open)}</div>` +
    `<footer><button type="button" class="btn" data-close>${viewText(view, 'close', 'Cancel', ctx)}</button>${submit}</footer></form>`
  );
}

/** A person's App Home: its blocks, buttons live. */
export const homeHtml = (open: OpenView, ctx: RenderContext): string =>
  `<div class="home-view" data-view="${esc(open.id)}">${blocksHtml(objects(open.view.blocks), 'b', ctx)}</div>`;
