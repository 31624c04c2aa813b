// `prepare` (npm ci, npm install, npm link): builds only when dist/ is missing or older than what it
// is built from, so `npm ci && npm link` builds once, not twice. `npm run build` always builds.
// `--check` only answers: exit 0 when dist/ is up to date, 1 when a build is due. A root directory
// may follow (tests); the default is this package.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const check = args.includes('--check');
const root = resolve(args.find((arg) => arg !== '--check') ?? join(import.meta.dirname, '..'));

/** Newest modification time under `path` (a file or a folder), 0 when it does not exist. */
function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Oldest of the outputs; 0 when one is missing. */
const outputs = [
  'dist/cli.js',
  'dist/default-policy.json',
  'dist/mcp-bundle/bankops-mcp.mjs',
  'dist/web-assets/passkey-page.js',
].map((file) => newest(join(root, file)));
const built = Math.min(...outputs);
const inputs = [
  'src',
  'scripts',
  'policy/default.yaml',
  'browser',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
const source = Math.max(...inputs.map((file) => newest(join(root, file))));
const stale = built === 0 || source > built;

if (check) process.exit(stale ? 1 : 0);
if (!stale) {
  process.stderr.write('bankops: dist/ is up to date; not building again (npm run build forces it)\n');
  process.exit(0);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
