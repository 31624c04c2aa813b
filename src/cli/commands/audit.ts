import { parseArgs } from 'node:util';
import { openBackend } from '../../app/database.js';
import { type AuditEntry, AuditLog } from '../../core/audit/index.js';
import { optional } from '../../core/optional.js';
import { verifySignatures } from '../../core/passkeys/index.js';
import { type ColumnOf, limitColumns, type OutputDocument, tableOf } from '../../present/output/index.js';
import { actorName } from '../../present/people.js';
import { cliConfig } from '../config.js';
import { EXIT, err, out, printJson, UsageError } from '../io.js';
import { outputMode, printDocument } from '../output.js';
import { checkSubcommand } from './table.js';

export const AUDIT_HELP = `Usage:
  bankops audit tail [-n <count>] [--json]
  bankops audit verify [--anchor <seq>:<hash>] [--signatures]
  bankops audit export [--since <ISO time>] [--tool <name>] [--actor <id>]

The audit log of every call: allowed, denied, pending, approved, failed. It is append-only and
hash-chained; verify recomputes the chain and names the first entry that does not match. Record the
head it prints somewhere else, and pass it back with --anchor to also detect removed newest entries.
--signatures also re-checks every vote confirmed with a passkey, offline: its assertion against the
public key enrolled to that person in an earlier entry, over the hash of what it signed (this
entry's approval, tool and input, the bound, a nonce); every vote that fails is named.
tail prints a table on a terminal, JSON with --json or when stdout is not a terminal. export writes
JSON lines to stdout.

Exit status: 0 done (verify: the chain is intact, and reaches the anchor if one is given, and with
--signatures every signed vote verifies), 1 verify found a broken or cut chain or a failing
signature, 2 usage.
`;

type Entry = AuditEntry;

const TAIL_COLUMNS: ColumnOf<Entry>[] = [
  { key: 'seq', label: 'Seq', kind: 'number', rank: 0, cell: (e) => String(e.seq) },
  { key: 'ts', label: 'Time', kind: 'time', rank: 1, cell: (e) => e.ts },
  // People by name, as every answer names them; the ids are in --json and export.
  { key: 'actor', label: 'Actor', rank: 2, cell: (e) => actorName(e.actor) },
  { key: 'tool', label: 'Tool', rank: 3, cell: (e) => e.tool },
  { key: 'event', label: 'Event', kind: 'status', rank: 4, cell: (e) => `${e.event}/${e.decision}` },
  { key: 'outcome', label: 'Outcome', kind: 'status', rank: 5, cell: (e) => e.outcome },
  { key: 'approvalId', label: 'Approval', kind: 'id', rank: 7, cell: (e) => e.approvalId },
  { key: 'error', label: 'Error', rank: 6, cell: (e) => e.error },
];

function tailDocument(entries: readonly Entry[], maxColumns: number): OutputDocument {
  if (entries.length === 0)
    return { title: 'Audit log', blocks: [{ type: 'note', text: 'No entries yet.', tone: 'info' }] };
  // Entries are numbered from 1, so the oldest shown says how many came before.
  const earlier = (entries[0]?.seq ?? 1) - 1;
  const more =
    earlier > 0
      ? `${earlier} earlier entr${earlier === 1 ? 'y is' : 'ies are'} not shown: -n <count> shows more, bankops audit export all of them.`
      : undefined;
  return {
    title: 'Audit log',
    blocks: [
      ...limitColumns(tableOf(entries, TAIL_COLUMNS), maxColumns, '--json shows them'),
      ...(more === undefined ? [] : [{ type: 'note' as const, text: more, tone: 'info' as const }]),
    ],
  };
}

/** `--signatures`: every signed vote and break-glass re-checked offline; the failing ones named. */
async function checkSignatures(audit: AuditLog): Promise<boolean> {
  const report = await verifySignatures(await audit.entries());
  for (const failure of report.failures) {
    out(
      `signature FAILS at entry ${failure.seq} (${failure.approvalId ?? 'no approval'}, ${failure.actor}): ${failure.reason}\n`,
    );
  }
  out(
    `passkey signatures (votes, break-glass): ${report.checked} checked, ${report.checked - report.failures.length} verify, ${report.failures.length} fail\n`,
  );
  return report.failures.length === 0;
}

export async function auditCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: {
      n: { type: 'string', short: 'n' },
      json: { type: 'boolean' },
      anchor: { type: 'string' },
      signatures: { type: 'boolean' },
      since: { type: 'string' },
      tool: { type: 'string' },
      actor: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h' || values.help) {
    out(AUDIT_HELP);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  checkSubcommand('audit', sub, AUDIT_HELP);
  // The audit log needs no service: open the database alone.
  const opened = await openBackend(cliConfig());
  try {
    const audit = new AuditLog(opened.storage);
    switch (sub) {
      case 'tail': {
        const n = values.n === undefined ? 20 : Number(values.n);
        if (!Number.isInteger(n) || n < 1) throw new UsageError('-n must be a positive integer');
        const entries = await audit.tail(n);
        const mode = outputMode(values.json);
        if (mode.text) printDocument((maxColumns) => tailDocument(entries, maxColumns), mode);
        else printJson(entries);
        return EXIT.ok;
      }
      case 'verify': {
        let anchor: { seq: number; hash: string } | undefined;
        if (values.anchor !== undefined) {
          const m = /^(\d+):([0-9a-f]{64})$/.exec(values.anchor);
          if (!m?.[1] || !m[2])
            throw new UsageError('--anchor must be <seq>:<sha256 hex>, as verify prints it');
          anchor = { seq: Number(m[1]), hash: m[2] };
        }
        const result = await audit.verify(anchor);
        if (result.ok) {
          out(`audit log intact: ${result.entries} entries\nhead ${result.headSeq}:${result.head}\n`);
        } else {
          // The reason names its entry already (`entry 7: …`): said once.
          const reason = result.reason.replace(new RegExp(`^entry ${result.firstBrokenSeq}: `), '');
          out(
            `audit log BROKEN at entry ${result.firstBrokenSeq}: ${reason} (${result.entries} entries checked)\n`,
          );
        }
        const signed = values.signatures === true ? await checkSignatures(audit) : true;
        return result.ok && signed ? EXIT.ok : EXIT.failed;
      }
      case 'export': {
        const count = await audit.exportJsonl((line) => out(`${line}\n`), {
          ...optional('since', values.since),
          ...optional('tool', values.tool),
          ...optional('actor', values.actor),
        });
        err(`exported ${count} entries\n`);
        return EXIT.ok;
      }
      default:
        throw new UsageError(`unknown audit command '${sub}'`, AUDIT_HELP);
    }
  } finally {
    await opened.close();
  }
}
