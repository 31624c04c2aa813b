import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SandboxClock } from './clock.js';
import { unauthorized } from './errors.js';

/** Token lifetime from the spec: a JWT valid for 30 minutes (`expiresIn` = 1800). */
export const TOKEN_LIFETIME_SECONDS = 1800;

interface Claims {
  sub: string;
  company: string;
  iat: number;
  exp: number;
  jti: string;
}

const b64url = (input: Buffer | string): string => Buffer.from(input).toString('base64url');

/** Issues and verifies HS256 JWTs; expiry is judged by the sandbox clock. */
export class TokenIssuer {
  private readonly secret = randomBytes(32);

  constructor(private readonly clock: SandboxClock) {}

  issue(userId: string, companyCode: string): { token: string; expiresIn: number } {
    const iat = Math.floor(this.clock.nowMs() / 1000);
    const claims: Claims = {
      sub: userId,
      company: companyCode,
      iat,
      exp: iat + TOKEN_LIFETIME_SECONDS,
      jti: randomBytes(8).toString('hex'),
    };
    const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const body = b64url(JSON.stringify(claims));
    return { token: `${head}.${body}.${this.sign(`${head}.${body}`)}`, expiresIn: TOKEN_LIFETIME_SECONDS };
  }

  /** Returns the token's claims or throws a 401 naming what is wrong with it. */
  verify(token: string): Claims {
    const parts = token.split('.');
    const [head, body, sig] = parts;
    if (parts.length !== 3 || head === undefined || body === undefined || sig === undefined) {
      throw unauthorized('invalid bearer token: not a JWT');
    }
    const expected = Buffer.from(this.sign(`${head}.${body}`));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw unauthorized('invalid bearer token: signature does not match');
    }
    let claims: Claims;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Claims;
    } catch {
      throw unauthorized('invalid bearer token: unreadable claims');
    }
    if (Math.floor(this.clock.nowMs() / 1000) >= claims.exp) {
      throw unauthorized('bearer token expired; request a new one from /svc/api/v1/auth/token');
    }
    return claims;
  }

  private sign(input: string): string {
    return createHmac('sha256', this.secret).update(input).digest('base64url');
  }
}
