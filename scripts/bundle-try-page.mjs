// Writes src/try/page/assets.generated.ts (see try-page-assets.mjs).
import { writeFileSync } from 'node:fs';
import { GENERATED, tryPageModule } from './try-page-assets.mjs';

writeFileSync(GENERATED, await tryPageModule(process.cwd()));
