import type { ServerResponse } from 'node:http';

/**
 * Server-sent events to the open pages: each page follows one person (the user switcher picks
 * who), and hears what that person sees change. An event is one JSON object; `data:` lines carry
 * it whole (it holds no newline: JSON escapes them).
 */
export class PageStreams {
  readonly #pages = new Set<{ user: string; res: ServerResponse }>();

  open(user: string, res: ServerResponse, first: { event: string; data: unknown }): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    });
    const page = { user, res };
    this.#pages.add(page);
    res.on('close', () => this.#pages.delete(page));
    this.#write(page.res, first.event, first.data);
  }

  /** To every page following one of `users` (every page when absent). */
  send(event: string, data: unknown, users?: (user: string) => boolean): void {
    for (const page of this.#pages)
      if (users === undefined || users(page.user)) this.#write(page.res, event, data);
  }

  /** Each page gets its own rendering (what differs per person). */
  sendEach(event: string, render: (user: string) => unknown): void {
    for (const page of this.#pages) this.#write(page.res, event, render(page.user));
  }

  close(): void {
    for (const page of this.#pages) page.res.end();
    this.#pages.clear();
  }

  #write(res: ServerResponse, event: string, data: unknown): void {
    if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}
