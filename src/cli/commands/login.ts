import { parseArgs } from 'node:util';
import { withRuntime } from '../context.js';
import { cliIo, EXIT, err, out, printJson, UsageError } from '../io.js';
import { deviceSignIn } from '../signin/device.js';
import { cliOidcSettings, cliSignInPath, signedInActor } from '../signin/identity.js';
import { removeSignIn, writeSignIn } from '../signin/token-file.js';

export const LOGIN_HELP = `Usage: bankops login

Signs you in at the identity provider (BANKOPS_OAUTH_ISSUER) with the device flow, as gh auth
login does: open the address shown, confirm the code, and the CLI acts as you from then on. The
CLI signs in as the client BANKOPS_OAUTH_CLIENT_ID (a public client allowed the device flow).
The tokens are kept in signin.json beside the database (mode 0600) and refreshed as they expire;
under a named context (--context, BANKOPS_CONTEXT) in signin.<context>.json, one sign-in per
context. A person disabled at the identity provider is signed out at the next refresh.

When the policy says cli: login, every command needs a valid sign-in, and a name given to act
under is refused.
`;

export const LOGOUT_HELP = `Usage: bankops logout

Forgets this CLI's sign-in (deletes signin.json beside the database, or the context's
signin.<context>.json under a named context).
`;

export const WHOAMI_HELP = `Usage: bankops whoami [--json]

Says who the CLI acts as: the person signed in (checked, and refreshed if need be), or the local
name (the one given to act under, BANKOPS_ACTOR, the OS user) when nobody is signed in; and under
which named context, when one is in force (each context has its own sign-in).
`;

export async function loginCommand(args: string[]): Promise<number> {
  if (args.includes('--help')) {
    out(LOGIN_HELP);
    return EXIT.ok;
  }
  if (args.length > 0)
    throw new UsageError(`bankops login takes no arguments, got ${args.join(' ')}`, LOGIN_HELP);
  return withRuntime(async (runtime) => {
    const { settings, resource } = cliOidcSettings(runtime);
    if (settings.cliClientId === undefined)
      throw new UsageError('bankops login needs BANKOPS_OAUTH_CLIENT_ID: the client the CLI signs in as');
    const issuer = settings.issuers[0] ?? '';
    const signIn = await deviceSignIn({
      issuer,
      clientId: settings.cliClientId,
      resource,
      tell: (url, code) => err(`Open ${url} and confirm the code ${code}\nWaiting for you to sign in…\n`),
    });
    writeSignIn(cliSignInPath(runtime), signIn);
    const actor = await signedInActor(runtime);
    out(`Signed in as ${actor?.id ?? 'nobody'}\n`);
    return EXIT.ok;
  });
}

export async function logoutCommand(args: string[]): Promise<number> {
  if (args.includes('--help')) {
    out(LOGOUT_HELP);
    return EXIT.ok;
  }
  return withRuntime(async (runtime) => {
    const removed = removeSignIn(cliSignInPath(runtime));
    out(removed ? 'Signed out\n' : 'Nobody was signed in\n');
    return EXIT.ok;
  });
}

export async function whoamiCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, help: { type: 'boolean' } } });
  if (values.help === true) {
    out(WHOAMI_HELP);
    return EXIT.ok;
  }
  return withRuntime(async (runtime) => {
    const actor = await signedInActor(runtime);
    const context = cliIo().context?.name;
    const who =
      actor === undefined
        ? { signedIn: false, actor: `cli:${runtime.config.cliActor}`, context: context ?? null }
        : {
            signedIn: true,
            actor: actor.id,
            iss: actor.oidc?.iss,
            sub: actor.oidc?.sub,
            email: actor.oidc?.email,
            context: context ?? null,
          };
    const under = context === undefined ? '' : ` (context ${context})`;
    if (values.json === true) printJson(who);
    else
      out(
        actor === undefined
          ? `Not signed in${under}; acting as ${runtime.config.cliActor} (local)\n`
          : `${actor.id}${under}\n`,
      );
    return EXIT.ok;
  });
}
