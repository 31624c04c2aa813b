import type { Config } from '../app/config.js';
import { serviceWords, storeWords } from '../app/database.js';
import { createRuntime, type Runtime } from '../app/runtime.js';
import { cliActor } from '../core/actors.js';
import { createLogger } from '../core/log.js';
import { optional } from '../core/optional.js';
import type { Actor } from '../core/policy/types.js';
import { cliConfig } from './config.js';
import { cliIo, err, UsageError } from './io.js';
import { type Progress, startProgress } from './progress.js';
import { signedInActor } from './signin/identity.js';

/** Starts showing the progress of `what` (stderr, terminals only), fed by the service calls it makes. */
export type Track = (what: string) => Progress;

/** `bankops: context prod; database …; service …`: where a command talks (`--verbose`, `config check`). */
export function whereWords(config: Config): string {
  const context = cliIo().context;
  const named = context === undefined ? 'no context' : `context ${context.name} (${context.file})`;
  return `bankops: ${named}; database: ${storeWords(config)}; service: ${serviceWords(config)}`;
}

/** Runs a command with the runtime built from the environment, and closes it afterwards. */
export async function withRuntime<T>(fn: (runtime: Runtime, track: Track) => Promise<T>): Promise<T> {
  const { env, clock } = cliIo();
  const config = cliConfig();
  let current: Progress | undefined;
  const runtime = await createRuntime(config, {
    log: createLogger(env.BANKOPS_LOG_LEVEL === 'debug' ? 'debug' : 'warn'),
    onServiceCall: (event) => current?.service(event),
    inProcessSandbox: true,
    ...optional('clock', clock),
  });
  if (cliIo().verbose === true) err(`${whereWords(config)}\n`);
  const track: Track = (what) => {
    current?.stop();
    current = startProgress(what);
    return current;
  };
  try {
    return await fn(runtime, track);
  } finally {
    current?.stop();
    await runtime.close();
  }
}

/**
 * The CLI actor of a call: `--as <name>`, else BANKOPS_ACTOR, else the OS user. Against a real
 * service the OS account that runs the command comes along, and is a requester too: asking under
 * another name and approving under one's own is one person acting alone.
 */
export async function actorFor(runtime: Runtime, as: string | undefined): Promise<Actor> {
  const person = await signedIn(runtime, as);
  if (person !== undefined) return person;
  const name = as ?? runtime.config.cliActor;
  if (!/^[A-Za-z0-9._@-]{1,64}$/.test(name)) {
    throw new UsageError(
      `${as === undefined ? 'BANKOPS_ACTOR' : '--as'} must be letters, digits and . _ @ - only (at most 64), got '${name}'`,
    );
  }
  return runtime.againstSandbox ? cliActor(name) : cliActor(name, runtime.config.osUser);
}

/**
 * Who decides an approval at this CLI. Against a sandbox, `--as` and BANKOPS_ACTOR name anyone,
 * so one person can try separation of duties. Against a real service they cannot: the approver,
 * rejecter or canceller is the OS account that runs the command (a name is not a login).
 */
export async function deciderFor(runtime: Runtime, as: string | undefined): Promise<Actor> {
  const person = await signedIn(runtime, as);
  if (person !== undefined) return person;
  if (runtime.againstSandbox) return actorFor(runtime, as);
  const me = runtime.config.osUser;
  if (as !== undefined && as !== me) {
    throw new UsageError(
      `--as ${as}: against the service, approvals are decided as the OS account running bankops (${me}); --as names the requester of a call only`,
    );
  }
  return cliActor(me, me);
}

/**
 * The person of `bankops login`, when there is one and no `--as`. When the policy says `cli: login`
 * there must be one, and `--as` is refused: every command is by a person the IdP vouches for.
 */
async function signedIn(runtime: Runtime, as: string | undefined): Promise<Actor | undefined> {
  const required = runtime.policy.current().cli === 'login';
  if (required && as !== undefined)
    throw new UsageError(
      `--as ${as}: the policy says cli: login, so commands run as the person signed in (bankops whoami)`,
    );
  if (!required && as !== undefined) return undefined;
  const person = await signedInActor(runtime);
  if (person === undefined && required)
    throw new UsageError('the policy says cli: login: sign in first with bankops login');
  return person;
}
