/**
 * The commands that run a request or two and exit. They gain nothing from what pays off in a
 * process that stays up (V8's optimizing compilers, zod's parsers compiled per schema), and would
 * wait for it at every start; the servers (serve, mcp, sandbox) and the long checks (audit, db)
 * keep it.
 */
export const SHORT_COMMANDS: ReadonlySet<string> = new Set([
  'call',
  'approvals',
  'alerts',
  'people',
  'tools',
  'config',
  'help',
  'completion',
]);
