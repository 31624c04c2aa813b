import type { SandboxCredentials } from './credentials.js';
import { invalid, unauthorized } from './errors.js';
import type { TokenIssuer } from './tokens.js';
import type { HeaderSetName, SandboxRequest } from './types.js';

type Bearer = 'required' | 'optional' | 'none';

/** The spelling the spec uses, for messages. */
const headerLabel = (name: string): string =>
  name === 'content-type' ? 'Content-Type' : name === 'authorization' ? 'Authorization' : name;

interface HeaderSet {
  required: readonly string[];
  bearer: Bearer;
}

/** The spec's header sets ("Shorthand for header sets", "Authentication and users"). */
const SETS: Record<HeaderSetName, HeaderSet> = {
  TOKEN: { required: ['x-api-key', 'x-company-id', 'x-request-id', 'x-user-id'], bearer: 'none' },
  USERS: { required: ['x-api-key', 'x-product-id', 'x-request-id'], bearer: 'none' },
  HB: { required: ['x-api-key', 'x-product-id', 'x-request-id', 'x-user-id'], bearer: 'required' },
  HA: { required: ['x-api-key', 'x-product-id', 'x-request-id', 'x-user-id'], bearer: 'required' },
  HA_WALLET: {
    required: ['x-api-key', 'x-product-id', 'x-request-id', 'x-user-id', 'x-cardholder-id'],
    bearer: 'optional',
  },
  HB2: { required: ['x-api-key', 'x-product-id', 'x-request-id'], bearer: 'optional' },
  NOTIFY: { required: ['x-api-key'], bearer: 'none' },
  none: { required: [], bearer: 'none' },
};

/**
 * Checks the route's header set: presence of every required header, Content-Type and, where
 * required, Authorization included (400 naming it), then the credentials (401): API key, product id, user id and company id must be the configured ones, and a
 * bearer token must be valid and unexpired where required, and valid if sent where optional.
 * Returns the user id the token was issued to, if a token was checked.
 */
export function checkHeaders(
  req: SandboxRequest,
  setName: HeaderSetName,
  extra: readonly string[],
  creds: SandboxCredentials,
  tokens: TokenIssuer,
): { userId?: string } {
  const set = SETS[setName];
  if (setName === 'none') return {};
  // Every header set of the spec lists Content-Type and marks it required ("Send Content-Type:
  // application/json on every request"), bodies or not; a missing Authorization is a missing
  // header too. The notification endpoints mark only x-api-key R ("x-api-key R, Content-Type"):
  // there Content-Type is required with a body, and a bodiless GET may leave it out.
  const contentType = setName !== 'NOTIFY' || req.method !== 'GET';
  const required = [
    ...set.required,
    ...extra,
    ...(contentType ? ['content-type'] : []),
    ...(set.bearer === 'required' ? ['authorization'] : []),
  ];
  for (const name of required) {
    const value = req.header(name);
    if (value === undefined || value.trim() === '')
      throw invalid(`missing required header ${headerLabel(name)}`);
  }
  const sent = req.header('content-type');
  if ((contentType || sent !== undefined) && !sent?.toLowerCase().includes('application/json')) {
    throw invalid('Content-Type must be application/json');
  }
  if (req.header('x-api-key') !== creds.apiKey) throw unauthorized('invalid x-api-key');
  const productId = req.header('x-product-id');
  if (set.required.includes('x-product-id') && productId !== creds.productId) {
    throw unauthorized(`unknown x-product-id '${productId ?? ''}'`);
  }
  const userId = req.header('x-user-id');
  if (set.required.includes('x-user-id') && userId !== creds.userId) {
    throw unauthorized(`unknown x-user-id '${userId ?? ''}'`);
  }
  const companyId = req.header('x-company-id');
  if (set.required.includes('x-company-id') && companyId !== creds.companyId) {
    throw unauthorized(`unknown x-company-id '${companyId ?? ''}'`);
  }
  const authorization = req.header('authorization');
  if (set.bearer === 'none' || (set.bearer === 'optional' && authorization === undefined)) return {};
  if (authorization === undefined) throw invalid('missing required header Authorization');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match?.[1]) throw unauthorized('Authorization header must be "Bearer <token>"');
  const claims = tokens.verify(match[1]);
  if (userId !== undefined && claims.sub !== userId) {
    throw unauthorized('bearer token was issued to another user than x-user-id');
  }
  return { userId: claims.sub };
}
