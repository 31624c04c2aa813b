import * as oidc from 'openid-client';
import { isLoopback } from '../../core/loopback.js';
import { SCOPES } from '../../core/oidc/index.js';
import type { SignIn } from './token-file.js';

/** What the CLI asks for: the person (`openid email`), refreshing (`offline_access`), bankops. */
const SCOPE = `openid email offline_access ${SCOPES.read} ${SCOPES.write}`;

/** The issuer's configuration for the CLI's public client; plain http only for an issuer on this machine. */
async function configure(issuer: string, clientId: string): Promise<oidc.Configuration> {
  const url = new URL(issuer);
  const local = url.protocol === 'http:' && isLoopback(issuer);
  return oidc.discovery(url, clientId, undefined, oidc.None(), {
    ...(local ? { execute: [oidc.allowInsecureRequests] } : {}),
  });
}

const signInOf = (
  issuer: string,
  clientId: string,
  tokens: oidc.TokenEndpointResponse,
  previous?: SignIn,
): SignIn => {
  const refreshToken = tokens.refresh_token ?? previous?.refreshToken;
  return {
    issuer,
    clientId,
    accessToken: tokens.access_token,
    ...(refreshToken === undefined ? {} : { refreshToken }),
    expiresAt: Date.now() + (tokens.expires_in ?? 300) * 1000,
  };
};

/**
 * RFC 8628, as `gh auth login` does it: the person opens a page, confirms the code shown, and the
 * CLI's polling gets the tokens. `tell` says where to go (stderr).
 */
export async function deviceSignIn(options: {
  issuer: string;
  clientId: string;
  resource: string;
  tell: (url: string, code: string) => void;
}): Promise<SignIn> {
  const config = await configure(options.issuer, options.clientId);
  const started = await oidc.initiateDeviceAuthorization(config, {
    scope: SCOPE,
    resource: options.resource,
  });
  options.tell(started.verification_uri_complete ?? started.verification_uri, started.user_code);
  const tokens = await oidc.pollDeviceAuthorizationGrant(config, started);
  return signInOf(options.issuer, options.clientId, tokens);
}

/** New tokens for a sign-in; fails when the person was disabled or the sign-in revoked at the IdP. */
export async function refreshSignIn(signIn: SignIn): Promise<SignIn> {
  if (signIn.refreshToken === undefined) throw new Error('the sign-in cannot be refreshed');
  const config = await configure(signIn.issuer, signIn.clientId);
  const tokens = await oidc.refreshTokenGrant(config, signIn.refreshToken);
  return signInOf(signIn.issuer, signIn.clientId, tokens, signIn);
}
