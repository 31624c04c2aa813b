// What an access token costs a read over MCP over HTTP, against the same read with a static key, in
// one run: the same server, two clients (one per credential), interleaved rounds, medians. The
// token is a JWT checked with a cached JWKS (the steady state: the issuer's keys fetched once).
// Also the check alone (TokenVerifier.verify), without HTTP. Budget: ≤ 0.2 ms a call (issue 31).
// Run: npx tsx bench/oauth.bench.ts [calls per round]
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { parse, stringify } from 'yaml';
import { loadConfig } from '../src/app/config.js';
import { createRuntime } from '../src/app/runtime.js';
import { startServe } from '../src/app/serve.js';
import { createLogger } from '../src/core/log.js';
import { TokenVerifier } from '../src/core/oidc/verify.js';
import { defaultPolicyPath } from '../src/core/policy/default-path.js';
import { OAuthResource } from '../src/mcp/http/oauth.js';
import { median } from './stats.js';

const ROUNDS = 7;
const CALLS = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 200);
const WARMUP = 500;
const VERIFY_CALLS = 5000;

// An issuer on loopback: discovery and JWKS, as any IdP serves them.
const { privateKey, publicKey } = await generateKeyPair('ES256');
const jwk = { ...(await exportJWK(publicKey)), kid: 'bench-1', alg: 'ES256', use: 'sig' };
const idp = createServer();
await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
idp.on('request', (req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(req.url === '/jwks' ? { keys: [jwk] } : { issuer, jwks_uri: `${issuer}/jwks` }));
});

const dir = mkdtempSync(join(tmpdir(), 'bankops-bench-oauth-'));
const KEY = `bk_${randomBytes(24).toString('hex')}`;
const policy = parse(readFileSync(defaultPolicyPath(), 'utf8')) as Record<string, unknown> & {
  actors: unknown[];
};
policy.actors.push(
  { match: { mcpKey: 'bench' }, roles: ['viewer'] },
  { match: { oidc: { email: 'olivia@bank.example' } }, roles: ['viewer'], person: 'olivia' },
);
policy.mcpKeys = [{ name: 'bench', sha256: createHash('sha256').update(KEY).digest('hex') }];
writeFileSync(join(dir, 'policy.yaml'), stringify(policy));
const runtime = await createRuntime(
  loadConfig({ BANKOPS_DB: join(dir, 'bankops.db'), BANKOPS_POLICY: join(dir, 'policy.yaml') }),
  { log: createLogger('error') },
);
const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const free = (probe.address() as AddressInfo).port;
    probe.close(() => resolve(free));
  });
});
const publicUrl = `http://127.0.0.1:${port}`;
const settings = { issuers: [issuer], maxTokenAgeS: 3600 };
const serve = await startServe({
  runtime,
  host: '127.0.0.1',
  port,
  settings: { slack: { enabled: false, why: 'bench' }, publicUrl },
  mcp: { oauth: new OAuthResource({ settings, publicUrl }) },
});
const now = Math.floor(Date.now() / 1000);
const token = await new SignJWT({
  iss: issuer,
  aud: `${publicUrl}/mcp`,
  sub: 'u-olivia',
  email: 'olivia@bank.example',
  client_id: 'bench',
  scope: 'bankops:read',
  jti: 'bench',
  iat: now,
  exp: now + 3600,
})
  .setProtectedHeader({ alg: 'ES256', kid: 'bench-1', typ: 'at+jwt' })
  .sign(privateKey);

async function connect(bearer: string): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${publicUrl}/mcp`), {
      authProvider: { token: async () => bearer },
    }),
  );
  return client;
}
const withKey = await connect(KEY);
const withToken = await connect(token);
const read = (client: Client) => client.callTool({ name: 'list_accounts', arguments: {} });

async function perCall(client: Client, n: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i += 1) await read(client);
  return Number(process.hrtime.bigint() - start) / 1e6 / n;
}

await perCall(withKey, WARMUP);
await perCall(withToken, WARMUP);
const keyMs: number[] = [];
const tokenMs: number[] = [];
const diffs: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  // Interleaved, the order alternating, so drift in the machine's load falls on both alike.
  const [first, second] = round % 2 === 0 ? [withKey, withToken] : [withToken, withKey];
  const a = await perCall(first, CALLS);
  const b = await perCall(second, CALLS);
  const [k, t] = first === withKey ? [a, b] : [b, a];
  keyMs.push(k);
  tokenMs.push(t);
  diffs.push(t - k);
}

const verifier = new TokenVerifier({ settings, resource: `${publicUrl}/mcp` });
for (let i = 0; i < WARMUP; i += 1) await verifier.verify(token);
const start = process.hrtime.bigint();
for (let i = 0; i < VERIFY_CALLS; i += 1) await verifier.verify(token);
const verifyMs = Number(process.hrtime.bigint() - start) / 1e6 / VERIFY_CALLS;

console.log(
  `\n## OAuth access tokens over MCP HTTP (load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')})`,
);
console.log(
  `read (list_accounts) with a static key:   ${median(keyMs).toFixed(3)} ms a call (median of ${ROUNDS} rounds of ${CALLS})`,
);
console.log(`read with a JWT access token (JWKS cached): ${median(tokenMs).toFixed(3)} ms a call`);
console.log(
  `difference, token − key (median of rounds): ${median(diffs).toFixed(3)} ms (budget 0.2 ms); ratio ${(median(tokenMs) / median(keyMs)).toFixed(3)}`,
);
console.log(`the check alone (TokenVerifier.verify, ES256): ${(verifyMs * 1000).toFixed(1)} µs`);

await withKey.close();
await withToken.close();
await serve.close();
await runtime.close();
idp.close();
rmSync(dir, { recursive: true, force: true });
