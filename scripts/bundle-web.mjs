// Writes the passkey pages' script and stylesheet to dist/web-assets/ (see web-assets.mjs).
import { mkdirSync, writeFileSync } from 'node:fs';
import { bundleWebAssets } from './web-assets.mjs';

const built = await bundleWebAssets(process.cwd());
mkdirSync('dist/web-assets', { recursive: true });
writeFileSync('dist/web-assets/passkey-page.js', built.script);
writeFileSync('dist/web-assets/page.css', built.css);
