import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The pages' script (the browser half of @simplewebauthn, bundled) and stylesheet, served by
 * bankops itself: no third-party asset. `npm run build` writes them to dist/web-assets/
 * (scripts/bundle-web.mjs); from a checkout without a build they are bundled from browser/ once.
 */
export interface Assets {
  script: Buffer;
  css: Buffer;
}

// src/web/ and dist/web/ sit at the same depth below the package root.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILT = join(ROOT, 'dist', 'web-assets');

/** Bundles browser/passkey-page.ts like scripts/bundle-web.mjs does (esbuild is a dev dependency). */
async function bundleFromSource(): Promise<Assets> {
  const { bundleWebAssets } = (await import(join(ROOT, 'scripts', 'web-assets.mjs'))) as {
    bundleWebAssets: (root: string) => Promise<{ script: string; css: string }>;
  };
  const built = await bundleWebAssets(ROOT);
  return { script: Buffer.from(built.script), css: Buffer.from(built.css) };
}

let loading: Promise<Assets> | undefined;

export function loadAssets(): Promise<Assets> {
  loading ??= (async () => {
    const script = join(BUILT, 'passkey-page.js');
    const css = join(BUILT, 'page.css');
    if (existsSync(script) && existsSync(css))
      return { script: readFileSync(script), css: readFileSync(css) };
    return bundleFromSource();
  })();
  return loading;
}
