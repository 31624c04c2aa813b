import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

type Key = { kid: string; privateKey: CryptoKey; publicJwk: Record<string, unknown> };

async function newKey(kid: string): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

/**
 * An issuer on loopback that signs whatever a test asks (expired, for another audience, with a
 * key it does not publish) and rotates its key: the cases a real provider never produces on
 * purpose. It serves its discovery document and JWKS over HTTP like any issuer.
 */
export interface TokenMint {
  issuer: string;
  /** JWKS fetches so far. */
  jwksFetches: number;
  sign(claims: JWTPayload, options?: { unpublished?: boolean; kid?: string }): Promise<string>;
  /** A new signing key with a new `kid`; the JWKS publishes only it from now on. */
  rotate(): Promise<void>;
  close(): Promise<void>;
}

export async function startTokenMint(): Promise<TokenMint> {
  let current = await newKey('key-1');
  const stranger = await newKey('key-1');
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mint: TokenMint = {
    issuer,
    jwksFetches: 0,
    sign: (claims, options = {}) => {
      const key = options.unpublished === true ? stranger : current;
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: options.kid ?? key.kid })
        .sign(key.privateKey);
    },
    rotate: async () => {
      current = await newKey(`key-${Number(current.kid.slice(4)) + 1}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  server.on('request', (req, res) => {
    const body =
      req.url === '/.well-known/openid-configuration'
        ? { issuer, jwks_uri: `${issuer}/jwks` }
        : req.url === '/jwks'
          ? { keys: [current.publicJwk] }
          : undefined;
    if (req.url === '/jwks') mint.jwksFetches += 1;
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: 'not found' }));
  });
  return mint;
}
