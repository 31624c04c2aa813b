import { parseArgs } from 'node:util';
import { PasskeyError } from '../../core/passkeys/index.js';
import { actorFor, withRuntime } from '../context.js';
import { EXIT, err, out, printJson, table, UsageError } from '../io.js';
import { outputMode } from '../output.js';
import { checkSubcommand } from './table.js';

export const PEOPLE_HELP = `Usage:
  bankops people enroll <person> [--as <name>] [--json]
  bankops people passkeys <person> [--json]
  bankops people revoke-passkey <person> <name> [--as <name>]

Passkeys of people, for approvals whose rule says stepUp: passkey (each vote counts only once
confirmed with one). A person is a name the policy gives with person: (alice), or an identity
without one (slack:U0123ABCD, cli:bob).

  enroll          prints a one-time link (valid 15 minutes) to <BANKOPS_PUBLIC_URL>/passkeys/enroll/…
                  where the person registers a passkey and names it; give it to them only
                  (in Slack a person gets their own with /bank passkey)
  passkeys        lists a person's passkeys: name, created, last used
  revoke-passkey  revokes one by its name; votes it signed before still verify

Enrolment and revocation are audited (event credential), with who did them.

Exit status: 0 done, 2 usage, 3 refused (no such passkey, no public URL for passkeys).
`;

export async function peopleCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { as: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h' || values.help) {
    out(PEOPLE_HELP);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  checkSubcommand('people', sub, PEOPLE_HELP);
  const [person, name] = positionals;
  if (person === undefined || !/^[A-Za-z0-9._@:-]{1,80}$/.test(person))
    throw new UsageError(
      `people ${sub} needs a person (a policy person: name, or an identity such as cli:bob)`,
      PEOPLE_HELP,
    );
  if (sub === 'revoke-passkey' && (name === undefined || name.trim() === ''))
    throw new UsageError('people revoke-passkey needs the passkey name (bankops people passkeys lists them)');
  const mode = outputMode(values.json);
  return withRuntime(async (runtime) => {
    const { passkeys } = runtime;
    try {
      switch (sub) {
        case 'enroll': {
          const link = await passkeys.enrolLink(person, await actorFor(runtime, values.as));
          if (mode.text)
            out(`Give this link to ${person} only; it works once, until ${link.expiresAt}:\n${link.url}\n`);
          else printJson({ person, url: link.url, expiresAt: link.expiresAt });
          return EXIT.ok;
        }
        case 'passkeys': {
          const list = await passkeys.list(person);
          if (!mode.text) printJson(list);
          else if (list.length === 0)
            out(`${person} has no passkey; bankops people enroll ${person} makes a link.\n`);
          else
            out(
              `${table(
                ['Name', 'Created', 'Last used'],
                list.map((p) => [p.name, p.createdAt, p.lastUsedAt ?? 'never']),
              )}\n`,
            );
          return EXIT.ok;
        }
        default: {
          const revoked = await passkeys.revoke(person, name ?? '', await actorFor(runtime, values.as));
          if (mode.text) out(`Revoked passkey "${revoked.name}" of ${person}.\n`);
          else printJson({ revoked });
          return EXIT.ok;
        }
      }
    } catch (error) {
      if (!(error instanceof PasskeyError)) throw error;
      err(`bankops: ${error.message}\n`);
      return EXIT.denied;
    }
  });
}
