import type { Runtime } from '../../app/runtime.js';
import { personActor } from '../../core/oidc/person.js';
import { loadOidcSettings, type OidcSettings } from '../../core/oidc/settings.js';
import type { Actor } from '../../core/policy/types.js';
import { MCP_PATH } from '../../mcp/http.js';
import { cliIo, UsageError } from '../io.js';
import { readSignIn, type SignIn, signInPath, writeSignIn } from './token-file.js';

/** A refresh this long before expiry: a command started just before it should not fail halfway. */
const EARLY_MS = 30_000;

/** The identity provider settings the CLI signs in with; a usage error when they are missing. */
export function cliOidcSettings(runtime: Runtime): { settings: OidcSettings; resource: string } {
  const settings = loadOidcSettings(cliIo().env);
  if (settings === undefined)
    throw new UsageError('signing in needs BANKOPS_OAUTH_ISSUER (the identity provider, docs/mcp-http.md)');
  const publicUrl = runtime.config.publicUrl;
  const resource = settings.audience ?? (publicUrl === undefined ? undefined : `${publicUrl}${MCP_PATH}`);
  if (resource === undefined)
    throw new UsageError(
      'signing in needs BANKOPS_PUBLIC_URL (or BANKOPS_OAUTH_AUDIENCE): tokens are issued for it',
    );
  return { settings, resource };
}

/** This run's sign-in file: the one of the context in force, if any (`--context`, BANKOPS_CONTEXT). */
export const cliSignInPath = (runtime: Runtime): string =>
  signInPath(runtime.config.databasePath, cliIo().context?.name);

const ended = (why: string) => new UsageError(`your sign-in has ended (${why}); run: bankops login`);

/**
 * The person of this CLI's sign-in, under the policy in force: the token checked as the MCP server
 * checks one (signature, issuer, audience, expiry, age), refreshed first when it is about to expire.
 * A person disabled at the IdP fails at the refresh, so within a token's short life.
 */
export async function signedInActor(runtime: Runtime): Promise<Actor | undefined> {
  const path = cliSignInPath(runtime);
  let signIn: SignIn | undefined = readSignIn(path);
  if (signIn === undefined) return undefined;
  const { settings, resource } = cliOidcSettings(runtime);
  // The token checks and the refresh (jose, openid-client) load only for a CLI that is signed in.
  const [{ TokenVerifier }, { refreshSignIn }] = await Promise.all([
    import('../../core/oidc/verify.js'),
    import('./device.js'),
  ]);
  const verifier = new TokenVerifier({ settings, resource });
  let checked =
    signIn.expiresAt - EARLY_MS > Date.now() ? await verifier.verify(signIn.accessToken) : undefined;
  if (checked === undefined || !checked.ok) {
    try {
      signIn = await refreshSignIn(signIn);
    } catch {
      throw ended('the identity provider refused to refresh it');
    }
    writeSignIn(path, signIn);
    checked = await verifier.verify(signIn.accessToken);
    if (!checked.ok) throw ended(checked.reason);
  }
  const person = personActor(runtime.policy.current(), checked.identity, 'CLI');
  if (!person.ok) throw new UsageError(`you are signed in, but ${person.reason}`);
  return person.actor;
}
