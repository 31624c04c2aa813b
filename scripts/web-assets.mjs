// The passkey pages' assets: browser/passkey-page.ts with @simplewebauthn/browser bundled and minified
// (no third-party asset at runtime), and browser/page.css. Used by bundle-web.mjs at build time and by
// src/web/assets.ts in a checkout that was not built.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

export async function bundleWebAssets(root) {
  const result = await build({
    entryPoints: [join(root, 'browser', 'passkey-page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const script = result.outputFiles[0]?.text ?? '';
  const css = readFileSync(join(root, 'browser', 'page.css'), 'utf8');
  return { script, css };
}
