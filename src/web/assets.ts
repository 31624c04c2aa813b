import { existsSync, readFileSync } from 'node:fs';
import { packageFile } from '../core/package-root.js';

/**
 * The pages' script (the browser half of @simplewebauthn, bundled) and stylesheet, served by
 * bankops itself: no third-party asset. `npm run build` writes them to dist/web-assets/
 * (scripts/bundle-web.mjs); from a checkout without a build they are bundled from browser/ once.
 */
export interface Assets {
  script: Buffer;
  css: Buffer;
}

/** Bundles browser/passkey-page.ts like scripts/bundle-web.mjs does (esbuild is a dev dependency). */
async function bundleFromSource(): Promise<Assets> {
  const { bundleWebAssets } = (await import(packageFile('scripts', 'web-assets.mjs'))) as {
    bundleWebAssets: (root: string) => Promise<{ script: string; css: string }>;
  };
  const built = await bundleWebAssets(packageFile());
  return { script: Buffer.from(built.script), css: Buffer.from(built.css) };
}

let loading: Promise<Assets> | undefined;

export function loadAssets(): Promise<Assets> {
  loading ??= (async () => {
    const script = packageFile('dist', 'web-assets', 'passkey-page.js');
    const css = packageFile('dist', 'web-assets', 'page.css');
    if (existsSync(script) && existsSync(css))
      return { script: readFileSync(script), css: readFileSync(css) };
    return bundleFromSource();
  })();
  return loading;
}
