import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGE_CSS, PAGE_SCRIPT } from '../../src/try/page/assets.generated.js';
import { pageHtml } from '../../src/try/page/page.js';

/**
 * The page's script and stylesheet are inlined into a generated module (nothing to find on disk
 * wherever the build puts the code): it must be the bundle of its sources as they are now, and the
 * page small (HTML, JS and CSS under 100 KB).
 */
describe('the local workspace page', () => {
  it('is served from a module made from browser/try-slack.ts and .css as they are now', async () => {
    const root = join(import.meta.dirname, '..', '..');
    const { tryPageModule } = (await import(join(root, 'scripts', 'try-page-assets.mjs'))) as {
      tryPageModule: (root: string) => Promise<string>;
    };
    const fresh = await tryPageModule(root);
    expect(
      readFileSync(join(root, 'src', 'try', 'page', 'assets.generated.ts'), 'utf8') === fresh,
      'src/try/page/assets.generated.ts is out of date: npm run build:try-page',
    ).toBe(true);
  });

  it('weighs under 100 KB, with no inline script or style and nothing from elsewhere', () => {
    const html = pageHtml();
    const bytes = [html, PAGE_SCRIPT, PAGE_CSS].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    expect(bytes).toBeLessThan(100 * 1024);
    expect(html).not.toMatch(/<script>|style=|<style|https?:\/\//);
    expect(PAGE_SCRIPT + PAGE_CSS).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  });
});
